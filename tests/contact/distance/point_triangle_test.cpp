// Squared point-triangle distance: known values, derivatives of each type vs central finite
// differences, near type boundaries, a degenerate triangle.
#include <gtest/gtest.h>

#include <random>

#include "softsim/contact/distance/point_triangle.hpp"
#include "contact/distance/distance_test_util.hpp"

namespace softsim {
namespace {

using namespace test;

auto pt = [](const VecX& x) { return point_triangle_distance(at(x, 0), at(x, 1), at(x, 2), at(x, 3)); };

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


}  // namespace
}  // namespace softsim
