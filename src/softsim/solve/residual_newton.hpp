#pragma once
// What damped and inexact Newton share on a residual problem r(v) = 0 (Larionov et al. 2022,
// Algorithms 1 and 2): the residual at the iterate (reused from the line search that found it,
// until the model's adaptive terms change the problem), ||r|| as the stationarity measure and
// 1/2 ||r||^2 as the merit, and the backtracking line search on that merit (lines 9-10):
// starting at the step filters' bound, alpha halves until
//   ||r(v + alpha p)||^2 <= (1 - 2 c alpha decrease) ||r(v)||^2,
// with decrease = 1 for an exact Newton direction (slope -||r||^2) and less for inexact or
// approximate ones.
//
// c = kMeritArmijo = 0.1, not projected Newton's 1e-4: friction forces saturate across the
// stick-slip transition (|force| = mu lambda once |v| >> eps_v), so a full Newton step from the
// sliding side overshoots to the other side, and with c = 1e-4 such steps were accepted while
// taking only ~5% off ||r|| each: Newton cycled between the two sides for 100 iterations (a
// heavy box's ground contacts in the ball-in-box scene). Asking for 10% per unit alpha makes the
// line search halve the step into the transition zone instead; unit steps near a root, which
// reduce ||r|| quadratically, are unaffected.

#include "softsim/solve/newton_driver.hpp"
#include "softsim/solve/residual_problem.hpp"
#include "softsim/solve/solver_timing.hpp"

namespace softsim {

inline constexpr double kMeritArmijo = 0.1;

class ResidualNewtonVariant : public NewtonVariant {
 public:
  ResidualNewtonVariant(ResidualProblem& problem, const NewtonOptions& options, Eigen::Index n)
      : problem_(problem), options_(options), r_(n), r_trial_(n) {}

  bool evaluate(const VecX& v, NewtonResult& result) override {
    if (!fresh_) {
      const PhaseTimer timer;
      const bool ok = problem_.residual(v, r_) && r_.allFinite();
      timer.add_to(result.assembly_ms);
      if (!ok) return false;
    }
    r_norm_ = r_.norm();
    return true;
  }
  std::string evaluation_failure() const override { return "non-finite residual"; }
  double stationarity() const override { return r_.lpNorm<Eigen::Infinity>(); }
  double history_norm() const override { return r_norm_; }
  double merit() const override { return 0.5 * r_norm_ * r_norm_; }
  void accept(const VecX&) override {
    r_.swap(r_trial_);
    fresh_ = true;
  }
  bool end_iteration(const VecX& v) override {
    const bool changed = problem_.end_iteration(v);
    if (changed) fresh_ = false;
    return changed;
  }

 protected:
  // The merit line search above; on success v_trial and r_trial_ hold the accepted point.
  bool merit_search(const VecX& v, const VecX& p, double decrease, VecX& v_trial, NewtonResult& result) {
    const PhaseTimer timer;
    bool accepted = false;
    double alpha = std::min(1.0, problem_.max_step_fraction(v, p));
    for (int b = 0; b < options_.max_backtracks && alpha > 0.0; ++b) {
      v_trial = v + alpha * p;
      if (problem_.residual(v_trial, r_trial_) && r_trial_.allFinite() &&
          r_trial_.squaredNorm() <= (1.0 - 2.0 * kMeritArmijo * alpha * decrease) * r_norm_ * r_norm_) {
        accepted = true;
        break;
      }
      alpha *= 0.5;
    }
    timer.add_to(result.line_search_ms);
    return accepted;
  }

  ResidualProblem& problem_;
  const NewtonOptions& options_;
  VecX r_, r_trial_;
  double r_norm_ = 0.0;
  bool fresh_ = false;  // r_ is the residual at the iterate
};

}  // namespace softsim
