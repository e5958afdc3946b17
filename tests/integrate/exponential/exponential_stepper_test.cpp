// The exponential integrators against answers known independently: ERE is exact for a linear
// system with constant forcing (checked against the modal solution of a full eigendecomposition),
// SIERE with every mode is ERE, and with s = 0 each additive method is its difference method
// (SI, BE, BDF2, TR-BDF2) as the existing steppers compute it.
#include "softsim/integrate/exponential/exponential_stepper.hpp"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <cstdio>

#include "integrate/exponential/beam.hpp"

namespace softsim::test {
namespace {

BeamSpec small_linear_beam() {
  BeamSpec spec;
  spec.size = Vec3(2.0, 0.5, 0.5);
  spec.cells = Eigen::Vector3i(4, 1, 1);  // 20 vertices, 16 free: 48 DOFs
  spec.youngs = 1e5;
  return spec;
}

State moving_start(const Model& model) {
  State s = rest_state(model);
  for (int i = 0; i < model.num_vertices(); ++i) {
    const double x = model.rest_positions[3 * i];
    s.v[3 * i + 1] = 0.3 * std::sin(x);
    s.v[3 * i + 2] = 0.1 * x;
  }
  model.boundary.apply_velocities(s.v, model.rest_positions, 0.0);
  for (std::size_t i = 0; i < s.v.size(); ++i)
    if (model.boundary.fixed_dofs()[i]) s.v[static_cast<Eigen::Index>(i)] = 0.0;
  return s;
}

StepperOptions options_for(const std::string& type, int modes = 10) {
  StepperOptions o;
  o.type = *value_named<IntegratorType>(type);
  o.exponential.modes = modes;
  o.exponential.krylov_tolerance = 1e-12;
  o.newton.tolerance = 1e-11;
  o.newton.gradient_tolerance = 0.0;
  o.max_step_halvings = 0;
  return o;
}

State run(const Model& model, const StepperOptions& options, State s, double h, int steps) {
  auto stepper = make_stepper(model, options);
  for (int i = 0; i < steps; ++i) {
    const StepResult r = stepper->step(s, h);
    EXPECT_TRUE(r.converged) << stepper->name() << " step " << i << ": " << r.failure;
  }
  return s;
}

double relative_difference(const State& a, const State& b, const State& start) {
  const double scale_x = std::max((b.x - start.x).lpNorm<Eigen::Infinity>(), 1e-300);
  const double scale_v = std::max(b.v.lpNorm<Eigen::Infinity>(), 1e-300);
  return std::max((a.x - b.x).lpNorm<Eigen::Infinity>() / scale_x, (a.v - b.v).lpNorm<Eigen::Infinity>() / scale_v);
}

// The exact motion of M d'' + K d = f (d = q - q_rest, undamped, constant f) over the free DOFs
// from the generalized eigendecomposition K X = M X Lambda: each modal coordinate y_j solves
// y'' + lambda_j y = g_j, y = g/lambda + (y0 - g/lambda) cos(w t) + y0'/w sin(w t).
State exact_linear_motion(const Model& model, const State& start, double t) {
  const auto& fixed = model.boundary.fixed_dofs();
  std::vector<int> free;
  for (int i = 0; i < model.num_dofs(); ++i)
    if (!fixed[i]) free.push_back(i);
  const int nf = static_cast<int>(free.size());
  const SecondOrderSystem system(model, false);
  const ModelData data(model);
  const Stage stage;
  const EvalContext ctx{stage, data};
  const MatX K = MatX(system.stiffness(ctx, model.rest_positions));
  const MatX M = MatX(model.mass_matrix());
  const VecX f_rest = system.force(ctx, model.rest_positions, VecX::Zero(model.num_dofs()));  // gravity
  MatX Kf(nf, nf), Mf(nf, nf);
  VecX g(nf), d0(nf), v0(nf);
  for (int a = 0; a < nf; ++a) {
    g[a] = f_rest[free[a]];
    d0[a] = start.x[free[a]] - model.rest_positions[free[a]];
    v0[a] = start.v[free[a]];
    for (int b = 0; b < nf; ++b) {
      Kf(a, b) = K(free[a], free[b]);
      Mf(a, b) = M(free[a], free[b]);
    }
  }
  Eigen::GeneralizedSelfAdjointEigenSolver<MatX> eig(Kf, Mf);
  const MatX& X = eig.eigenvectors();
  const VecX lambda = eig.eigenvalues();
  const VecX y0 = X.transpose() * Mf * d0, yd0 = X.transpose() * Mf * v0, gy = X.transpose() * g;
  VecX y(nf), yd(nf);
  for (int j = 0; j < nf; ++j) {
    const double w = std::sqrt(lambda[j]), p = gy[j] / lambda[j];
    y[j] = p + (y0[j] - p) * std::cos(w * t) + yd0[j] / w * std::sin(w * t);
    yd[j] = -(y0[j] - p) * w * std::sin(w * t) + yd0[j] * std::cos(w * t);
  }
  State s = start;
  const VecX d = X * y, v = X * yd;
  for (int a = 0; a < nf; ++a) {
    s.x[free[a]] = model.rest_positions[free[a]] + d[a];
    s.v[free[a]] = v[a];
  }
  s.t = start.t + t;
  return s;
}

TEST(Ere, ExactForLinearElasticityWithConstantForcingAtAnyStep) {
  auto model = make_beam(small_linear_beam());
  const State start = moving_start(*model);
  for (double h : {0.01, 0.1, 1.0}) {
    const int steps = 3;
    const State exact = exact_linear_motion(*model, start, steps * h);
    const State ere = run(*model, options_for("ere"), start, h, steps);
    const double error = relative_difference(ere, exact, start);
    std::printf("[ ere exact ] h = %g: relative error %.3e\n", h, error);
    EXPECT_LT(error, 1e-9) << "h = " << h;
  }
}

TEST(Ere, ReportsTheKrylovDimension) {
  auto model = make_beam(small_linear_beam());
  auto stepper = make_stepper(*model, options_for("ere"));
  State s = moving_start(*model);
  const StepResult r = stepper->step(s, 0.01);
  EXPECT_GT(r.krylov_dimension, 1);
  EXPECT_LE(r.krylov_dimension, 30);
  EXPECT_GE(r.linear_iterations, r.krylov_dimension);
}

TEST(Siere, WithEveryModeIsEreOnALinearProblem) {
  auto model = make_beam(small_linear_beam());
  const State start = moving_start(*model);
  for (double h : {0.01, 0.2}) {
    const State ere = run(*model, options_for("ere"), start, h, 3);
    const State siere = run(*model, options_for("siere", 48), start, h, 3);
    EXPECT_LT(relative_difference(siere, ere, start), 1e-8) << "h = " << h;
  }
}

// With s = 0 the additive methods are their difference methods. Linear problem: one Newton
// iteration solves each stage exactly, so the semi-implicit and the implicit versions coincide.
struct Pairing {
  const char* exponential;
  const char* difference;
  bool semi_implicit;
};

class ZeroModes : public ::testing::TestWithParam<Pairing> {};

TEST_P(ZeroModes, IsTheDifferenceMethodOnALinearProblem) {
  const Pairing p = GetParam();
  auto model = make_beam(small_linear_beam());
  const State start = moving_start(*model);
  StepperOptions difference = options_for(p.difference);
  difference.semi_implicit = p.semi_implicit;
  difference.newton.project_psd = false;
  for (double h : {0.01, 0.2}) {
    const State a = run(*model, options_for(p.exponential, 0), start, h, 4);
    const State b = run(*model, difference, start, h, 4);
    EXPECT_LT(relative_difference(a, b, start), 1e-8) << p.exponential << " vs " << p.difference << ", h = " << h;
  }
}

INSTANTIATE_TEST_SUITE_P(Methods, ZeroModes,
                         ::testing::Values(Pairing{"siere", "backward_euler", true},
                                           Pairing{"beere", "backward_euler", false},
                                           Pairing{"sbdf2ere", "bdf2", true}, Pairing{"bdf2ere", "bdf2", false},
                                           Pairing{"str_sbdf2ere", "tr_bdf2", true}),
                         [](const auto& info) { return std::string(info.param.exponential); });

// A change of h restarts the two-step methods with their one-step partner, as BDF2 restarts
// with backward Euler: with s = 0 the sequence h, h, h/2, h/2, h/2 matches BDF2 step for step.
TEST(Bdf2ere, RestartsWhenTheStepChanges) {
  auto model = make_beam(small_linear_beam());
  State a = moving_start(*model), b = a;
  const State start = a;
  auto exponential = make_stepper(*model, options_for("bdf2ere", 0));
  StepperOptions bdf2 = options_for("bdf2");
  bdf2.newton.project_psd = false;
  auto difference = make_stepper(*model, bdf2);
  for (double h : {0.1, 0.1, 0.05, 0.05, 0.05}) {
    ASSERT_TRUE(exponential->step(a, h).converged);
    ASSERT_TRUE(difference->step(b, h).converged);
    EXPECT_LT(relative_difference(a, b, start), 1e-8) << "t = " << a.t;
  }
}

// Six steps of h = 0.05 from rest of the small beam made soft and nonlinear (stable neo-Hookean,
// E = 2e4 Pa) with two steppers; returns the largest relative difference of their end states and
// checks that the beam visibly sagged, so that the comparison means something.
double nonlinear_beam_difference(const StepperOptions& a_options, const StepperOptions& b_options) {
  BeamSpec spec = small_linear_beam();
  spec.material = "stable_neo_hookean";
  spec.youngs = 2e4;
  auto model = make_beam(spec);
  const State start = rest_state(*model);
  const State a = run(*model, a_options, start, 0.05, 6);
  const State b = run(*model, b_options, start, 0.05, 6);
  EXPECT_GT((b.x - start.x).lpNorm<Eigen::Infinity>(), 0.02) << "the beam must deform for the test to mean something";
  return relative_difference(a, b, start);
}

// BEERE with s = 0 is backward Euler also on a nonlinear problem, to the Newton tolerance.
TEST(Beere, WithoutModesIsBackwardEulerOnANonlinearProblem) {
  EXPECT_LT(nonlinear_beam_difference(options_for("beere", 0), options_for("backward_euler")), 1e-8);
}

// SIERE with s = 0 is SI (eq. 6) also on a nonlinear problem: softsim's semi-implicit backward
// Euler linearises at q^n too ((M + h^2 K)(v1 - v0) = h (f(q^n) - h K v^n)).
TEST(Siere, WithoutModesIsSemiImplicitBackwardEulerOnANonlinearProblem) {
  StepperOptions si = options_for("backward_euler");
  si.semi_implicit = true;
  EXPECT_LT(nonlinear_beam_difference(options_for("siere", 0), si), 1e-9);
}

TEST(Exponential, RejectsContactAndSlip) {
  auto model = make_beam(small_linear_beam());
  SlipCondition slip;
  slip.vertices = {19};
  slip.direction = Vec3(0, 1, 0);
  model->boundary.add_slip(slip);
  try {
    make_stepper(*model, options_for("siere"));
    FAIL() << "slip accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("slip"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace softsim::test
