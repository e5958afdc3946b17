// Moving boundary conditions by penalty (Li & Jiang 2025, §11.1): a step begun again from its start does
// not move its targets twice. Following the target, stopping at the limit and the stiffness's
// growth are checked for every integrator in tests/integrate/implicit_stage_penalty_retry_test.cpp.
#include <gtest/gtest.h>

#include "softsim/fem/penalty_motion.hpp"
#include "softsim/model/model.hpp"
#include "support/evaluation.hpp"

namespace softsim {
namespace {

// A step tried again from its start (a step cutback calls begin_step again for the same time)
// must not count its travel twice: the targets still stop at the limit, not earlier.
TEST(PenaltyMotion, RetriedStepsDoNotCountTheirTravelTwice) {
  PenaltyMotion motion(2, {0}, {1.0}, Vec2(0.0, -0.5), 0.3, 10.0, 1e-2);
  test::Evaluation e(motion);
  const double h = 0.01;
  VecX x = Vec2(0.0, 0.6), g(2);
  int moving_steps = 0;
  for (int n = 0; n < 100; ++n) {
    for (int attempt = 0; attempt < 3; ++attempt) {  // the same step, begun three times
      e.stage = Stage::step(n * h, h);
      motion.begin_step(e.step_ctx(), x);
    }
    g.setZero();
    motion.evaluate(e.ctx(), x, AssemblyOutputs{&g});  // pull = kappa m (x - target): nonzero while moving
    if (g.norm() > 0) {
      ++moving_steps;
      x[1] -= h * 0.5;  // follow the target exactly
    }
  }
  EXPECT_EQ(moving_steps, 60);  // 0.3 m at 0.5 m/s in steps of 0.01 s
  EXPECT_NEAR(x[1], 0.3, 1e-12);
}

}  // namespace
}  // namespace softsim
