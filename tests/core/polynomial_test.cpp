// The smallest root in (0, 1] of quadratics and cubics (the inversion-free step filter's, Li &
// Jiang 2025, §6.3): polynomials with known roots, a root past a critical point, a double root,
// and polynomials that stay positive.
#include "softsim/core/polynomial.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace softsim {
namespace {

// (a - r1)(a - r2) scaled by s, ascending coefficients.
std::array<double, 3> quadratic_with_roots(double r1, double r2, double s) {
  return {s * r1 * r2, -s * (r1 + r2), s};
}

// s (a - r1)(a - r2)(a - r3), ascending coefficients.
std::array<double, 4> cubic_with_roots(double r1, double r2, double r3, double s) {
  return {-s * r1 * r2 * r3, s * (r1 * r2 + r1 * r3 + r2 * r3), -s * (r1 + r2 + r3), s};
}

TEST(Polynomial, QuadraticRootsAreExactAndAscending) {
  double roots[2];
  ASSERT_EQ(quadratic_roots(6.0, -5.0, 1.0, roots), 2);  // (a - 2)(a - 3)
  EXPECT_DOUBLE_EQ(roots[0], 2.0);
  EXPECT_DOUBLE_EQ(roots[1], 3.0);
  ASSERT_EQ(quadratic_roots(2.0, -4.0, 0.0, roots), 1);  // linear: a = 0.5
  EXPECT_DOUBLE_EQ(roots[0], 0.5);
  EXPECT_EQ(quadratic_roots(1.0, 0.0, 1.0, roots), 0);   // a^2 + 1
  EXPECT_EQ(quadratic_roots(0.0, 0.0, 0.0, roots), 0);
}

TEST(Polynomial, SmallestRootInTheUnitIntervalIsFoundToRoundOff) {
  // Quadratics: one root in (0, 1], both, none (roots beyond 1, complex roots).
  EXPECT_NEAR(smallest_root_in_unit_interval<2>(quadratic_with_roots(0.3, 1.7, 2.0)), 0.3, 1e-15);
  EXPECT_NEAR(smallest_root_in_unit_interval<2>(quadratic_with_roots(0.8, 0.25, 1.0)), 0.25, 1e-15);
  EXPECT_TRUE(std::isinf(smallest_root_in_unit_interval<2>(quadratic_with_roots(1.5, 2.5, 1.0))));
  EXPECT_TRUE(std::isinf(smallest_root_in_unit_interval<2>({1.0, -1.0, 1.0})));  // minimum 3/4 at 1/2
  // A double root touches zero without crossing: found, from the positive side.
  const double touch = smallest_root_in_unit_interval<2>(quadratic_with_roots(0.5, 0.5, 1.0));
  EXPECT_NEAR(touch, 0.5, 1e-7);
  EXPECT_LE(touch, 0.5);
  // Cubics: two roots in (0, 1] and one below 0; three in (0, 1]; one real root; roots only
  // outside (0, 1].
  EXPECT_NEAR(smallest_root_in_unit_interval<3>(cubic_with_roots(0.6, 0.9, -0.4, 1.0)), 0.6, 1e-15);
  EXPECT_NEAR(smallest_root_in_unit_interval<3>(cubic_with_roots(0.2, 0.5, 0.95, -3.0)), 0.2, 1e-15);
  EXPECT_NEAR(smallest_root_in_unit_interval<3>({1.0, -2.0, 0.0, -1.0}), 0.4533976515164037, 1e-14);
  EXPECT_TRUE(std::isinf(smallest_root_in_unit_interval<3>(cubic_with_roots(-0.5, 1.2, 3.0, 1.0))));
  // The value returned is never past the root: the polynomial is still positive there.
  const auto c = cubic_with_roots(0.37, 2.0, -1.0, 1.0);
  const double a = smallest_root_in_unit_interval<3>(c);
  EXPECT_GT(polynomial_value<3>(c, a), 0.0);
  EXPECT_NEAR(a, 0.37, 1e-15);
}

}  // namespace
}  // namespace softsim
