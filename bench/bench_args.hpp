#pragma once
// Command-line lists of the benchmark programs: "--threads 1,2" and the like.
#include <sstream>
#include <string>
#include <vector>

namespace softsim::bench {

// The comma-separated integers of `text`; std::stol throws on anything else.
inline std::vector<long> parse_list(const char* text) {
  std::vector<long> out;
  std::stringstream list(text);
  for (std::string item; std::getline(list, item, ',');) out.push_back(std::stol(item));
  return out;
}

}  // namespace softsim::bench
