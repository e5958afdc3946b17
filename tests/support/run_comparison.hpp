#pragma once
// Comparing two runs of the same scene: the final checkpoints bit for bit, and stats.csv without
// its wall-clock column (the one thing two runs of a step do not share).
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "softsim/sim/checkpoint.hpp"

namespace softsim::test {

inline std::string stats_without_wall_time(const std::filesystem::path& stats_csv) {
  std::ifstream in(stats_csv);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::stringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    if (cells.size() > 9) cells.erase(cells.begin() + 9);  // wall_ms
    for (const auto& c : cells) out += c + ",";
    out += "\n";
  }
  return out;
}

// The two output folders' checkpoints hold the same step, state (bitwise) and stepper state.
inline void expect_same_checkpointed_state(const std::filesystem::path& out_a, const std::filesystem::path& out_b,
                                           int step) {
  const Checkpoint a = read_checkpoint(checkpoint_path(out_a)), b = read_checkpoint(checkpoint_path(out_b));
  ASSERT_EQ(a.step, step);
  ASSERT_EQ(b.step, step);
  ASSERT_EQ(a.state.x.size(), b.state.x.size());
  EXPECT_EQ(std::memcmp(a.state.x.data(), b.state.x.data(), sizeof(double) * a.state.x.size()), 0)
      << "positions differ by " << (a.state.x - b.state.x).lpNorm<Eigen::Infinity>();
  EXPECT_EQ(std::memcmp(a.state.v.data(), b.state.v.data(), sizeof(double) * a.state.v.size()), 0)
      << "velocities differ by " << (a.state.v - b.state.v).lpNorm<Eigen::Infinity>();
  EXPECT_EQ(a.state.t, b.state.t);
  EXPECT_TRUE(a.stepper_bytes == b.stepper_bytes) << "the stepper's carried state differs";
  EXPECT_EQ(stats_without_wall_time(out_a / "stats.csv"), stats_without_wall_time(out_b / "stats.csv"));
}

}  // namespace softsim::test
