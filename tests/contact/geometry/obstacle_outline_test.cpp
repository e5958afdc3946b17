// The drawn outline of an analytic obstacle (contact/geometry/obstacle_outline.hpp): every vertex
// lies on the obstacle's surface, 3D triangles face outwards, a plane's square is centred at the
// foot of the given centre with the given side, and 2D outlines are closed polygons of segments.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <map>

#include "softsim/contact/geometry/obstacle_outline.hpp"

namespace softsim {
namespace {

AnalyticObstacle shape_of(AnalyticObstacle::Shape kind, int dim) {
  AnalyticObstacle o;
  o.shape = kind;
  o.point = (dim == 3 ? VecX(Vec3(0.3, -0.2, 0.5)) : VecX(Vec2(0.3, -0.2)));
  o.normal = (dim == 3 ? VecX(Vec3(0.2, 1.0, -0.1).normalized()) : VecX(Vec2(0.2, 1.0).normalized()));
  o.radius = 0.7;
  o.half_extents = (dim == 3 ? VecX(Vec3(0.4, 0.25, 0.6)) : VecX(Vec2(0.4, 0.25)));
  return o;
}

double distance_to(const AnalyticObstacle& o, const VecX& p) {
  if (p.size() == 3) return analytic_signed_distance<double, 3>(o, Vec3(p));
  return analytic_signed_distance<double, 2>(o, Vec2(p));
}

TEST(ObstacleOutline, VerticesOnTheSurfaceAndTrianglesFacingOutwards) {
  using S = AnalyticObstacle::Shape;
  for (const S kind : {S::Plane, S::Sphere, S::Box}) {
    const AnalyticObstacle o = shape_of(kind, 3);
    const Mesh m = obstacle_outline(o, 3, Vec3(1.0, 2.0, -1.0), 4.0);
    ASSERT_EQ(m.cells.cols(), 3);
    ASSERT_GT(m.num_cells(), 0);
    for (int i = 0; i < m.num_vertices(); ++i)
      EXPECT_NEAR(distance_to(o, m.vertices.row(i).transpose()), 0.0, 1e-14) << int(kind) << " vertex " << i;
    // Outwards: the signed distance grows along each triangle's normal from its centroid.
    for (int f = 0; f < m.num_cells(); ++f) {
      const Vec3 a = m.vertices.row(m.cells(f, 0)).transpose(), b = m.vertices.row(m.cells(f, 1)).transpose(),
                 c = m.vertices.row(m.cells(f, 2)).transpose();
      const Vec3 n = (b - a).cross(c - a);
      ASSERT_GT(n.norm(), 0.0);
      const Vec3 centroid = (a + b + c) / 3.0;
      EXPECT_GT(distance_to(o, centroid + 1e-3 * n.normalized()), distance_to(o, centroid - 1e-3 * n.normalized()))
          << int(kind) << " triangle " << f;
    }
    // Closed shapes: every edge is shared by exactly two triangles, in opposite directions.
    if (kind != S::Plane) {
      std::map<std::pair<int, int>, int> directed;
      for (int f = 0; f < m.num_cells(); ++f)
        for (int k = 0; k < 3; ++k) ++directed[{m.cells(f, k), m.cells(f, (k + 1) % 3)}];
      for (const auto& [edge, count] : directed) {
        EXPECT_EQ(count, 1);
        EXPECT_EQ(directed.count({edge.second, edge.first}), 1u) << int(kind);
      }
    }
  }
  // The plane's square: side 4, centred at the foot of (1, 2, -1).
  const AnalyticObstacle plane = shape_of(S::Plane, 3);
  const Mesh m = obstacle_outline(plane, 3, Vec3(1.0, 2.0, -1.0), 4.0);
  const Vec3 centre = m.vertices.colwise().mean().transpose();
  const Vec3 foot = Vec3(1.0, 2.0, -1.0) - distance_to(plane, Vec3(1.0, 2.0, -1.0)) * Vec3(plane.normal);
  EXPECT_LT((centre - foot).norm(), 1e-14);
  EXPECT_NEAR((m.vertices.row(1) - m.vertices.row(0)).norm(), 4.0, 1e-14);
  EXPECT_NEAR((m.vertices.row(2) - m.vertices.row(1)).norm(), 4.0, 1e-14);
}

TEST(ObstacleOutline, TwoDimensionalOutlinesAreSegmentsOnTheSurface) {
  using S = AnalyticObstacle::Shape;
  for (const S kind : {S::Plane, S::Sphere, S::Box}) {
    const AnalyticObstacle o = shape_of(kind, 2);
    const Mesh m = obstacle_outline(o, 2, Vec2(1.0, 2.0), 4.0);
    ASSERT_EQ(m.cells.cols(), 2);
    ASSERT_EQ(m.vertices.cols(), 2);
    for (int i = 0; i < m.num_vertices(); ++i)
      EXPECT_NEAR(distance_to(o, m.vertices.row(i).transpose()), 0.0, 1e-14) << int(kind) << " vertex " << i;
    if (kind == S::Plane) {
      ASSERT_EQ(m.num_cells(), 1);
      EXPECT_NEAR((m.vertices.row(1) - m.vertices.row(0)).norm(), 4.0, 1e-14);
      continue;
    }
    // A closed polygon: every vertex starts one segment and ends one.
    std::vector<int> starts(m.num_vertices(), 0), ends(m.num_vertices(), 0);
    for (int e = 0; e < m.num_cells(); ++e) {
      ++starts[m.cells(e, 0)];
      ++ends[m.cells(e, 1)];
    }
    for (int i = 0; i < m.num_vertices(); ++i) {
      EXPECT_EQ(starts[i], 1) << int(kind);
      EXPECT_EQ(ends[i], 1) << int(kind);
    }
  }
}

}  // namespace
}  // namespace softsim
