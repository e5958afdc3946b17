// The cubic contact penalty of Larionov et al. 2022 (sec. 3.2, 4.4): value, derivatives and the
// adaptive stiffness bump.
#include <gtest/gtest.h>

#include <cmath>

#include "softsim/contact/penalty/cubic_penalty.hpp"

namespace softsim {
namespace {

TEST(CubicPenalty, ValueDerivativesAndBump) {
  const double delta = 0.01, kappa = 2e3;
  for (double d : {-0.02, -0.003, 0.0, 0.004, 0.0099}) {
    const PenaltyValue b = cubic_penalty(d, delta, kappa);
    EXPECT_DOUBLE_EQ(b.value, kappa * std::pow(delta - d, 3));
    const double h = 1e-7;
    EXPECT_NEAR(b.first, (cubic_penalty(d + h, delta, kappa).value - cubic_penalty(d - h, delta, kappa).value) / (2 * h),
                1e-6 * std::abs(b.first) + 1e-12);
    EXPECT_NEAR(b.second, (cubic_penalty(d + h, delta, kappa).first - cubic_penalty(d - h, delta, kappa).first) / (2 * h),
                1e-6 * std::abs(b.second) + 1e-9);
    EXPECT_DOUBLE_EQ(penalty_force_magnitude(d, delta, kappa), -b.first);
  }
  EXPECT_EQ(cubic_penalty(delta, delta, kappa).value, 0.0);
  EXPECT_EQ(cubic_penalty(0.5, delta, kappa).first, 0.0);
  // sec. 4.4: the factor b'(d_deepest) / b'(delta/2), which makes the new force at delta/2 equal
  // to the old force at d_deepest.
  for (double d : {-1e-4, -0.01, -0.3}) {
    const double bump = penalty_stiffness_bump(d, delta);
    EXPECT_NEAR(bump, cubic_penalty(d, delta, kappa).first / cubic_penalty(0.5 * delta, delta, kappa).first, 1e-12 * bump);
    EXPECT_NEAR(cubic_penalty(0.5 * delta, delta, bump * kappa).first, cubic_penalty(d, delta, kappa).first,
                1e-12 * bump * kappa);
    EXPECT_GT(bump, 4.0);
  }
  EXPECT_EQ(penalty_stiffness_bump(0.0, delta), 1.0);
  EXPECT_EQ(penalty_stiffness_bump(0.002, delta), 1.0);
}

// The signed gap of each feature (both sides of edges and vertices) on doubles, its Jet
// derivatives against finite differences of the double version, and a Dual directional
// derivative against the Jet gradient.

}  // namespace
}  // namespace softsim
