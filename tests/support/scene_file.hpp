#pragma once
// The project's example scenes (scenes/ in the source tree), for tests and benches that run them.
#include <filesystem>
#include <string>

namespace softsim::test {

// name with its extension: scene_file("bowl_grasp.json").
inline std::filesystem::path scene_file(const std::string& name) {
  return std::filesystem::path(SOFTSIM_SOURCE_DIR) / "scenes" / name;
}

}  // namespace softsim::test
