#pragma once
// Where tests find data. The project's own data live in tests/data (always present). External
// reference data (../shared/data beside the checkout) are read-only and optional: a test that
// needs them calls SOFTSIM_REQUIRE_SHARED_DATA(), which skips visibly when they are absent.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

namespace softsim::test {

inline std::filesystem::path project_data_dir() { return SOFTSIM_TEST_DATA_DIR; }

// SOFTSIM_DATA_DIR overrides the default ../shared/data next to the source tree.
inline std::filesystem::path shared_data_dir() {
  if (const char* env = std::getenv("SOFTSIM_DATA_DIR"); env && *env) return env;
  return std::filesystem::path(SOFTSIM_SOURCE_DIR) / ".." / "shared" / "data";
}

}  // namespace softsim::test

#define SOFTSIM_REQUIRE_SHARED_DATA()                                                        \
  do {                                                                                       \
    if (!std::filesystem::exists(::softsim::test::shared_data_dir()))                        \
      GTEST_SKIP() << "shared reference data not found at "                                  \
                   << ::softsim::test::shared_data_dir() << " (set SOFTSIM_DATA_DIR)";       \
  } while (0)
