#include "softsim/core/parallel_min.hpp"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <cmath>
#include <vector>

namespace softsim {
namespace {

// The minimum of a sequence whose smallest item sits in a block other than the first, over
// one block (inline) and many (parallel, two threads): the same value, and `init` when every
// item is larger or there is none.
TEST(ParallelMin, FindsTheSmallestItemWhateverTheBlocks) {
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism, 2);
  for (const std::size_t n : {std::size_t(1), std::size_t(200), std::size_t(10000)}) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = 2.0 + std::sin(0.37 * static_cast<double>(i));
    v[(7 * n) / 10] = 0.25;
    EXPECT_EQ(parallel_min(n, 1.0, [&](std::size_t i) { return v[i]; }), 0.25) << n;
    EXPECT_EQ(parallel_min(n, 0.1, [&](std::size_t i) { return v[i]; }), 0.1) << n;
  }
  EXPECT_EQ(parallel_min(0, 1.0, [](std::size_t) { return -1.0; }), 1.0);
}

}  // namespace
}  // namespace softsim
