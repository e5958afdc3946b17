#pragma once
// A fresh, empty directory for one test under the system's temporary folder, removed with
// everything in it by the destructor.
#include <filesystem>
#include <string>

namespace softsim::test {

class TempDir {
 public:
  explicit TempDir(const std::string& tag);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace softsim::test
