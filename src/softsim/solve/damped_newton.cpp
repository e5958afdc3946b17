#include "softsim/solve/damped_newton.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "softsim/solve/merit_line_search.hpp"
#include "softsim/solve/rank_one_update.hpp"
#include "softsim/solve/solver_timing.hpp"

namespace softsim {

NewtonResult damped_newton(ResidualProblem& problem, VecX& v, LinearSolver& solver, const NewtonOptions& options,
                           std::vector<double>* history) {
  NewtonResult result;
  const Eigen::Index n = v.size();
  VecX r(n), p(n), v_trial(n), r_trial(n);
  SparseMat J;
  std::vector<RankOneHessian> rank_one;
  auto t0 = std::chrono::steady_clock::now();
  if (!problem.residual(v, r) || !r.allFinite()) {
    result.failure = "non-finite residual";
    return result;
  }
  result.assembly_ms += ms_since(t0);
  // Set once the exact Jacobian stalls; the rest of the solve then uses the projected one.
  bool use_projected = false;
  constexpr std::size_t kStallWindow = 5;
  std::vector<double> norms{r.norm()};
  for (int it = 0; it < options.max_iterations; ++it) {
    const double r_norm = r.norm();
    if (history) history->push_back(r_norm);
    result.gradient_norm = r.lpNorm<Eigen::Infinity>();
    result.energy = 0.5 * r_norm * r_norm;
    if (result.gradient_norm <= options.gradient_tolerance) {
      result.converged = true;
      result.scaled_step = 0.0;
      return result;
    }
    // Line 7 of Algorithm 1: p = -J^{-1} r (sparse LU, the Jacobian need not be symmetric).
    // If the exact Jacobian's direction gives no merit decrease (near-singular J: the IPC
    // barrier's distance Hessian is indefinite), the iteration is tried once more with the
    // projected Jacobian (every potential's Hessian PSD-projected per element, forces without a
    // potential exact): a Newton-like step on a better conditioned matrix, as projected Newton
    // takes.
    bool accepted = false, last = false, solved = false, assembled_any = false;
    for (const bool projected : {false, true}) {
      if (!projected && use_projected) continue;
      if (projected && !problem.has_projected_jacobian()) break;
      t0 = std::chrono::steady_clock::now();
      const bool assembled = projected ? problem.projected_jacobian(v, J) : problem.jacobian(v, J);
      result.assembly_ms += ms_since(t0);
      if (!assembled) continue;
      assembled_any = true;
      t0 = std::chrono::steady_clock::now();
      LinearSolveStats stats;
      problem.jacobian_rank_one(v, rank_one);  // dense parts of J, by Sherman-Morrison-Woodbury
      bool ok = solver.compute(J);
      result.factorization_ms += ms_since(t0);
      ok = ok && solve_with_rank_one_updates(solver, rank_one, -r, p, &stats);
      result.solve_ms += ms_since(t0);
      result.linear_iterations += stats.iterations;
      if (!ok || !p.allFinite()) continue;
      problem.expand(p);
      if (!solved) {  // the iteration's first direction (exact, or projected when that failed)
        ++result.iterations;
        result.scaled_step = p.lpNorm<Eigen::Infinity>() / options.step_scale;
        // Below tolerance: converged, but the step is still taken (as in minimize()).
        last = result.scaled_step < options.tolerance;
      }
      solved = true;
      // Lines 9-10: backtracking on the merit function 1/2 ||r||^2 (slope -||r||^2 along an
      // exact Newton direction; along the projected one it is only estimated, hence decrease 0.5).
      t0 = std::chrono::steady_clock::now();
      accepted = merit_line_search(problem, v, p, r_norm, projected ? 0.5 : 1.0, options, v_trial, r_trial);
      result.line_search_ms += ms_since(t0);
      if (std::getenv("SOFTSIM_DEBUG_NEWTON"))
        std::fprintf(stderr, "damped newton %d%s: |r|=%.6g |p|/s=%.3g alpha_filter=%.3g %s\n", it,
                     projected ? " (projected J)" : "", r_norm, p.lpNorm<Eigen::Infinity>() / options.step_scale,
                     std::min(1.0, problem.max_step_fraction(v, p)), accepted ? "accepted" : "no decrease");
      if (accepted || last || use_projected) break;
    }
    if (!accepted && last) {  // the last step lost to round-off: converged where we are
      problem.residual(v, r);
      result.converged = true;
      return result;
    }
    if (!accepted) {
      result.failure = solved          ? "line search found no decrease"
                       : assembled_any ? "singular Jacobian"
                                       : "Jacobian evaluation failed";
      return result;
    }
    // Stalled: the last kStallWindow iterations took less than 2% off ||r|| in all. Near a
    // (nearly) singular J, exact Newton can cycle for 100 iterations between full steps of ~1 m/s
    // that change ||r|| by 1e-5 relative each (the ball in a box, TR, contact + friction); the
    // projected Jacobian converges there, linearly where the projection is active. Far from the
    // solution a damped phase may also reduce ||r|| slowly, but by more than this (4-5% per
    // iteration in the residual-form convergence test).
    norms.push_back(r_trial.norm());
    if (norms.size() > kStallWindow && norms.back() > 0.98 * norms[norms.size() - 1 - kStallWindow] &&
        problem.has_projected_jacobian())
      use_projected = true;
    v = v_trial;
    r = r_trial;
    if (last) {
      result.converged = true;
      return result;
    }
  }
  result.failure = "maximum Newton iterations reached";
  return result;
}

}  // namespace softsim
