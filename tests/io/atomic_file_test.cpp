#include "softsim/io/atomic_file.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "io/io_test_util.hpp"
#include "softsim/core/errors.hpp"
#include "support/text_lines.hpp"

namespace softsim {
namespace {

TEST(WriteFileAtomically, ReplacesOnlyWhenComplete) {
  test::ScratchDir dir;
  const auto path = dir / "out.txt";
  write_file_atomically(path, [](std::ostream& out) { out << "first"; });
  EXPECT_EQ(test::file_text(path), "first");
  EXPECT_FALSE(std::filesystem::exists(dir / "out.txt.tmp"));
  // A writer that fails half-way leaves the previous file and no temporary behind.
  EXPECT_THROW(write_file_atomically(path,
                                     [&](std::ostream& out) {
                                       out << "half";
                                       out.flush();
                                       EXPECT_TRUE(std::filesystem::exists(dir / "out.txt.tmp"));
                                       EXPECT_EQ(test::file_text(path), "first");
                                       throw std::runtime_error("killed");
                                     }),
               std::runtime_error);
  EXPECT_EQ(test::file_text(path), "first");
  EXPECT_FALSE(std::filesystem::exists(dir / "out.txt.tmp"));
  write_file_atomically(path, [](std::ostream& out) { out << "second"; });
  EXPECT_EQ(test::file_text(path), "second");
}

TEST(WriteFileAtomically, UnwritableLocationIsARunError) {
  test::ScratchDir dir;
  const auto path = dir / "no" / "such" / "folder" / "out.txt";
  try {
    write_file_atomically(path, [](std::ostream& out) { out << "x"; });
    FAIL() << "no exception";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("out.txt"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace softsim
