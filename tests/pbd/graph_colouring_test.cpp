// Greedy constraint colouring (pbd/graph_colouring.hpp): a partition in which no colour holds two
// constraints with a common vertex, the same every time.
#include "softsim/pbd/graph_colouring.hpp"

#include <gtest/gtest.h>

#include <random>
#include <set>

namespace softsim {
namespace {

TEST(GraphColouring, NoColourHoldsTwoConstraintsSharingAVertex) {
  std::mt19937 rng(3);
  const int vertices = 300, count = 2000;
  std::vector<std::vector<int>> constraints(count);
  for (auto& c : constraints) {
    const int size = 2 + static_cast<int>(rng() % 3);
    while (static_cast<int>(c.size()) < size) {
      const int v = static_cast<int>(rng() % vertices);
      if (std::find(c.begin(), c.end(), v) == c.end()) c.push_back(v);
    }
  }
  constraints.push_back({});  // no vertices: still coloured
  std::vector<int> all(vertices);
  for (int v = 0; v < vertices; ++v) all[v] = v;
  constraints.push_back(all);  // touches everything: a colour of its own
  auto of = [&](int c) { return std::span<const int>(constraints[static_cast<std::size_t>(c)]); };
  const auto colours = colour_constraints(static_cast<int>(constraints.size()), vertices, of);
  std::vector<int> seen(constraints.size(), 0);
  for (const auto& colour : colours) {
    std::set<int> used;
    for (const int c : colour) {
      ++seen[static_cast<std::size_t>(c)];
      for (const int v : constraints[static_cast<std::size_t>(c)]) EXPECT_TRUE(used.insert(v).second) << "vertex " << v;
    }
    EXPECT_TRUE(std::is_sorted(colour.begin(), colour.end()));
  }
  for (const int s : seen) EXPECT_EQ(s, 1);
  // More than 64 colours are needed here (the big constraint, 2000 constraints on 300 vertices):
  // the bit sets grow past one word.
  EXPECT_GT(colours.size(), 10u);
  EXPECT_EQ(colours, colour_constraints(static_cast<int>(constraints.size()), vertices, of));
}

TEST(GraphColouring, AChainNeedsTwoColours) {
  std::vector<std::vector<int>> chain;
  for (int i = 0; i < 10; ++i) chain.push_back({i, i + 1});
  const auto colours =
      colour_constraints(10, 11, [&](int c) { return std::span<const int>(chain[static_cast<std::size_t>(c)]); });
  ASSERT_EQ(colours.size(), 2u);
  EXPECT_EQ(colours[0], (std::vector<int>{0, 2, 4, 6, 8}));
  EXPECT_EQ(colours[1], (std::vector<int>{1, 3, 5, 7, 9}));
}

}  // namespace
}  // namespace softsim
