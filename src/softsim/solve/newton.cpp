#include "softsim/solve/newton.hpp"

#include "softsim/solve/rank_one_update.hpp"
#include "softsim/solve/solver_timing.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace softsim {

namespace {

// Energy changes below this fraction of |E| are taken as unresolvable round-off: E sums terms
// (inertia, gravity work, elastic energy) much larger than its change near the solution.
constexpr double kEnergyRoundoff = 1e-10;

// Hager & Zhang (2005), approximate Armijo condition: for phi(alpha) = E(x + alpha p), the
// Armijo test phi(alpha) - phi(0) <= c alpha phi'(0) becomes phi'(alpha) <= (2c - 1) phi'(0) on
// the quadratic model phi(alpha) - phi(0) = alpha (phi'(0) + phi'(alpha)) / 2, which has no
// cancellation. Used only where the energy difference itself is at round-off level.
bool approximate_armijo(Objective& objective, const VecX& x_trial, const VecX& p, double slope, double armijo,
                        VecX& g_trial) {
  const double E = objective.evaluate(x_trial, &g_trial, nullptr, false);
  return std::isfinite(E) && g_trial.dot(p) <= (2.0 * armijo - 1.0) * slope;
}

}  // namespace

NewtonResult minimize(Objective& objective, VecX& x, LinearSolver& solver, const NewtonOptions& options,
                      std::vector<double>* history) {
  NewtonResult result;
  SparseMat H = objective.hessian_pattern();
  VecX g(x.size()), g_world(x.size()), p(x.size()), x_trial(x.size()), g_trial(x.size());
  std::vector<RankOneHessian> rank_one;
  for (int it = 0; it < options.max_iterations; ++it) {
    auto t0 = std::chrono::steady_clock::now();
    const double E = objective.evaluate(x, &g_world, &H, options.project_psd);
    g = g_world;
    objective.reduce(g, &H);
    result.assembly_ms += ms_since(t0);
    result.energy = E;
    result.gradient_norm = g.lpNorm<Eigen::Infinity>();
    if (history) history->push_back(g.norm());
    if (!std::isfinite(E) || !g.allFinite()) {
      result.failure = "non-finite energy or gradient";
      return result;
    }
    if (result.gradient_norm <= options.gradient_tolerance) {
      result.converged = true;
      result.scaled_step = 0.0;
      return result;
    }

    t0 = std::chrono::steady_clock::now();
    LinearSolveStats stats;
    objective.rank_one_hessian(x, rank_one);  // dense Hessian parts, by Sherman-Morrison-Woodbury
    bool ok = solver.compute(H);
    result.factorization_ms += ms_since(t0);
    ok = ok && solve_with_rank_one_updates(solver, rank_one, -g, p, &stats);
    if (!ok && !options.project_psd) {
      // The unprojected Hessian was indefinite: fall back to the projected one.
      objective.evaluate(x, &g_world, &H, true);
      g = g_world;
      objective.reduce(g, &H);
      ok = solver.compute(H) && solve_with_rank_one_updates(solver, rank_one, -g, p, &stats);
    }
    result.solve_ms += ms_since(t0);
    result.linear_iterations += stats.iterations;
    if (!ok || p.dot(g) >= 0.0) p = -g;  // not a descent direction: steepest descent
    objective.expand(p);
    ++result.iterations;

    result.scaled_step = p.lpNorm<Eigen::Infinity>() / options.step_scale;
    // Converged once the step is below tolerance, but the step is still taken: its size says
    // the iterate is close, not that the step is negligible (a body released from rest moves
    // g h^2 in its first step, which is below tolerance x h whenever g h < tolerance).
    const bool last = result.scaled_step < options.tolerance;

    // Filtered backtracking line search on the world-coordinate energy.
    t0 = std::chrono::steady_clock::now();
    double alpha = std::min(1.0, objective.max_step_fraction(x, p));
    const double slope = g_world.dot(p);
    bool accepted = false;
    for (int b = 0; b < options.max_backtracks && alpha > 0.0; ++b) {
      x_trial = x + alpha * p;
      const double E_trial = objective.evaluate(x_trial, nullptr, nullptr, false);
      if (std::isfinite(E_trial) && E_trial <= E + options.armijo * alpha * std::min(slope, 0.0)) {
        accepted = true;
        break;
      }
      const double roundoff = kEnergyRoundoff * std::abs(E);
      if (std::isfinite(E_trial) && slope < 0.0 && -alpha * slope <= roundoff && E_trial - E <= roundoff &&
          approximate_armijo(objective, x_trial, p, slope, options.armijo, g_trial)) {
        accepted = true;
        break;
      }
      alpha *= 0.5;
    }
    result.line_search_ms += ms_since(t0);
    if (std::getenv("SOFTSIM_DEBUG_NEWTON"))
      std::fprintf(stderr, "newton %d: E=%.10g |g|=%.3g step=%.3g alpha_filter=%.3g alpha=%.3g\n", it, E,
                   result.gradient_norm, result.scaled_step, std::min(1.0, objective.max_step_fraction(x, p)), alpha);
    if (!accepted && last) {  // the last step lost to round-off: converged where we are
      objective.evaluate(x, nullptr, nullptr, false);
      result.converged = true;
      return result;
    }
    if (!accepted) {
      result.failure = "line search found no decrease";
      return result;
    }
    x = x_trial;
    objective.end_iteration(x);
    if (last) {
      result.converged = true;
      return result;
    }
  }
  result.failure = "maximum Newton iterations reached";
  return result;
}

}  // namespace softsim
