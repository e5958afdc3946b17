// Distance classification: the classified squared distances are the minimum over the primitives,
// against brute-force sampling of their closest points.
#include <gtest/gtest.h>

#include "softsim/contact/distance/classification.hpp"
#include "softsim/contact/distance/edge_edge.hpp"
#include "softsim/contact/distance/point_edge.hpp"
#include "softsim/contact/distance/point_line.hpp"
#include "softsim/contact/distance/point_triangle.hpp"
#include "contact/distance/distance_test_util.hpp"

namespace softsim {
namespace {

using namespace test;

TEST(DistanceClassification, MatchesBruteForceSampling) {
  RandomPoints rv(7);
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

// The squared distance a classification hands back is bitwise the closed form of the type it
// picked (the distance routines use it instead of evaluating again). Random primitives, and
// ones built to land on every type and on ties: shared vertices' neighbourhoods, parallel and
// collinear edges, points on an edge's line and in a triangle's plane.
TEST(DistanceClassification, ReturnedDistanceIsTheChosenTypesClosedForm) {
  RandomPoints rv(11);
  int types_seen_pt = 0, types_seen_ee = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const int shape = trial % 4;
    V3 p = rv(), t0 = rv(), t1 = rv(), t2 = rv();
    V3 a0 = rv(), a1 = rv(), b0 = rv(), b1 = rv();
    if (shape == 1) {  // flat: everything in the plane z = 0
      for (V3* v : {&p, &t0, &t1, &t2, &a0, &a1, &b0, &b1}) v->z() = 0.0;
    } else if (shape == 2) {  // parallel edges, the point on an edge's line
      b1 = b0 + 0.7 * (a1 - a0);
      p = t0 + 1.3 * (t1 - t0);
    } else if (shape == 3) {  // collinear edges, the point at a vertex
      b0 = a0 + 1.5 * (a1 - a0);
      b1 = a0 + 2.5 * (a1 - a0);
      p = t2;
    }
    double d = -1.0;
    const PointTriangleDistanceType pt = point_triangle_distance_type(p, t0, t1, t2, &d);
    EXPECT_EQ(d, point_triangle_distance_squared(pt, p, t0, t1, t2)) << trial;
    EXPECT_EQ(d, point_triangle_distance_squared(p, t0, t1, t2)) << trial;
    types_seen_pt |= 1 << int(pt);
    const EdgeEdgeDistanceType ee = edge_edge_distance_type(a0, a1, b0, b1, &d);
    EXPECT_EQ(d, edge_edge_distance_squared(ee, a0, a1, b0, b1)) << trial;
    EXPECT_EQ(d, edge_edge_distance_squared(a0, a1, b0, b1)) << trial;
    types_seen_ee |= 1 << int(ee);
    const PointEdgeDistanceType pe = point_edge_distance_type(p, a0, a1, &d);
    const double closed = pe == PointEdgeDistanceType::P_E0   ? (p - a0).squaredNorm()
                          : pe == PointEdgeDistanceType::P_E1 ? (p - a1).squaredNorm()
                                                              : point_line_distance_squared(p, a0, a1);
    EXPECT_EQ(d, closed) << trial;
    EXPECT_EQ(d, point_edge_distance_squared(p, a0, a1)) << trial;
    const V2 p2 = p.head<2>(), e0 = a0.head<2>(), e1 = a1.head<2>();
    (void)point_edge_distance_type(p2, e0, e1, &d);
    EXPECT_EQ(d, point_edge_distance_squared(p2, e0, e1)) << trial;
  }
  EXPECT_EQ(types_seen_pt, (1 << 7) - 1);  // every point-triangle type met
  EXPECT_EQ(types_seen_ee, (1 << 9) - 1);  // every edge-edge type met
}

}  // namespace
}  // namespace softsim
