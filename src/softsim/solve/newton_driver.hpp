#pragma once
// The iteration every Newton variant of softsim runs (projected Newton on a potential; damped
// and inexact Newton on a residual): evaluate at the iterate, stop when it is stationary, take
// the variant's direction, count the iteration and measure its step, search along it within the
// step filters, accept, let the model's adaptive terms update (end_iteration; the solver
// evaluates again where they changed), and stop after taking a step below the tolerance (its
// size says the iterate is close, not that the step is negligible: a body released from rest
// moves g h^2 in its first step, below tolerance x h whenever g h < tolerance). A variant says
// only what differs: its evaluation and merit, its directions, its line search.
#include <string>
#include <vector>

#include "softsim/core/types.hpp"
#include "softsim/solve/newton_options.hpp"
#include "softsim/solve/newton_workspace.hpp"

namespace softsim {

class NewtonVariant {
 public:
  enum class Direction { found, failed, none_left };

  virtual ~NewtonVariant() = default;
  virtual const char* name() const = 0;
  // Evaluates at x what the stationarity test and the directions need; false when not finite.
  virtual bool evaluate(const VecX& x, NewtonResult& result) = 0;
  // At the last evaluation: the stationarity measure (||g||_inf, ||r||_inf), the norm recorded in
  // the history (||g||_2, ||r||_2) and the merit reported as NewtonResult::energy.
  virtual double stationarity() const = 0;
  virtual double history_norm() const = 0;
  virtual double merit() const = 0;
  // Direction `attempt` at x (0: the variant's choice; further attempts: fallbacks the driver
  // tries when the line search along the previous one found no decrease), expanded to world
  // coordinates. none_left ends the attempts.
  virtual Direction direction(const VecX& x, int attempt, VecX& p, NewtonResult& result) = 0;
  // Searches from x along p (direction `attempt`) within the step filters; on success x_trial
  // is the accepted point. `last`: the solve ends with this step, so the accepted point will not
  // be evaluated again (a variant that evaluates its trials fully only to reuse them skips that).
  virtual bool line_search(const VecX& x, const VecX& p, int attempt, bool last, VecX& x_trial,
                           NewtonResult& result) = 0;
  // x_trial became the iterate; the variant may keep what its line search evaluated there.
  virtual void accept(const VecX& x_trial) = 0;
  // The model's adaptive terms after an accepted iterate; true when they changed the problem
  // (the next evaluation must not reuse the line search's values).
  virtual bool end_iteration(const VecX& x) = 0;
  // Objective::before_stop; a variant that says true has re-evaluated its merit at x.
  virtual bool before_stop(const VecX& x) { return false; }
  // An upper bound on step_norm() of the direction `attempt` 0 would give at x, the last evaluated
  // iterate, found without solving for it; false when the variant has none. Where Newton stops
  // without taking its last step, a bound below the tolerance stops it as the step would, with
  // the same decision and one linear solve less.
  virtual bool bounded_step_norm(const VecX& x, int vertex_l1_dim, double& bound) { return false; }
  // ||p|| in the convergence test (NewtonOptions::vertex_l1_dim); an objective over reduced
  // coordinates measures the step in positions.
  virtual double step_norm(const VecX& p, int vertex_l1_dim) const { return newton_step_norm(p, vertex_l1_dim); }
  // Why the evaluation failed (when evaluate returned false).
  virtual std::string evaluation_failure() const = 0;
  // Why no direction could be taken (when no attempt gave one).
  virtual std::string direction_failure() const { return "no descent direction"; }
};

// Runs the variant from x (updated in place). history (optional) receives history_norm() of
// every evaluated iterate; workspace (optional) holds the direction and the trial point.
NewtonResult run_newton(NewtonVariant& variant, VecX& x, const NewtonOptions& options,
                        std::vector<double>* history = nullptr, NewtonWorkspace* workspace = nullptr);

}  // namespace softsim
