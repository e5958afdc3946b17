// The fixed-radius neighbour search of position-based fluids (pbf/neighbour_grid.hpp) against a
// brute-force search: the same lists for random particles (some outside
// the box, which count in its boundary cells), in 2D and 3D.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "softsim/pbf/neighbour_grid.hpp"

namespace softsim {
namespace {

template <int D>
void expect_brute_force_lists(double radius) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> where(-0.1, 1.1);  // some particles outside [0, 1]^D
  std::vector<VecD<D>> x(D == 2 ? 3000 : 4000);
  for (VecD<D>& p : x)
    for (int a = 0; a < D; ++a) p[a] = where(rng);
  x.push_back(x[5]);  // a duplicate: a neighbour at distance 0
  NeighbourGrid<D> grid(VecD<D>::Zero(), VecD<D>::Ones(), radius);
  grid.build(x);
  ASSERT_EQ(grid.size(), x.size());
  std::size_t total = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    std::vector<int> expected;
    for (std::size_t j = 0; j < x.size(); ++j)
      if (j != i && (x[i] - x[j]).squaredNorm() < radius * radius) expected.push_back(static_cast<int>(j));
    std::vector<int> found(grid.begin(i), grid.end(i));
    std::sort(found.begin(), found.end());
    ASSERT_EQ(found, expected) << D << "D, particle " << i;
    total += expected.size();
  }
  EXPECT_EQ(grid.total(), total);
  EXPECT_GT(total, x.size());  // the test has neighbours to find
}

TEST(NeighbourGrid, EqualsBruteForceIn2DAnd3D) {
  expect_brute_force_lists<2>(0.03);
  expect_brute_force_lists<3>(0.08);
}

TEST(NeighbourGrid, RefusesAnEmptyBoxOrRadius) {
  EXPECT_THROW(NeighbourGrid<2>(Vec2::Zero(), Vec2(1, 0), 0.1), std::invalid_argument);
  EXPECT_THROW(NeighbourGrid<2>(Vec2::Zero(), Vec2::Ones(), 0.0), std::invalid_argument);
  EXPECT_THROW(NeighbourGrid<3>(Vec3::Zero(), Vec3::Ones(), 1e-4), std::invalid_argument);  // 1e12 cells
}

}  // namespace
}  // namespace softsim
