#pragma once
// The lines of a text file (none when it cannot be read): for comparing written outputs.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace softsim::test {

inline std::vector<std::string> file_lines(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

}  // namespace softsim::test
