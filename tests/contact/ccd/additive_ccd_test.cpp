// Hand-made additive CCD cases with analytic contact times: toi in [0.8 tc, tc] for linear
// approaches, grazing contact at t = 1, parallel edges, no motion, misses, 2D point-edge.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <random>

#include "softsim/contact/ccd/additive_ccd.hpp"

namespace softsim {
namespace {

using V3 = Eigen::Vector3d;
using V2 = Eigen::Vector2d;

const V3 T0(0, 0, 0), T1(1, 0, 0), T2(0, 1, 0);

TEST(AdditiveCcd, PointThroughTriangleInterior) {
  const auto r = additive_ccd_point_triangle(V3(0.2, 0.2, 1), T0, T1, T2, V3(0.2, 0.2, -1), T0, T1, T2);
  ASSERT_TRUE(r.collides);
  EXPECT_LE(r.toi, 0.5);
  EXPECT_GE(r.toi, 0.8 * 0.5);
}

TEST(AdditiveCcd, PointMissesTriangle) {
  const auto r = additive_ccd_point_triangle(V3(0.8, 0.8, 1), T0, T1, T2, V3(0.8, 0.8, -1), T0, T1, T2);
  EXPECT_FALSE(r.collides);
}

TEST(AdditiveCcd, LinearApproachesAreTightAndConservative) {
  // Random triangles, the point heads straight (along the normal) for an interior point, with a
  // common translation of everything on top: the distance falls linearly to 0 at t = tc.
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> U(-1, 1), W(0.05, 0.9);
  for (int k = 0; k < 50; ++k) {
    const V3 a(U(rng), U(rng), U(rng)), b(U(rng), U(rng), U(rng)), c(U(rng), U(rng), U(rng));
    const V3 n = (b - a).cross(c - a).normalized();
    double w1 = W(rng), w2 = W(rng) * (1 - w1);
    const V3 target = a + w1 * (b - a) + w2 * (c - a);
    const double tc = 0.2 + 0.7 * (k % 10) / 10.0;
    const V3 p0 = target + 0.5 * n;
    const V3 p1 = p0 + (target - p0) / tc;  // reaches target at t = tc
    const V3 shift(0.3, -0.1, 0.2);          // common translation of everything
    const auto r = additive_ccd_point_triangle(p0, a, b, c, p1 + shift, a + shift, b + shift, c + shift);
    ASSERT_TRUE(r.collides) << k;
    EXPECT_LE(r.toi, tc) << k;
    EXPECT_GE(r.toi, 0.8 * tc) << k;
  }
}

TEST(AdditiveCcd, EdgeSweepsThroughEdge) {
  const V3 a0(-1, 0, 1), a1(1, 0, 1), b0(0, -1, 0), b1(0, 1, 0);
  const V3 down(0, 0, -2);  // contact at t = 0.5
  const auto r = additive_ccd_edge_edge(a0, a1, b0, b1, a0 + down, a1 + down, b0, b1);
  ASSERT_TRUE(r.collides);
  EXPECT_LE(r.toi, 0.5);
  EXPECT_GE(r.toi, 0.4);
  // Same, but edge b is short and off to the side: a passes beside it.
  const auto miss = additive_ccd_edge_edge(a0, a1, V3(2, -1, 0), V3(2, 1, 0), a0 + down, a1 + down, V3(2, -1, 0),
                                           V3(2, 1, 0));
  EXPECT_FALSE(miss.collides);
}

TEST(AdditiveCcd, GrazingContactAtEnd) {
  // Point reaches the triangle's interior exactly at t = 1.
  const auto r = additive_ccd_point_triangle(V3(0.2, 0.2, 1), T0, T1, T2, V3(0.2, 0.2, 0), T0, T1, T2);
  ASSERT_TRUE(r.collides);
  EXPECT_LE(r.toi, 1.0);
  EXPECT_GE(r.toi, 0.8);
  // Edges touching at t = 1.
  const auto e = additive_ccd_edge_edge(V3(-1, 0, 1), V3(1, 0, 1), V3(0, -1, 0), V3(0, 1, 0), V3(-1, 0, 0),
                                        V3(1, 0, 0), V3(0, -1, 0), V3(0, 1, 0));
  ASSERT_TRUE(e.collides);
  EXPECT_LE(e.toi, 1.0);
  // Stopping just short of contact: no collision.
  const auto s = additive_ccd_point_triangle(V3(0.2, 0.2, 1), T0, T1, T2, V3(0.2, 0.2, 0.01), T0, T1, T2);
  EXPECT_FALSE(s.collides);
}

TEST(AdditiveCcd, ParallelEdges) {
  // Parallel edges approaching head-on: contact at t = 0.5.
  const V3 a0(0, 0, 1), a1(1, 0, 1), b0(0.3, 0, 0), b1(1.3, 0, 0);
  const V3 down(0, 0, -2);
  const auto r = additive_ccd_edge_edge(a0, a1, b0, b1, a0 + down, a1 + down, b0, b1);
  ASSERT_TRUE(r.collides);
  EXPECT_LE(r.toi, 0.5);
  EXPECT_GE(r.toi, 0.4);
  // Parallel edges sliding past each other at a fixed offset: never touch.
  const V3 slide(3, 0, 0);
  const auto m = additive_ccd_edge_edge(a0, a1, b0, b1, a0 + slide, a1 + slide, b0, b1);
  EXPECT_FALSE(m.collides);
}

TEST(AdditiveCcd, NoMotion) {
  const V3 p(0.2, 0.2, 0.5);
  EXPECT_FALSE(additive_ccd_point_triangle(p, T0, T1, T2, p, T0, T1, T2).collides);
  // Pure common translation: no relative motion.
  const V3 s(5, 1, -2);
  EXPECT_FALSE(additive_ccd_point_triangle(p, T0, T1, T2, p + s, T0 + s, T1 + s, T2 + s).collides);
  // Already touching: collides at 0.
  const auto r = additive_ccd_point_triangle(V3(0.2, 0.2, 0), T0, T1, T2, V3(0.2, 0.2, 0), T0, T1, T2);
  EXPECT_TRUE(r.collides);
  EXPECT_EQ(r.toi, 0.0);
}

TEST(AdditiveCcd, MinimumSeparation) {
  // With xi = 0.5, contact happens when the distance reaches 0.5: at t = 0.25 for a 2/s approach.
  AccdOptions o;
  o.min_separation = 0.5;
  const auto r = additive_ccd_point_triangle(V3(0.2, 0.2, 1), T0, T1, T2, V3(0.2, 0.2, -1), T0, T1, T2, o);
  ASSERT_TRUE(r.collides);
  EXPECT_LE(r.toi, 0.25);
  EXPECT_GE(r.toi, 0.8 * 0.25);
}

TEST(AdditiveCcd, PointEdge2D) {
  const V2 e0(-1, 0), e1(1, 0);
  const auto r = additive_ccd_point_edge(V2(0.1, 1), e0, e1, V2(0.1, -3), e0, e1);  // tc = 0.25
  ASSERT_TRUE(r.collides);
  EXPECT_LE(r.toi, 0.25);
  EXPECT_GE(r.toi, 0.2);
  EXPECT_FALSE(additive_ccd_point_edge(V2(2, 1), e0, e1, V2(2, -3), e0, e1).collides);
  // Li & Jiang 2025, Fig. 8.2.2: wall at x = 0.3 (an edge), particle at 0 moving by 0.5: tc = 0.6.
  const auto b = additive_ccd_point_edge(V2(0, 0), V2(0.3, -1), V2(0.3, 1), V2(0.5, 0), V2(0.3, -1), V2(0.3, 1));
  ASSERT_TRUE(b.collides);
  EXPECT_LE(b.toi, 0.6);
  EXPECT_GE(b.toi, 0.8 * 0.6);
}

}  // namespace
}  // namespace softsim
