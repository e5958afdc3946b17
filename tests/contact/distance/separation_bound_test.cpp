// The separation bounds never claim two primitives are apart when their distance (as the exact
// routines compute it) is below the threshold, and do claim it for the configurations they are
// built for: primitives stacked across a gap (the normal axis) and side by side (the centres'
// axis).
#include <gtest/gtest.h>

#include <cmath>

#include "softsim/contact/distance/edge_edge.hpp"
#include "softsim/contact/distance/point_triangle.hpp"
#include "softsim/contact/distance/separation_bound.hpp"
#include "contact/distance/distance_test_util.hpp"

namespace softsim {
namespace {

using namespace test;

TEST(SeparationBound, NeverClaimsAPairCloserThanTheThresholdIsApart) {
  RandomPoints rv(5);
  // Thresholds at and around each pair's own distance: the bound's margin is what keeps the
  // pairs just below it from being claimed.
  const double factors[] = {0.25, 0.9, 0.999999, 1.0 - 1e-9, 1.0, 1.0 + 1e-9, 1.000001, 1.1, 4.0};
  int claimed = 0, tested = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    V3 p = rv(), t0 = rv(), t1 = rv(), t2 = rv(), a0 = rv(), a1 = rv(), b0 = rv(), b1 = rv();
    switch (trial % 5) {
      case 1:  // coplanar: the normal axis proves nothing, the centres' axis must carry it
        for (V3* v : {&p, &t0, &t1, &t2, &a0, &a1, &b0, &b1}) v->z() = 0.0;
        break;
      case 2:  // parallel edges (zero cross product), point in the triangle's plane
        b1 = b0 + 0.4 * (a1 - a0);
        p = t0 + 0.3 * (t1 - t0) + 1.2 * (t2 - t0);
        break;
      case 3:  // a degenerate triangle and a zero-length edge
        t2 = t0 + 2.0 * (t1 - t0);
        a1 = a0;
        break;
      case 4:  // small primitives far from the origin (1e3 sizes away)
        for (V3* v : {&t1, &t2}) *v = t0 + 1e-3 * (*v - t0);
        for (V3* v : {&p, &t0, &t1, &t2, &a0, &b0}) *v = V3(700.0, -300.0, 100.0) + 1e-3 * *v;
        a1 = a0 + 1e-3 * rv();
        b1 = b0 + 1e-3 * rv();
        break;
      default: break;
    }
    const double dpt = point_triangle_distance_squared(p, t0, t1, t2);
    const double dee = edge_edge_distance_squared(a0, a1, b0, b1);
    for (double f : factors) {
      const double spt = f * dpt, see = f * dee;
      if (point_triangle_farther_than(p, t0, t1, t2, spt)) {
        ++claimed;
        EXPECT_GE(dpt, spt) << trial << " factor " << f;
      }
      if (edge_edge_farther_than(a0, a1, b0, b1, see)) {
        ++claimed;
        EXPECT_GE(dee, see) << trial << " factor " << f;
      }
      tested += 2;
    }
  }
  EXPECT_GT(claimed, tested / 10);  // it does prove separations, not only abstain
}

TEST(SeparationBound, ProvesStackedAndSideBySidePrimitivesApart) {
  const double s = 0.01 * 0.01;
  // A point 0.02 above a unit triangle (the normal axis), and 0.02 beyond its hypotenuse in its
  // plane (the centres' axis).
  const V3 t0(0, 0, 0), t1(1, 0, 0), t2(0, 1, 0);
  EXPECT_TRUE(point_triangle_farther_than(V3(0.2, 0.2, 0.02), t0, t1, t2, s));
  EXPECT_FALSE(point_triangle_farther_than(V3(0.2, 0.2, 0.005), t0, t1, t2, s));
  EXPECT_TRUE(point_triangle_farther_than(V3(0.6, 0.6, 0.0), t0, t1, t2, s));
  // Crossing edges 0.02 apart (the normal), parallel edges 0.02 apart side by side (the centres).
  EXPECT_TRUE(edge_edge_farther_than(V3(-1, 0, 0), V3(1, 0, 0), V3(0, -1, 0.02), V3(0, 1, 0.02), s));
  EXPECT_FALSE(edge_edge_farther_than(V3(-1, 0, 0), V3(1, 0, 0), V3(0, -1, 0.005), V3(0, 1, 0.005), s));
  EXPECT_TRUE(edge_edge_farther_than(V3(0, 0, 0), V3(1, 0, 0), V3(0, 0.02, 0), V3(1, 0.02, 0), s));
  EXPECT_TRUE(edge_edge_farther_than(V3(0, 0, 0), V3(1, 0, 0), V3(1.02, 0, 0), V3(2, 0, 0), s));  // collinear
}

TEST(SeparationBound, AppliesOnlyWithinTheCoordinateRange) {
  EXPECT_TRUE(separation_bound_applies(1.0, 1e-6 * 1e-6));
  EXPECT_FALSE(separation_bound_applies(10.0, 1e-6 * 1e-6));
  EXPECT_FALSE(separation_bound_applies(1.0, 0.0));
  EXPECT_FALSE(separation_bound_applies(std::nan(""), 1.0));
}

}  // namespace
}  // namespace softsim
