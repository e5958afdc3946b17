// Convergence order of every integrator on a smooth nonlinear problem (spring pendulum) against
// an RK4 reference: error(h) / error(h/2) ~ 2^p. Measured orders are printed.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "integrate/pendulum.hpp"
#include "support/names.hpp"

namespace softsim {
namespace {

constexpr double kEnd = 0.5;

struct Variant {
  std::string solver = "projected_newton";  // residual form for damped_newton / inexact_newton
  double rayleigh_alpha = 0.0;
};

double run_error(const std::string& type, bool semi_implicit, int steps, const State& reference, const Variant& variant) {
  auto model = test::make_pendulum(50.0, variant.rayleigh_alpha);
  StepperOptions options;
  options.type = test::named<IntegratorType>(type);
  options.semi_implicit = semi_implicit;
  options.nonlinear_solver = test::named<NonlinearSolver>(variant.solver);
  options.newton.tolerance = 1e-7;  // m/s; far below the discretisation errors measured
  options.newton.gradient_tolerance = 1e-13;
  options.newton.project_psd = false;
  return test::pendulum_error(*model, options, kEnd, steps, reference);
}

double measured_order(const std::string& type, bool semi_implicit, int coarse_steps, const Variant& variant = {}) {
  auto model = test::make_pendulum(50.0, variant.rayleigh_alpha);
  const State reference = test::rk4_reference(*model, test::initial_state(*model), kEnd, 20000);
  const double e1 = run_error(type, semi_implicit, coarse_steps, reference, variant);
  const double e2 = run_error(type, semi_implicit, 2 * coarse_steps, reference, variant);
  const double order = std::log2(e1 / e2);
  std::printf("[ order ] %-18s%s %s alpha=%g N=%d: error %.3e -> %.3e, order %.3f\n", type.c_str(),
              semi_implicit ? " (SI)" : "", variant.solver.c_str(), variant.rayleigh_alpha, coarse_steps, e1, e2, order);
  return order;
}

struct Case {
  const char* type;
  bool semi_implicit;
  double order;
  int steps;
};

class OrderTest : public ::testing::TestWithParam<Case> {};

TEST_P(OrderTest, MatchesTheoreticalOrder) {
  const Case c = GetParam();
  EXPECT_NEAR(measured_order(c.type, c.semi_implicit, c.steps), c.order, 0.15);
}

INSTANTIATE_TEST_SUITE_P(Integrators, OrderTest,
                         ::testing::Values(Case{"forward_euler", false, 1.0, 2000}, Case{"symplectic_euler", false, 1.0, 2000},
                                           Case{"backward_euler", false, 1.0, 2000}, Case{"backward_euler", true, 1.0, 2000},
                                           Case{"trapezoidal", false, 2.0, 100}, Case{"implicit_midpoint", false, 2.0, 100},
                                           Case{"bdf2", false, 2.0, 100},
                                           Case{"tr_bdf2", false, 2.0, 100}, Case{"sdirk2", false, 2.0, 100},
                                           Case{"generalized_alpha", false, 2.0, 100}, Case{"newmark", false, 2.0, 100},
                                           Case{"tr_bdf2", true, 2.0, 100}, Case{"bdf2", true, 2.0, 100}),
                         [](const auto& info) {
                           return std::string(info.param.type) + (info.param.semi_implicit ? "_SI" : "");
                         });

// The residual form (damped / inexact Newton) reaches the same orders.
TEST(OrderResidualForm, TrapezoidalDampedNewton) {
  EXPECT_NEAR(measured_order("trapezoidal", false, 100, {"damped_newton"}), 2.0, 0.15);
}
TEST(OrderResidualForm, Bdf2InexactNewton) {
  EXPECT_NEAR(measured_order("bdf2", false, 100, {"inexact_newton"}), 2.0, 0.15);
}
TEST(OrderResidualForm, BackwardEulerSemiImplicitDampedNewton) {
  EXPECT_NEAR(measured_order("backward_euler", true, 2000, {"damped_newton"}), 1.0, 0.15);
}

// Rayleigh damping (D = alpha M) enters the predictors through a0 and the stages through w_d:
// a wrong weight would show up as first-order error.
class OrderWithDamping : public ::testing::TestWithParam<Case> {};
TEST_P(OrderWithDamping, MatchesTheoreticalOrder) {
  const Case c = GetParam();
  Variant v;
  v.rayleigh_alpha = 2.0;
  EXPECT_NEAR(measured_order(c.type, c.semi_implicit, c.steps, v), c.order, 0.15);
}
INSTANTIATE_TEST_SUITE_P(Integrators, OrderWithDamping,
                         ::testing::Values(Case{"backward_euler", false, 1.0, 2000}, Case{"trapezoidal", false, 2.0, 100},
                                           Case{"bdf2", false, 2.0, 100}, Case{"tr_bdf2", false, 2.0, 100},
                                           Case{"sdirk2", false, 2.0, 100}, Case{"generalized_alpha", false, 2.0, 100},
                                           Case{"newmark", false, 2.0, 100}),
                         [](const auto& info) { return std::string(info.param.type); });

}  // namespace
}  // namespace softsim
