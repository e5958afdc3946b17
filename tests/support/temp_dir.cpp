#include "support/temp_dir.hpp"

#include <unistd.h>

namespace softsim::test {

TempDir::TempDir(const std::string& tag) {
  path_ = std::filesystem::temp_directory_path() / ("softsim_test_" + std::to_string(::getpid()) + "_" + tag);
  std::filesystem::remove_all(path_);
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

}  // namespace softsim::test
