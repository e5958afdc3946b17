// A granular column collapse (mpm/mpm_solver.hpp with Drucker-Prager sand; the scenario is in
// support/column_collapse.hpp): released slowly (damped, quasi-static), a low column of sand
// leaves a heap whose free slope stands within a few degrees of the angle of repose its friction
// angle implies; released freely, it runs out further and stops at a shallower slope, and a
// taller column runs out further (docs/mpm.md has the table, bench/bench_mpm_collapse).
#include <gtest/gtest.h>

#include <cstdio>

#include "support/column_collapse.hpp"

namespace softsim {
namespace {

TEST(MpmColumnCollapse, AQuasiStaticHeapStandsAtTheAngleOfRepose) {
  for (double phi : {20.0, 30.0}) {
    test::ColumnCollapse c;
    c.friction_angle = phi;
    c.damping = 10.0;
    c.seconds = 1.5;
    const test::Deposit d = test::collapse(c);
    const double repose = test::repose_angle_2d(phi);
    std::printf("friction angle %g: slope %.1f degrees (repose %.1f), run-out %.2f, top %.3f m, speed %.3g m/s\n",
                phi, d.slope_degrees, repose, d.run_out, d.max_height, d.residual_speed);
    EXPECT_NEAR(d.slope_degrees, repose, 3.0) << "friction angle " << phi;
    EXPECT_GT(d.run_out, 0.2);                 // it did collapse
    EXPECT_GT(d.max_height, 0.85 * c.height);  // and, this low, kept its untouched top
    EXPECT_LT(d.residual_speed, 0.05);         // and has almost stopped
  }
}

TEST(MpmColumnCollapse, AFreeCollapseRunsOutFurtherAndATallerColumnFurtherStill) {
  test::ColumnCollapse low;  // aspect ratio 0.5
  low.friction_angle = 30.0;
  test::ColumnCollapse tall = low;  // aspect ratio 1
  tall.height = 0.2;
  test::ColumnCollapse damped = low;
  damped.damping = 10.0;
  damped.seconds = 1.5;
  const test::Deposit d_low = test::collapse(low), d_tall = test::collapse(tall), d_damped = test::collapse(damped);
  std::printf("run-out: %.2f (a = 0.5), %.2f (a = 1), %.2f (a = 0.5, damped); slopes %.1f, %.1f, %.1f degrees\n",
              d_low.run_out, d_tall.run_out, d_damped.run_out, d_low.slope_degrees, d_tall.slope_degrees,
              d_damped.slope_degrees);
  EXPECT_GT(d_tall.run_out, 1.5 * d_low.run_out);
  EXPECT_GT(d_low.run_out, 1.2 * d_damped.run_out);  // inertia carries the free collapse further
  EXPECT_LT(d_low.slope_degrees, d_damped.slope_degrees);
  EXPECT_LT(d_low.slope_degrees, test::repose_angle_2d(30.0));
  EXPECT_LT(d_low.residual_speed, 0.05);
}

}  // namespace
}  // namespace softsim
