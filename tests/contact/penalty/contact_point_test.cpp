// The signed gap of every penalty contact feature (face, edge, vertex, obstacle; 2D and 3D) against
// finite differences and forward mode.
#include <gtest/gtest.h>

#include <cstdio>

#include "softsim/contact/penalty/contact_point.hpp"
#include "support/finite_difference.hpp"

namespace softsim {
namespace {

template <int D>
void check_gap_derivatives(const PenaltyContactPoint& c, const std::vector<Eigen::Matrix<double, D, 1>>& x0,
                           const std::vector<AnalyticObstacle>& obstacles = {}) {
  const int k = c.stencil.num_vertices, n = k * D;
  VecX x(n);
  for (int a = 0; a < k; ++a) x.segment(a * D, D) = x0[a];
  auto gap = [&](const VecX& y) {
    Eigen::Matrix<double, D, 1> p[4];
    for (int a = 0; a < k; ++a) p[a] = y.segment(a * D, D);
    return penalty_signed_distance<double, D>(c, p, obstacles);
  };
  Eigen::Matrix<Jet<12>, D, 1> xj[4];
  for (int a = 0; a < k; ++a)
    for (int i = 0; i < D; ++i) xj[a][i] = Jet<12>::variable(x[a * D + i], a * D + i);
  const Jet<12> d = penalty_signed_distance<Jet<12>, D>(c, xj, obstacles);
  const VecX g = d.g.head(n);
  const MatX H = d.H.topLeftCorner(n, n);
  EXPECT_NEAR(d.v, gap(x), 1e-14);
  const double eg = test::relative_error(g, test::fd_gradient(gap, x, 1e-6));
  auto grad = [&](const VecX& y) {
    for (int a = 0; a < k; ++a)
      for (int i = 0; i < D; ++i) xj[a][i] = Jet<12>::variable(y[a * D + i], a * D + i);
    return VecX(penalty_signed_distance<Jet<12>, D>(c, xj, obstacles).g.head(n));
  };
  const double eh = test::relative_error(H, test::fd_jacobian(grad, x, 1e-6));
  std::printf("[ gap ] feature %d, side %+.0f, dim %d: d = %+.4f, FD rel. error gradient %.1e, Hessian %.1e\n",
              static_cast<int>(c.stencil.kind), c.side, D, d.v, eg, eh);
  EXPECT_LT(eg, 1e-8);
  EXPECT_LT(eh, 1e-6);
  // Forward mode along a direction p: Dual gives grad d . p.
  const VecX p = VecX::LinSpaced(n, -1.0, 0.7);
  Eigen::Matrix<Dual, D, 1> xd[4];
  for (int a = 0; a < k; ++a)
    for (int i = 0; i < D; ++i) xd[a][i] = Dual(x[a * D + i], p[a * D + i]);
  const Dual directional = penalty_signed_distance<Dual, D>(c, xd, obstacles);
  EXPECT_NEAR(directional.d, g.dot(p), 1e-12 * (1 + g.norm()));
}

PenaltyContactPoint feature(StencilKind f, int k, double side = 1.0) {
  PenaltyContactPoint c;
  c.stencil.kind = f;
  c.stencil.num_vertices = k;
  c.side = side;
  for (int a = 0; a < k; ++a) c.stencil.ids[a] = a;
  return c;
}

TEST(PenaltyGap, EveryFeatureMatchesFiniteDifferencesAndForwardMode) {
  using V3 = Eigen::Vector3d;
  using V2 = Eigen::Vector2d;
  const V3 t0(0.1, -0.2, 0.05), t1(1.1, 0.1, -0.1), t2(0.2, 0.9, 0.2);
  // Face: above and below the triangle (the sign comes from the orientation alone).
  for (double h : {0.07, -0.04}) {
    const V3 n = (t1 - t0).cross(t2 - t0).normalized();
    const V3 p = (t0 + t1 + t2) / 3.0 + h * n + V3(0.01, -0.02, 0.0);
    check_gap_derivatives<3>(feature(StencilKind::point_triangle, 4), {p, t0, t1, t2});
  }
  for (double side : {1.0, -1.0}) {
    check_gap_derivatives<3>(feature(StencilKind::point_edge, 3, side), {V3(0.5, 0.3, 0.2), t0, t1});
    check_gap_derivatives<3>(feature(StencilKind::point_point, 2, side), {V3(0.05, -0.1, 0.12), t0});
    check_gap_derivatives<2>(feature(StencilKind::point_point, 2, side), {V2(0.3, 0.25), V2(0.2, 0.1)});
  }
  check_gap_derivatives<2>(feature(StencilKind::point_edge, 3), {V2(0.5, -0.1), V2(0.0, 0.0), V2(1.0, 0.2)});
  check_gap_derivatives<2>(feature(StencilKind::point_edge, 3), {V2(0.5, 0.3), V2(0.0, 0.0), V2(1.0, 0.2)});
  // Analytic obstacles.
  std::vector<AnalyticObstacle> obstacles(3);
  obstacles[0] = {AnalyticObstacle::Shape::Plane, V3(0, 0.1, 0), V3(0.0, 0.6, 0.8), 0.0, {}};
  obstacles[1] = {AnalyticObstacle::Shape::Sphere, V3(0.1, -0.2, 0.3), {}, 0.5, {}};
  obstacles[2] = {AnalyticObstacle::Shape::Box, V3(0, 0, 0), {}, 0.0, V3(0.5, 0.3, 0.4)};
  PenaltyContactPoint c = feature(StencilKind::point_obstacle, 1);
  for (int k = 0; k < 3; ++k) {
    c.stencil.obstacle = k;
    check_gap_derivatives<3>(c, {V3(0.3, 0.12, 0.05)}, obstacles);
    check_gap_derivatives<3>(c, {V3(0.56, 0.33, -0.2)}, obstacles);  // box: edge region
  }
}

// Bodies from tet meshes, 1 kg per vertex.

}  // namespace
}  // namespace softsim
