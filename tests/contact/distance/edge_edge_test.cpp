// Squared edge-edge distance: known values and derivatives of each type vs central finite
// differences.
#include <gtest/gtest.h>

#include <random>

#include "softsim/contact/distance/edge_edge.hpp"
#include "contact/distance/distance_test_util.hpp"

namespace softsim {
namespace {

using namespace test;

auto ee = [](const VecX& x) { return edge_edge_distance(at(x, 0), at(x, 1), at(x, 2), at(x, 3)); };

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


}  // namespace
}  // namespace softsim
