#include "softsim/integrate/subdividing_stepper.hpp"

namespace softsim {

SubdividingStepper::SubdividingStepper(std::unique_ptr<Stepper> inner, int max_halvings)
    : inner_(std::move(inner)), max_halvings_(max_halvings) {}

StepResult SubdividingStepper::step(State& state, double h) {
  copy_state(state, start_);
  StepResult first = inner_->step(state, h);
  if (first.converged || max_halvings_ <= 0) return first;
  State after_first;
  copy_state(state, after_first);
  copy_state(start_, state);
  StepResult result = halves(state, h, 1);
  result.add_costs(first);
  if (!result.converged) {
    // Every cutback failed too: report the full step's own attempt, as without cutback, so the
    // run's clock still advances by h (on_failure "continue").
    copy_state(after_first, state);
    result.substeps = 1;
    result.residual = first.residual;
    result.failure = first.failure + " (also with the step halved " + std::to_string(max_halvings_) + " times)";
  }
  return result;
}

StepResult SubdividingStepper::halves(State& state, double h, int depth) {
  StepResult total;
  total.substeps = 0;
  const double t_end = state.t + h;
  for (int half = 0; half < 2; ++half) {
    State start;
    copy_state(state, start);
    StepResult r = inner_->step(state, 0.5 * h);
    if (!r.converged && depth < max_halvings_) {
      const StepResult failed = r;
      copy_state(start, state);
      r = halves(state, 0.5 * h, depth + 1);
      r.add_costs(failed);
    }
    total.add_costs(r);
    total.substeps += r.substeps;
    total.residual = r.residual;
    if (!r.converged) {
      total.converged = false;
      total.failure = r.failure;
      return total;
    }
  }
  state.t = t_end;  // exactly, not the sum of the halves
  return total;
}

}  // namespace softsim
