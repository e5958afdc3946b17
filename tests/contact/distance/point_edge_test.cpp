// Squared point-edge distance in 2D and 3D: derivatives vs central finite differences.
#include <gtest/gtest.h>

#include <random>

#include "softsim/contact/distance/point_edge.hpp"
#include "contact/distance/distance_test_util.hpp"

namespace softsim {
namespace {

using namespace test;

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

}  // namespace
}  // namespace softsim
