#pragma once
// A text file's lines, or its whole text, byte for byte (none when it cannot be read): for
// comparing written outputs.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace softsim::test {

inline std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::vector<std::string> file_lines(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

}  // namespace softsim::test
