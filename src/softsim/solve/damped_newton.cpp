#include "softsim/solve/damped_newton.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

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
    t0 = std::chrono::steady_clock::now();
    if (!problem.jacobian(v, J)) {
      result.failure = "Jacobian evaluation failed";
      return result;
    }
    result.assembly_ms += ms_since(t0);
    t0 = std::chrono::steady_clock::now();
    LinearSolveStats stats;
    problem.jacobian_rank_one(v, rank_one);  // dense parts of J, by Sherman-Morrison-Woodbury
    bool ok = solver.compute(J);
    result.factorization_ms += ms_since(t0);
    ok = ok && solve_with_rank_one_updates(solver, rank_one, -r, p, &stats);
    result.solve_ms += ms_since(t0);
    result.linear_iterations += stats.iterations;
    if (!ok || !p.allFinite()) {
      result.failure = "singular Jacobian";
      return result;
    }
    problem.expand(p);
    ++result.iterations;
    result.scaled_step = p.lpNorm<Eigen::Infinity>() / options.step_scale;
    // Below tolerance: converged, but the step is still taken (as in minimize()).
    const bool last = result.scaled_step < options.tolerance;
    // Lines 9-10: backtracking on the merit function 1/2 ||r||^2 (its slope along p is -||r||^2).
    t0 = std::chrono::steady_clock::now();
    const bool accepted = merit_line_search(problem, v, p, r_norm, 1.0, options, v_trial, r_trial);
    result.line_search_ms += ms_since(t0);
    if (!accepted && last) {  // the last step lost to round-off: converged where we are
      problem.residual(v, r);
      result.converged = true;
      return result;
    }
    if (!accepted) {
      result.failure = "line search found no decrease";
      return result;
    }
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
