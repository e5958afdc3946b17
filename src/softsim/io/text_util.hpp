#pragma once
// Small text helpers for the line-oriented readers (OBJ, PLY header, TetGen, MEDIT).
#include <charconv>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

namespace softsim::io_detail {

inline std::vector<std::string_view> split_words(std::string_view line) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
  return words;
}

inline bool parse_double(std::string_view s, double& out) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

inline bool parse_int(std::string_view s, long long& out) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

// Replaces every '#' comment (to the end of its line) by spaces, keeping line numbers.
inline void blank_comments(std::string& text) {
  bool in_comment = false;
  for (char& c : text) {
    if (c == '\n') in_comment = false;
    else if (c == '#') in_comment = true;
    if (in_comment) c = ' ';
  }
}

}  // namespace softsim::io_detail
