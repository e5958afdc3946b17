// Projected Newton (minimize) converges quadratically near the solution of a neo-Hookean
// backward Euler step when the PSD projection is inactive there: ||g_{k+1}|| / ||g_k||^2 stays
// bounded and the number of correct digits about doubles per iteration, down to round-off.
//
// The step: a neo-Hookean cube (E = 1e5 Pa, nu = 0.3, 0.2 m, 135 tets) whose boundary vertices
// are moved to 1.25 x their rest positions about the centre during one BE step (h = 0.05 s, from
// rest, no gravity), so every element ends up stretched by about 25% in all directions: all
// singular values > 1, where the neo-Hookean eigenvalues (flip, twist, scaling block) are all
// positive. The test checks that (projected == unprojected Hessian at the solution) rather than
// assuming it. A negative control with a 5% wrong Hessian (linear convergence) must fail the
// same criterion, so the criterion can fail.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

#include "softsim/integrate/incremental_potential.hpp"
#include "softsim/scene/scene.hpp"
#include "softsim/solve/linear_solver.hpp"
#include "softsim/solve/projected_newton.hpp"
#include "softsim/solve/solver_timing.hpp"

namespace softsim {
namespace {

constexpr double kStretch = 1.25;
constexpr double kH = 0.05;

Model stretched_cube() {
  const nlohmann::json json = R"json({
    "dim": 3,
    "gravity": [0, 0, 0],
    "contact": {"enabled": false},
    "bodies": [{
      "generator": {"type": "box", "size": [0.2, 0.2, 0.2], "resolution": [3, 3, 3]},
      "material": {"model": "neo_hookean", "E": 1e5, "nu": 0.3, "density": 1000}
    }]
  })json"_json;
  Model model = build_model(parse_scene(json, {}));
  // Boundary vertices: prescribed at kStretch x their rest position (the box is centred at 0).
  for (int i = 0; i < model.num_vertices(); ++i) {
    const Vec3 X = model.rest_positions.segment<3>(3 * i);
    if (X.cwiseAbs().maxCoeff() < 0.1 - 1e-9) continue;
    PrescribedMotion motion;
    motion.vertices = {i};
    motion.offset = [X](double) { return VecX((kStretch - 1.0) * X); };
    model.boundary.add_motion(std::move(motion));
  }
  return model;
}

// The BE incremental potential with a Hessian scaled by (1 + hessian_error): 0 is the real one.
class BackwardEulerStep : public Objective {
 public:
  BackwardEulerStep(const Model& model, double hessian_error)
      : data_(model), potential_(model, data_), error_(hessian_error) {
    potential_.set_step(Stage::step(0.0, kH), model.rest_positions, 1.0, kH * kH, model.rest_positions, 0.0);  // from rest
  }
  double evaluate(const VecX& x, VecX* g, SparseMat* H, bool project_psd) override {
    const double E = potential_.evaluate(x, g, H, project_psd);
    if (H) *H *= 1.0 + error_;
    return E;
  }
  const SparseMat& hessian_pattern() const override { return potential_.hessian_pattern(); }
  void reduce(VecX& g, SparseMat* H) const override { potential_.reduce(g, H); }
  void expand(VecX& p) const override { potential_.expand(p); }
  double max_step_fraction(const VecX& x, const VecX& p) override { return potential_.max_step_fraction(x, p); }

 private:
  ModelData data_;
  IncrementalPotential potential_;
  double error_;
};

// Gradient norms of a projected-Newton solve of the step from the start guess (interior at
// rest, boundary at its end-of-step position), run until round-off stops it.
std::vector<double> solve(Model& model, double hessian_error, VecX& x) {
  BackwardEulerStep objective(model, hessian_error);
  x = model.rest_positions;
  model.boundary.apply_positions(x, model.rest_positions, kH);
  NewtonOptions options;
  options.project_psd = true;
  options.tolerance = 0.0;  // no step criterion: iterate until the gradient reaches round-off
  options.gradient_tolerance = 0.0;  // and through a few iterations at the round-off plateau
  options.max_iterations = 12;
  auto solver = make_linear_solver("ldlt", model.num_dofs());
  std::vector<double> history;
  projected_newton(objective, x, *solver, options, &history);
  return history;
}

struct Tail {
  int ratios = 0;           // iterates in the asymptotic regime
  double max_constant = 0;  // max ||g_{k+1}|| / ||g_k||^2 there
  double min_constant = HUGE_VAL;
  double min_digit_gain = HUGE_VAL;  // min log(g_{k+1}/g_0) / log(g_k/g_0)
};

// The asymptotic regime: ||g_k|| at most 0.2 ||g_0|| (past the first, global step) and
// ||g_{k+1}|| at least 10 x the round-off floor (the smallest gradient reached on the plateau).
Tail asymptotic_tail(const std::vector<double>& g) {
  Tail t;
  double floor = HUGE_VAL;
  for (double v : g) floor = std::min(floor, v);
  for (std::size_t k = 0; k + 1 < g.size(); ++k) {
    if (g[k] > 0.2 * g[0] || g[k + 1] < 10.0 * floor) continue;
    const double c = g[k + 1] / (g[k] * g[k]);
    t.max_constant = std::max(t.max_constant, c);
    t.min_constant = std::min(t.min_constant, c);
    t.min_digit_gain = std::min(t.min_digit_gain, std::log(g[k + 1] / g[0]) / std::log(g[k] / g[0]));
    ++t.ratios;
  }
  return t;
}

bool is_quadratic(const Tail& t) {
  // Bounded constant: quadratic convergence keeps C_k = ||g_{k+1}|| / ||g_k||^2 roughly fixed,
  // linear convergence (rate rho) makes it grow like rho / ||g_k||, by orders of magnitude.
  // Correct digits (relative to g_0) at least 1.8x per iteration.
  return t.ratios >= 3 && t.max_constant <= 10.0 * t.min_constant && t.min_digit_gain >= 1.8;
}

TEST(ProjectedNewton, ConvergesQuadraticallyOnANeoHookeanStep) {
  Model model = stretched_cube();
  VecX x;
  const std::vector<double> g = solve(model, 0.0, x);
  for (std::size_t k = 0; k < g.size(); ++k) std::printf("[ newton ] ||g_%zu|| = %.3e\n", k, g[k]);
  ASSERT_GE(g.size(), 4u);
  EXPECT_LT(g.back(), 1e-12 * g.front()) << "did not reach round-off";

  // Projection inactive at the solution: the projected and the true Hessian coincide.
  ModelData data(model);
  IncrementalPotential potential(model, data);
  potential.set_step(Stage::step(0.0, kH), model.rest_positions, 1.0, kH * kH, model.rest_positions, 0.0);
  SparseMat Hp = potential.hessian_pattern(), H = potential.hessian_pattern();
  potential.evaluate(x, nullptr, &Hp, true);
  potential.evaluate(x, nullptr, &H, false);
  EXPECT_LT((Hp - H).norm(), 1e-14 * H.norm());
  // Every element really is stretched in all directions (the premise of the set-up).
  const VecX u = x - model.rest_positions;
  EXPECT_NEAR(u.lpNorm<Eigen::Infinity>(), (kStretch - 1.0) * 0.1, 1e-9);

  const Tail t = asymptotic_tail(g);
  std::printf("[ newton ] %d ratios: C_k in [%.3g, %.3g], digit gain >= %.2f\n", t.ratios, t.min_constant,
              t.max_constant, t.min_digit_gain);
  EXPECT_TRUE(is_quadratic(t));
}

TEST(ProjectedNewton, QuadraticCriterionRejectsLinearConvergence) {
  // Negative control: a Hessian 5% too large gives linear convergence (rate ~0.05).
  Model model = stretched_cube();
  VecX x;
  const std::vector<double> g = solve(model, 0.05, x);
  for (std::size_t k = 0; k < g.size(); ++k) std::printf("[ newton, wrong H ] ||g_%zu|| = %.3e\n", k, g[k]);
  const Tail t = asymptotic_tail(g);
  std::printf("[ newton, wrong H ] %d ratios: C_k in [%.3g, %.3g], digit gain >= %.2f\n", t.ratios, t.min_constant,
              t.max_constant, t.min_digit_gain);
  EXPECT_GE(t.ratios, 3);
  EXPECT_FALSE(is_quadratic(t));
}

// A separable objective sum_i f(x_i) with a diagonal Hessian that counts its evaluations: those
// with a Hessian (assemblies) and those of E alone (line-search trials).
class CountingObjective : public Objective {
 public:
  CountingObjective(int n, std::function<Vec3(double)> f) : f_(std::move(f)), pattern_(n, n) {
    pattern_.setIdentity();
  }
  double evaluate(const VecX& x, VecX* g, SparseMat* H, bool) override {
    (H ? assemblies : energies) += 1;
    double E = 0.0;
    for (Eigen::Index i = 0; i < x.size(); ++i) {
      const Vec3 d = f_(x[i]);  // f, f', f''
      E += d[0];
      if (g) (*g)[i] = d[1];
      if (H) H->coeffRef(i, i) = d[2];
    }
    return E;
  }
  const SparseMat& hessian_pattern() const override { return pattern_; }
  double hessian_lower_bound() const override { return lower_bound; }
  int assemblies = 0, energies = 0;
  double lower_bound = 0.0;  // claimed: H >= lower_bound I

 private:
  std::function<Vec3(double)> f_;
  SparseMat pattern_;
};

// A linear solver that counts its factorizations.
class CountingSolver : public LinearSolver {
 public:
  explicit CountingSolver(int n) : inner_(make_linear_solver("auto", n)) {}
  std::string name() const override { return "counting " + inner_->name(); }
  bool compute(const SparseMat& A) override {
    ++factorizations;
    return inner_->compute(A);
  }
  bool solve(const VecX& b, VecX& x, LinearSolveStats* stats) override { return inner_->solve(b, x, stats); }
  int factorizations = 0;

 private:
  std::unique_ptr<LinearSolver> inner_;
};

NewtonResult count_solve(CountingObjective& objective, VecX& x, bool take_last_step, double tolerance,
                         int* factorizations = nullptr) {
  NewtonOptions options;
  options.tolerance = tolerance;
  options.take_last_step = take_last_step;
  CountingSolver solver(static_cast<int>(x.size()));
  const NewtonResult result = projected_newton(objective, x, solver, options);
  if (factorizations) *factorizations = solver.factorizations;
  return result;
}

// f = x^4/4 + x^2/2 - x: convex, full Newton steps from x = 2 are all accepted. The search
// assembles the point it accepts, so each iteration evaluates once: E alone is evaluated only at
// the last step, after which the solve ends (take_last_step) or at no trial at all (the book's rule).
TEST(ProjectedNewton, AcceptedFirstTrialsAreAssembledOnce) {
  const auto quartic = [](double x) { return Vec3(x * x * x * x / 4 + x * x / 2 - x, x * x * x + x - 1, 3 * x * x + 1); };
  for (const bool take_last_step : {true, false}) {
    CountingObjective objective(3, quartic);
    VecX x = VecX::Constant(3, 2.0);
    const NewtonResult result = count_solve(objective, x, take_last_step, 1e-10);
    ASSERT_TRUE(result.converged);
    // The root of x^3 + x - 1 (Cardano).
    const double root = std::cbrt(0.5 + std::sqrt(31.0 / 108.0)) + std::cbrt(0.5 - std::sqrt(31.0 / 108.0));
    EXPECT_LT((x.array() - root).abs().maxCoeff(), 1e-12);
    EXPECT_GE(result.iterations, 4);
    if (take_last_step) {
      EXPECT_EQ(objective.assemblies, result.iterations);
      EXPECT_EQ(objective.energies, 1);  // the last step's trial: nothing evaluates there again
    } else {
      EXPECT_EQ(objective.assemblies, result.iterations);  // the last direction is not taken
      EXPECT_EQ(objective.energies, 0);
    }
  }
}

// Where the last step is not taken, a Hessian bounded below (H >= lambda I) bounds the step by
// ||g|| / lambda, and a bound below the tolerance stops the solve as the step would have, without
// its factorization. f = x^4/4 + x^2/2 - x has f'' = 3 x^2 + 1 >= 1, and at 1e-10 the last step
// (converging quadratically) is far below the tolerance. The same iterates, the same iteration
// count, one factorization less; a bound too weak to decide changes nothing.
TEST(ProjectedNewton, AStepBoundedBelowTheToleranceStopsWithoutASolve) {
  const auto quartic = [](double x) { return Vec3(x * x * x * x / 4 + x * x / 2 - x, x * x * x + x - 1, 3 * x * x + 1); };
  {
    const double tolerance = 1e-10;
    CountingObjective unbounded(3, quartic), bounded(3, quartic), weak(3, quartic);
    bounded.lower_bound = 1.0;
    weak.lower_bound = 1e-20;
    VecX x_unbounded = VecX::Constant(3, 2.0), x_bounded = x_unbounded, x_weak = x_unbounded;
    int f_unbounded = 0, f_bounded = 0, f_weak = 0;
    const NewtonResult a = count_solve(unbounded, x_unbounded, false, tolerance, &f_unbounded);
    const NewtonResult b = count_solve(bounded, x_bounded, false, tolerance, &f_bounded);
    const NewtonResult c = count_solve(weak, x_weak, false, tolerance, &f_weak);
    ASSERT_TRUE(a.converged && b.converged && c.converged);
    EXPECT_EQ(x_bounded, x_unbounded);
    EXPECT_EQ(x_weak, x_unbounded);
    EXPECT_EQ(b.iterations, a.iterations);
    EXPECT_EQ(c.iterations, a.iterations);
    EXPECT_EQ(f_unbounded, a.iterations);
    EXPECT_EQ(f_bounded, a.iterations - 1);
    EXPECT_EQ(f_weak, a.iterations);
    // The bound is an upper bound of the step it replaced.
    EXPECT_GE(b.scaled_step, a.scaled_step);
    EXPECT_LT(b.scaled_step, tolerance);
  }
  // Taking the last step needs the step: the bound is not used.
  CountingObjective bounded(3, quartic);
  bounded.lower_bound = 1.0;
  VecX x = VecX::Constant(3, 2.0);
  int factorizations = 0;
  const NewtonResult r = count_solve(bounded, x, true, 1e-10, &factorizations);
  EXPECT_EQ(factorizations, r.iterations);
}

// Where the gradient's bound is too loose to decide, the last factorization refines it: f = 5 x^2
// + x^4/4 - x has f'' = 10 + 3 x^2 >= 10, but only lambda = 1 is claimed, so ||g|| / lambda is
// about 10 |p|. The tolerance is put between the last Newton step and 10 times it, and above the
// step before: only the refined bound (the step from the previous iterate's factorization plus
// its residual over lambda) can stop the solve without a factorization, and it does.
TEST(ProjectedNewton, TheLastFactorizationRefinesALooseBound) {
  const auto f = [](double x) { return Vec3(5 * x * x + x * x * x * x / 4 - x, 10 * x + x * x * x - 1, 10 + 3 * x * x); };
  // Newton's iterates from x = 2 (full steps: the line search accepts them all on this convex f).
  std::vector<double> xs{2.0};
  while (std::abs(f(xs.back())[1] / f(xs.back())[2]) > 1e-9) xs.push_back(xs.back() - f(xs.back())[1] / f(xs.back())[2]);
  const std::size_t last = xs.size() - 1;
  const double step = std::abs(f(xs[last])[1] / f(xs[last])[2]);
  const double tolerance = 3.0 * step;
  ASSERT_GT(std::abs(f(xs[last - 1])[1] / f(xs[last - 1])[2]), tolerance);  // the step before does not stop it
  ASSERT_GT(std::abs(f(xs[last])[1]) / 1.0, tolerance);                        // the gradient's bound cannot
  CountingObjective plain(1, f), bounded(1, f);
  bounded.lower_bound = 1.0;
  VecX x_plain = VecX::Constant(1, 2.0), x_bounded = x_plain;
  int f_plain = 0, f_bounded = 0;
  const NewtonResult a = count_solve(plain, x_plain, false, tolerance, &f_plain);
  const NewtonResult b = count_solve(bounded, x_bounded, false, tolerance, &f_bounded);
  ASSERT_TRUE(a.converged && b.converged);
  EXPECT_EQ(a.iterations, static_cast<int>(last) + 1);
  EXPECT_EQ(x_bounded, x_plain);
  EXPECT_EQ(b.iterations, a.iterations);
  EXPECT_EQ(f_plain, a.iterations);
  EXPECT_EQ(f_bounded, a.iterations - 1);
  EXPECT_LT(b.scaled_step, tolerance);
  EXPECT_GE(b.scaled_step, step);
}

// f = sqrt(1 + x^2) from x = 10: the Newton step -x (1 + x^2) overshoots, and the first trials of
// the first two searches fail (x = 10, then about 2.1). Only the first of them is assembled in
// vain; once a first trial is accepted, the searches assemble again. (The tolerance stops the
// solve at a step, x then being about 6e-4, not at an exactly zero gradient.)
TEST(ProjectedNewton, FailingFirstTrialsStopBeingAssembled) {
  const auto hyperbola = [](double x) {
    const double s = std::sqrt(1 + x * x);
    return Vec3(s, x / s, 1 / (s * s * s));
  };
  CountingObjective objective(1, hyperbola);
  VecX x = VecX::Constant(1, 10.0);
  const NewtonResult result = count_solve(objective, x, true, 1e-6);
  ASSERT_TRUE(result.converged);
  EXPECT_LT(std::abs(x[0]), 1e-9);
  // One assembly per iteration but the last, whose trial is E alone, plus the wasted one.
  EXPECT_EQ(objective.assemblies, result.iterations + 1);
}

// The per-phase wall times are measured only when asked for (set_phase_timing): zero otherwise,
// and where they are, the solve's part includes its factorization.
TEST(ProjectedNewton, TimesItsPhasesOnlyWhenAsked) {
  const auto quartic = [](double x) { return Vec3(x * x * x * x / 4 + x * x / 2 - x, x * x * x + x - 1, 3 * x * x + 1); };
  for (const bool timed : {false, true}) {
    set_phase_timing(timed);
    CountingObjective objective(3, quartic);
    VecX x = VecX::Constant(3, 2.0);
    const NewtonResult result = count_solve(objective, x, true, 1e-10);
    set_phase_timing(false);
    ASSERT_TRUE(result.converged);
    if (!timed) {
      EXPECT_EQ(result.assembly_ms + result.solve_ms + result.line_search_ms + result.factorization_ms, 0.0);
    } else {
      EXPECT_GT(result.assembly_ms, 0.0);  // the first evaluation; the searches assemble the rest
      EXPECT_GT(result.factorization_ms, 0.0);
      EXPECT_GE(result.solve_ms, result.factorization_ms);
      EXPECT_GT(result.line_search_ms, 0.0);
    }
  }
}

}  // namespace
}  // namespace softsim
