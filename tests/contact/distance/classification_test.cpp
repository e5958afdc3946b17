// Distance classification: the classified squared distances are the minimum over the primitives,
// against brute-force sampling of their closest points.
#include <gtest/gtest.h>

#include <random>

#include "softsim/contact/distance/edge_edge.hpp"
#include "softsim/contact/distance/point_triangle.hpp"
#include "contact/distance/distance_test_util.hpp"

namespace softsim {
namespace {

using namespace test;

TEST(DistanceClassification, MatchesBruteForceSampling) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> U(-1, 1);
  auto rv = [&] { return V3(U(rng), U(rng), U(rng)); };
  const int n = 120;
  for (int trial = 0; trial < 40; ++trial) {
    const V3 p = 1.5 * rv(), t0 = rv(), t1 = rv(), t2 = rv();
    double best = 1e300;
    for (int i = 0; i <= n; ++i)
      for (int j = 0; i + j <= n; ++j) {
        const V3 q = t0 + (double(i) / n) * (t1 - t0) + (double(j) / n) * (t2 - t0);
        best = std::min(best, (p - q).squaredNorm());
      }
    const double d = point_triangle_distance_squared(p, t0, t1, t2);
    EXPECT_LE(d, best + 1e-12) << trial;
    EXPECT_NEAR(std::sqrt(d), std::sqrt(best), 0.03) << trial;

    const V3 a0 = rv(), a1 = rv(), b0 = rv(), b1 = rv();
    best = 1e300;
    for (int i = 0; i <= 400; ++i)
      for (int j = 0; j <= 400; ++j) {
        const V3 qa = a0 + (i / 400.0) * (a1 - a0), qb = b0 + (j / 400.0) * (b1 - b0);
        best = std::min(best, (qa - qb).squaredNorm());
      }
    const double e = edge_edge_distance_squared(a0, a1, b0, b1);
    EXPECT_LE(e, best + 1e-12) << trial;
    EXPECT_NEAR(std::sqrt(e), std::sqrt(best), 0.01) << trial;
  }
}


}  // namespace
}  // namespace softsim
