// The barrier stiffness: its initial value balances the gradients and its adaptive increase
// doubles it while the closest pair keeps approaching.
#include <gtest/gtest.h>

#include <cmath>

#include "softsim/contact/barrier/barrier.hpp"
#include "softsim/contact/barrier/stiffness.hpp"

namespace softsim {
namespace {

TEST(BarrierStiffness, InitialAndAdaptive) {
  Eigen::VectorXd gE(3), gB(3);
  gE << 1, 2, 3;
  gB << -1, 0, 0;
  // bbox 1, dhat 1e-3: s0 = 1e-16, 4 s0 b''(s0) = 4e4 (to 1e-9); scale 4e3 -> kappa_min = 0.1, kappa_max = 10
  const auto k = initial_barrier_stiffness(1.0, 1e-3, 1.0, gE, gB, 4e3);
  EXPECT_NEAR(k.kappa_min, 0.1, 1e-6);
  EXPECT_NEAR(k.kappa, 1.0, 1e-15);  // -(gE . gB)/(gB . gB) = 1
  EXPECT_NEAR(k.kappa_max, 100 * k.kappa_min, 1e-12 * k.kappa_max);
  const auto k2 = initial_barrier_stiffness(1.0, 1e-3, 1.0, gE, gB);  // IPC scale: clamped to kappa_min
  const double s0 = 1e-16;
  EXPECT_NEAR(k2.kappa_min, 1e11 / (4 * s0 * ipc_barrier_second_derivative(s0, 1e-6)), 1e-9 * k2.kappa_min);
  EXPECT_EQ(k2.kappa, k2.kappa_min);
  EXPECT_EQ(update_barrier_stiffness(1e-10, 5e-11, 7.0, 100.0, 1e-9), 14.0);
  EXPECT_EQ(update_barrier_stiffness(1e-10, 2e-10, 7.0, 100.0, 1e-9), 7.0);  // increasing: keep
  EXPECT_EQ(update_barrier_stiffness(1e-8, 5e-11, 7.0, 100.0, 1e-9), 7.0);   // previous not small
  EXPECT_EQ(update_barrier_stiffness(1e-10, 5e-11, 70.0, 100.0, 1e-9), 100.0);  // capped
}

}  // namespace
}  // namespace softsim
