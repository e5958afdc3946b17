#include "softsim/integrate/subdividing_stepper.hpp"

namespace softsim {

namespace {

// Adds the costs of attempt b to a (which keeps its own convergence flag and failure).
void add_costs(StepResult& a, const StepResult& b) {
  a.newton_iterations += b.newton_iterations;
  a.linear_iterations += b.linear_iterations;
  a.assembly_ms += b.assembly_ms;
  a.solve_ms += b.solve_ms;
  a.line_search_ms += b.line_search_ms;
  a.factorization_ms += b.factorization_ms;
}

}  // namespace

SubdividingStepper::SubdividingStepper(std::unique_ptr<Stepper> inner, int max_halvings)
    : inner_(std::move(inner)), max_halvings_(max_halvings) {}

StepResult SubdividingStepper::step(State& state, double h) {
  const State start = state;
  StepResult first = inner_->step(state, h);
  if (first.converged || max_halvings_ <= 0) return first;
  const State after_first = state;
  state = start;
  StepResult result = halves(state, h, 1);
  add_costs(result, first);
  if (!result.converged) {
    // Every cutback failed too: report the full step's own attempt, as without cutback, so the
    // run's clock still advances by h (on_failure "continue").
    state = after_first;
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
    const State start = state;
    StepResult r = inner_->step(state, 0.5 * h);
    if (!r.converged && depth < max_halvings_) {
      const StepResult failed = r;
      state = start;
      r = halves(state, 0.5 * h, depth + 1);
      add_costs(r, failed);
    }
    add_costs(total, r);
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
