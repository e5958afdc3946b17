// Moving boundary conditions by penalty (the book ch. 11): the driven vertex follows its target
// x^n + h v to the solver tolerance, stops at the limit, and the stiffness only grows.
#include <gtest/gtest.h>

#include "softsim/fem/penalty_motion.hpp"
#include "softsim/integrate/stepper.hpp"
#include "softsim/model/model.hpp"

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
  double last_kappa = term->stiffness();
  for (int n = 1; n <= 100; ++n) {
    const VecX start = state.x;
    const StepResult r = stepper->step(state, h);
    ASSERT_TRUE(r.converged);
    EXPECT_GE(term->stiffness(), last_kappa);  // never decreased
    last_kappa = term->stiffness();
    // The target of this step: h v beyond the start while the 0.3 m limit is not reached.
    const double expected_y = n <= 60 ? start[1] - h * 0.5 : start[1];
    EXPECT_LE(std::abs(state.x[1] - expected_y) / h, tolerance) << "step " << n;
  }
  EXPECT_GT(last_kappa, 10.0);  // the initial stiffness was too soft to follow: it was doubled
  EXPECT_NEAR(state.x[1], 0.6 - 0.3, 60 * h * tolerance);
}

}  // namespace
}  // namespace softsim
