// Squared distances: known values, derivatives vs central finite differences (each type and
// near type boundaries), and classification vs brute-force sampling of the closest points.
#include <gtest/gtest.h>

#include <random>

#include "softsim/contact/distance/edge_edge.hpp"
#include "softsim/contact/distance/point_edge.hpp"
#include "softsim/contact/distance/point_triangle.hpp"
#include "support/finite_difference.hpp"

namespace softsim {
namespace {

using test::fd_gradient;
using test::fd_jacobian;
using test::relative_error;
using V3 = Eigen::Vector3d;
using V2 = Eigen::Vector2d;

VecX stack(std::initializer_list<V3> vs) {
  VecX x(3 * vs.size());
  int i = 0;
  for (const auto& v : vs) x.segment<3>(3 * i++) = v;
  return x;
}
V3 at(const VecX& x, int i) { return x.segment<3>(3 * i); }

// Checks value/gradient/Hessian of f (returning DistanceDerivatives) against central FD.
template <class F>
void check_derivatives(F f, const VecX& x, double tol = 1e-6) {
  const auto r = f(x);
  const VecX g = fd_gradient([&](const VecX& y) { return f(y).value; }, x);
  const MatX H = fd_jacobian([&](const VecX& y) { return VecX(f(y).grad); }, x);
  EXPECT_LT(relative_error(VecX(r.grad), g), tol) << "grad " << r.grad.transpose() << "\nfd " << g.transpose();
  EXPECT_LT(relative_error(MatX(r.hess), H), tol) << "hess\n" << r.hess << "\nfd\n" << H;
  EXPECT_LT((r.hess - r.hess.transpose()).norm(), 1e-12 * (1 + r.hess.norm()));
}

auto pt = [](const VecX& x) { return point_triangle_distance(at(x, 0), at(x, 1), at(x, 2), at(x, 3)); };
auto ee = [](const VecX& x) { return edge_edge_distance(at(x, 0), at(x, 1), at(x, 2), at(x, 3)); };

const V3 T0(0, 0, 0), T1(2, 0, 0.1), T2(0.3, 1.7, -0.2);

TEST(PointTriangleDistance, KnownValueAboveInterior) {
  const V3 p(0.25, 0.25, 2);
  const auto r = point_triangle_distance(p, V3(0, 0, 0), V3(1, 0, 0), V3(0, 1, 0));
  EXPECT_EQ(point_triangle_distance_type(p, V3(0, 0, 0), V3(1, 0, 0), V3(0, 1, 0)), PointTriangleDistanceType::P_T);
  EXPECT_NEAR(r.value, 4.0, 1e-14);
  EXPECT_NEAR(point_triangle_distance_squared(V3(2, 0, 0), V3(0, 0, 0), V3(1, 0, 0), V3(0, 1, 0)), 1.0, 1e-14);
  EXPECT_NEAR(point_triangle_distance_squared(V3(1, 1, 0), V3(0, 0, 0), V3(1, 0, 0), V3(0, 1, 0)), 0.5, 1e-14);
}

TEST(PointTriangleDistance, EachTypeAndDerivatives) {
  using T = PointTriangleDistanceType;
  const V3 c = (T0 + T1 + T2) / 3, n = (T1 - T0).cross(T2 - T0).normalized();
  struct Case {
    V3 p;
    T type;
  } cases[] = {
      {T0 - 0.5 * ((T1 - T0).normalized() + (T2 - T0).normalized()) + 0.3 * n, T::P_T0},
      {T1 + 0.4 * (T1 - c).normalized() - 0.2 * n, T::P_T1},
      {T2 + 0.4 * (T2 - c).normalized() + 0.5 * n, T::P_T2},
      {0.5 * (T0 + T1) + 0.6 * ((T0 + T1) / 2 - c).normalized() + 0.3 * n, T::P_E0},
      {0.5 * (T1 + T2) + 0.6 * ((T1 + T2) / 2 - c).normalized() - 0.3 * n, T::P_E1},
      {0.5 * (T2 + T0) + 0.6 * ((T2 + T0) / 2 - c).normalized() + 0.3 * n, T::P_E2},
      {c + 0.7 * n, T::P_T},
  };
  for (const auto& cs : cases) {
    SCOPED_TRACE(to_string(cs.type));
    EXPECT_EQ(point_triangle_distance_type(cs.p, T0, T1, T2), cs.type);
    check_derivatives(pt, stack({cs.p, T0, T1, T2}));
  }
}

TEST(PointTriangleDistance, NearTypeBoundaries) {
  // Just inside/outside the edge E0 slab and just beyond vertex T1's edge normal: still C1, and
  // the derivatives of the classified function hold on either side.
  const V3 n = (T1 - T0).cross(T2 - T0).normalized();
  const V3 out0 = ((T1 - T0).cross(n)).normalized();  // points away from the triangle across E0?
  for (double side : {-1e-4, 1e-4}) {
    const V3 p = 0.5 * (T0 + T1) + side * out0 + 0.2 * n;
    check_derivatives(pt, stack({p, T0, T1, T2}));
    const V3 q = T1 + side * (T1 - T0).normalized() + 0.3 * out0 + 0.1 * n;
    check_derivatives(pt, stack({q, T0, T1, T2}));
  }
}

TEST(PointTriangleDistance, DegenerateTriangle) {
  // Collinear triangle: the distance is the distance to the segment hull.
  const V3 a(0, 0, 0), b(1, 0, 0), c(2, 0, 0);
  EXPECT_NEAR(point_triangle_distance_squared(V3(1.5, 1, 0), a, b, c), 1.0, 1e-14);
  EXPECT_NEAR(point_triangle_distance_squared(V3(3, 0, 1), a, b, c), 2.0, 1e-14);
  EXPECT_NE(point_triangle_distance_type(V3(1.5, 1, 0), a, b, c), PointTriangleDistanceType::P_T);
}

TEST(EdgeEdgeDistance, KnownValues) {
  EXPECT_NEAR(edge_edge_distance_squared(V3(-1, 0, 0), V3(1, 0, 0), V3(0, -1, 1), V3(0, 1, 1)), 1.0, 1e-14);
  EXPECT_EQ(edge_edge_distance_type(V3(-1, 0, 0), V3(1, 0, 0), V3(0, -1, 1), V3(0, 1, 1)), EdgeEdgeDistanceType::EA_EB);
  // Parallel, overlapping: distance 2 between the lines; must not use line-line.
  EXPECT_NEAR(edge_edge_distance_squared(V3(0, 0, 0), V3(1, 0, 0), V3(0.5, 2, 0), V3(1.5, 2, 0)), 4.0, 1e-14);
  EXPECT_NE(edge_edge_distance_type(V3(0, 0, 0), V3(1, 0, 0), V3(0.5, 2, 0), V3(1.5, 2, 0)),
            EdgeEdgeDistanceType::EA_EB);
  // Parallel, disjoint along the line: endpoint to endpoint.
  EXPECT_NEAR(edge_edge_distance_squared(V3(0, 0, 0), V3(1, 0, 0), V3(3, 0, 0), V3(4, 0, 0)), 4.0, 1e-14);
  // Nearly parallel (angle 1e-12): finite and close to the parallel answer.
  EXPECT_NEAR(edge_edge_distance_squared(V3(0, 0, 0), V3(1, 0, 0), V3(0.5, 2, 0), V3(1.5, 2 + 1e-12, 0)), 4.0, 1e-9);
}

TEST(EdgeEdgeDistance, EachTypeAndDerivatives) {
  using T = EdgeEdgeDistanceType;
  const V3 a0(0, 0, 0), a1(2, 0.1, 0.05);
  struct Case {
    V3 b0, b1;
    T type;
  } cases[] = {
      {V3(-1, -0.5, 0.7), V3(-1.3, -1.5, 1.1), T::EA0_EB0},
      {V3(-1.3, -1.5, 1.1), V3(-1, -0.5, 0.7), T::EA0_EB1},
      {V3(3, 0.5, 0.7), V3(3.3, 1.5, 1.1), T::EA1_EB0},
      {V3(3.3, 1.5, 1.1), V3(3, 0.5, 0.7), T::EA1_EB1},
      {V3(1, 0.3, 0.7), V3(1.2, 1.5, 1.3), T::EA_EB0},
      {V3(1.2, 1.5, 1.3), V3(1, 0.3, 0.7), T::EA_EB1},
      {V3(-0.5, -1, 0.6), V3(-0.6, 1, 0.8), T::EA0_EB},
      {V3(2.5, -1, 0.6), V3(2.6, 1, 0.8), T::EA1_EB},
      {V3(1, -1, 0.6), V3(1.2, 1, 0.8), T::EA_EB},
  };
  for (const auto& cs : cases) {
    SCOPED_TRACE(to_string(cs.type));
    EXPECT_EQ(edge_edge_distance_type(a0, a1, cs.b0, cs.b1), cs.type);
    check_derivatives(ee, stack({a0, a1, cs.b0, cs.b1}));
  }
  // Near the boundary between EA_EB and EA_EB0 (b0's projection just inside / outside).
  for (double eps : {-1e-4, 1e-4}) {
    const V3 b0(1, -1, 0.6), b1(1.2, 1, 0.8);
    const V3 mid = 0.5 * (b0 + b1);
    // slide b along itself so the closest point on b is at parameter 0 +- eps
    const V3 shift = (0.5 - eps) * (b1 - b0);
    check_derivatives(ee, stack({a0, a1, b0 + shift, b1 + shift}));
    (void)mid;
  }
}

TEST(PointEdgeDistance, TwoDAndThreeD) {
  EXPECT_NEAR(point_edge_distance_squared(V2(0.5, 2), V2(0, 0), V2(1, 0)), 4.0, 1e-14);
  EXPECT_NEAR(point_edge_distance_squared(V2(-3, 4), V2(0, 0), V2(1, 0)), 25.0, 1e-14);
  EXPECT_NEAR(point_edge_distance_squared(V3(0.5, 0, 2), V3(0, 0, 0), V3(1, 0, 0)), 4.0, 1e-14);
  auto pe2 = [](const VecX& x) {
    return point_edge_distance(V2(x.segment<2>(0)), V2(x.segment<2>(2)), V2(x.segment<2>(4)));
  };
  auto pe3 = [](const VecX& x) { return point_edge_distance(at(x, 0), at(x, 1), at(x, 2)); };
  for (double px : {-0.7, 0.3, 1.6, 1e-4, 1 - 1e-4}) {
    VecX x2(6);
    x2 << px, 0.8, 0.1, -0.2, 1.1, 0.3;
    check_derivatives(pe2, x2);
    check_derivatives(pe3, stack({V3(px, 0.8, 0.4), V3(0.1, -0.2, 0.0), V3(1.1, 0.3, -0.1)}));
  }
}

// Classification picks the true minimum: compare with dense sampling of both primitives.
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
