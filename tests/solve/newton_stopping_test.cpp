// Newton's stopping rule options (solve/newton_options.hpp), on one backward Euler step of a free
// unit mass under gravity g = (-6, -8) m/s^2, h = 0.01 s: the first Newton direction is the exact
// step p = h^2 g = (-6e-4, -8e-4) m, so ||p||_inf / h = 0.08 m/s and the largest per-vertex sum
// |p_x| + |p_y| over h (the companion code of Li & Jiang 2025, numpy's matrix infinity norm) is 0.14 m/s.
#include <gtest/gtest.h>

#include "softsim/integrate/stepper.hpp"
#include "softsim/model/model.hpp"

namespace softsim {
namespace {

constexpr double kStep = 0.01;

// The position after one step from rest at the origin.
Vec2 one_step(double tolerance, bool take_last_step, bool vertex_l1) {
  Model model(2);
  model.add_vertices(MatX::Zero(1, 2));
  model.add_lumped_mass(0, 1.0);
  model.gravity = Vec3(-6.0, -8.0, 0.0);
  model.finalize();
  StepperOptions options;
  options.type = IntegratorType::backward_euler;
  options.newton.tolerance = tolerance;
  options.newton.take_last_step = take_last_step;
  options.newton.vertex_l1_dim = vertex_l1 ? 2 : 0;
  auto stepper = make_stepper(model, options);
  State state{VecX::Zero(2), VecX::Zero(2), 0.0};
  EXPECT_TRUE(stepper->step(state, kStep).converged);
  return state.x.head<2>();
}

TEST(NewtonStopping, TakeLastStepDecidesWhetherTheStepBelowTheToleranceIsTaken) {
  const Vec2 exact(-6e-4, -8e-4);
  // Tolerance above both norms: the first direction already meets it.
  EXPECT_LT((one_step(1.0, true, false) - exact).norm(), 1e-15);
  EXPECT_EQ(one_step(1.0, false, false), Vec2::Zero());  // stops where it is (the book's code: no iteration)
  // Tolerance below both: the step is taken, the next direction (zero) stops either way.
  EXPECT_LT((one_step(0.05, false, false) - exact).norm(), 1e-15);
}

TEST(NewtonStopping, VertexL1NormIsTheLargestPerVertexSum) {
  const Vec2 exact(-6e-4, -8e-4);
  // 0.08 < 0.1 < 0.14: met in the largest-entry norm, not in the per-vertex sum.
  EXPECT_EQ(one_step(0.1, false, false), Vec2::Zero());
  EXPECT_LT((one_step(0.1, false, true) - exact).norm(), 1e-15);
  VecX p(4);
  p << 1.0, -2.0, 0.5, 0.25;
  EXPECT_EQ(newton_step_norm(p, 0), 2.0);
  EXPECT_EQ(newton_step_norm(p, 2), 3.0);
}

}  // namespace
}  // namespace softsim
