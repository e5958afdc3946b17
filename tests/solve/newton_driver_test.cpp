// The one Newton driver (solve/newton_driver.hpp) runs the same iteration for every variant:
// each accepted iterate is handed to the model's end_iteration hook (where the IPC barrier
// balances and raises its stiffness), and a solve whose problem the hook changed goes on with
// the changed problem. Before the driver, the residual-form solvers (damped and inexact Newton,
// hence every implicit-friction step) never called the hook.
#include <gtest/gtest.h>

#include "softsim/integrate/stepper.hpp"
#include "softsim/model/model.hpp"
#include "support/names.hpp"

namespace softsim {
namespace {

// E = k/2 |x - anchor|^2 on vertex 0, with k an adaptive parameter kept in the run's data: after
// an accepted iterate farther than `reach` from the anchor, k doubles (as the barrier stiffness
// doubles while contact keeps closing).
class AdaptiveSpring : public Energy {
 public:
  struct Data : TermData {
    double k = 1.0;
    int end_iterations = 0;
  };
  std::string name() const override { return "adaptive_spring"; }
  std::unique_ptr<TermData> make_data() const override { return std::make_unique<Data>(); }
  double evaluate(const EvalContext& ctx, const VecX& x, const AssemblyOutputs& out) const override {
    const double k = ctx.data.of<Data>(this).k;
    const Vec2 d = x.head<2>();
    if (out.gradient) out.gradient->head<2>() += out.weight * k * d;
    if (out.hessian)
      for (int c = 0; c < 2; ++c) out.hessian->coeffRef(c, c) += out.weight * k;
    return out.weight * 0.5 * k * d.squaredNorm();
  }
  bool end_iteration(const StepContext& ctx, const VecX& x) const override {
    Data& data = ctx.data.of<Data>(this);
    ++data.end_iterations;
    if (x.head<2>().norm() <= kReach || data.k >= 1e4) return false;
    data.k *= 2.0;
    return true;
  }
  static constexpr double kReach = 0.05;
};

struct Outcome {
  StepResult result;
  double k = 0.0, residual = 0.0;
  int end_iterations = 0;
};

// One backward Euler step of a unit mass under gravity 10 m/s^2, held by the adaptive spring.
Outcome one_step(const std::string& solver) {
  Model model(2);
  model.add_vertices(MatX::Zero(1, 2));
  model.add_lumped_mass(0, 1.0);
  model.gravity = Vec3(0.0, -10.0, 0.0);
  auto spring = std::make_unique<AdaptiveSpring>();
  const AdaptiveSpring* term = spring.get();
  model.add_energy(std::move(spring));
  model.finalize();
  StepperOptions options;
  options.nonlinear_solver = test::named<NonlinearSolver>(solver);
  options.newton.tolerance = 1e-10;
  options.max_step_halvings = 0;
  auto stepper = make_stepper(model, options);
  State state{model.rest_positions, VecX::Zero(2), 0.0};
  const double h = 0.5;
  Outcome o;
  o.result = stepper->step(state, h);
  const auto& data = stepper->data().of<AdaptiveSpring::Data>(term);
  o.k = data.k;
  o.end_iterations = data.end_iterations;
  // The step's momentum balance with the final stiffness: (x - 0 - h v0)/h^2 + k x - g = 0.
  o.residual = std::abs(state.x[1] / (h * h) + o.k * state.x[1] + 10.0);
  return o;
}

TEST(NewtonDriver, EveryVariantCallsEndIterationAndSolvesTheAdaptedProblem) {
  for (const std::string solver : {"projected_newton", "damped_newton", "inexact_newton"}) {
    SCOPED_TRACE(solver);
    const Outcome o = one_step(solver);
    ASSERT_TRUE(o.result.converged) << o.result.failure;
    // With k = 1 the step would end 1.6 m below the anchor: the hook must have stiffened it
    // until the solution lies within reach (k x = -10 + ... => k >= ~200).
    // Once per accepted iterate: every iteration's, but a last one whose step is lost to round-off.
    EXPECT_GE(o.end_iterations, o.result.newton_iterations - 1);
    EXPECT_LE(o.end_iterations, o.result.newton_iterations);
    EXPECT_GT(o.k, 100.0);
    EXPECT_LT(o.residual, 1e-6 * 10.0) << "the solution must satisfy the problem as the hook left it";
    std::printf("[ driver ] %-16s %d iterations, %d end_iteration calls, final k %.0f, residual %.2e\n",
                solver.c_str(), o.result.newton_iterations, o.end_iterations, o.k, o.residual);
  }
}

}  // namespace
}  // namespace softsim
