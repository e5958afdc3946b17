#pragma once
// Backtracking on the merit function 1/2 ||r||^2 of a residual problem (seed 003 Alg. 1, lines
// 9-10): starting at the filters' bound, halve alpha until ||r(v + alpha p)||^2 <= (1 - 2 c alpha
// decrease) ||r(v)||^2, where decrease = 1 for an exact Newton direction (slope -||r||^2) and
// 1 - (relative linear residual) for an inexact one.
#include "softsim/solve/newton.hpp"
#include "softsim/solve/residual_problem.hpp"

namespace softsim {

// On success v_trial and r_trial hold the accepted point and its residual.
inline bool merit_line_search(ResidualProblem& problem, const VecX& v, const VecX& p, double r_norm, double decrease,
                              const NewtonOptions& options, VecX& v_trial, VecX& r_trial) {
  double alpha = std::min(1.0, problem.max_step_fraction(v, p));
  for (int b = 0; b < options.max_backtracks && alpha > 0.0; ++b) {
    v_trial = v + alpha * p;
    if (problem.residual(v_trial, r_trial) && r_trial.allFinite() &&
        r_trial.squaredNorm() <= (1.0 - 2.0 * options.armijo * alpha * decrease) * r_norm * r_norm)
      return true;
    alpha *= 0.5;
  }
  return false;
}

}  // namespace softsim
