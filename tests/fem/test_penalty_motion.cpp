// Moving boundary conditions by penalty (the book ch. 11): the driven vertex follows its target
// x^n + h v to the solver tolerance, stops at the limit, and the stiffness only grows.
#include <gtest/gtest.h>

#include "softsim/fem/penalty_motion.hpp"
#include "softsim/integrate/stepper.hpp"
#include "softsim/model/model.hpp"
#include "support/evaluation.hpp"

namespace softsim {
namespace {

TEST(PenaltyMotion, FollowsTargetAndStopsAtLimit) {
  Model model(2);
  MatX V(1, 2);
  V << 0.0, 0.6;
  model.add_vertices(V);
  model.add_lumped_mass(0, 2.0);
  const double h = 0.01, tolerance = 1e-2;
  auto penalty = std::make_unique<PenaltyMotion>(2, std::vector<int>{0}, std::vector<double>{2.0}, Vec2(0.0, -0.5),
                                                 0.3, 10.0, tolerance);
  const PenaltyMotion* term = penalty.get();
  model.add_energy(std::move(penalty));
  model.finalize();
  StepperOptions options;
  options.newton.tolerance = tolerance;
  auto stepper = make_stepper(model, options);
  State state{model.rest_positions, VecX::Zero(2), 0.0};
  double last_kappa = term->stiffness(stepper->data());
  for (int n = 1; n <= 100; ++n) {
    const VecX start = state.x;
    const StepResult r = stepper->step(state, h);
    ASSERT_TRUE(r.converged);
    EXPECT_GE(term->stiffness(stepper->data()), last_kappa);  // never decreased
    last_kappa = term->stiffness(stepper->data());
    // The target of this step: h v beyond the start while the 0.3 m limit is not reached.
    const double expected_y = n <= 60 ? start[1] - h * 0.5 : start[1];
    EXPECT_LE(std::abs(state.x[1] - expected_y) / h, tolerance) << "step " << n;
  }
  EXPECT_GT(last_kappa, 10.0);  // the initial stiffness was too soft to follow: it was doubled
  EXPECT_NEAR(state.x[1], 0.6 - 0.3, 60 * h * tolerance);
}

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
