#pragma once
// Backtracking on the merit function 1/2 ||r||^2 of a residual problem (seed 003 Alg. 1, lines
// 9-10): starting at the filters' bound, halve alpha until ||r(v + alpha p)||^2 <= (1 - 2 c alpha
// decrease) ||r(v)||^2, where decrease = 1 for an exact Newton direction (slope -||r||^2) and
// 1 - (relative linear residual) for an inexact one.
//
// c = kMeritArmijo = 0.1, not projected Newton's 1e-4: friction forces saturate across the
// stick-slip transition (|force| = mu lambda once |v| >> eps_v), so a full Newton step from the
// sliding side overshoots to the other side, and with c = 1e-4 such steps were accepted while
// taking only ~5% off ||r|| each: Newton cycled between the two sides for 100 iterations (a
// heavy box's ground contacts in the ball-in-box scene). Asking for 10% per unit alpha makes the
// line search halve the step into the transition zone instead; unit steps near a root, which
// reduce ||r|| quadratically, are unaffected.
#include "softsim/solve/newton.hpp"
#include "softsim/solve/residual_problem.hpp"

namespace softsim {

inline constexpr double kMeritArmijo = 0.1;

// On success v_trial and r_trial hold the accepted point and its residual.
inline bool merit_line_search(ResidualProblem& problem, const VecX& v, const VecX& p, double r_norm, double decrease,
                              const NewtonOptions& options, VecX& v_trial, VecX& r_trial) {
  double alpha = std::min(1.0, problem.max_step_fraction(v, p));
  for (int b = 0; b < options.max_backtracks && alpha > 0.0; ++b) {
    v_trial = v + alpha * p;
    if (problem.residual(v_trial, r_trial) && r_trial.allFinite() &&
        r_trial.squaredNorm() <= (1.0 - 2.0 * kMeritArmijo * alpha * decrease) * r_norm * r_norm)
      return true;
    alpha *= 0.5;
  }
  return false;
}

}  // namespace softsim
