#include "softsim/integrate/backward_euler.hpp"

namespace softsim {

BackwardEulerStepper::BackwardEulerStepper(Model& model, const StepperOptions& options) : stage_(model, options) {}

StepResult BackwardEulerStepper::step(State& state, double h) {
  // One implicit stage with Q = x^n, V = v^n, k = h: predictor x^n + h v^n, weight h^2, damping
  // reference x^n with weight h, velocity scale h, start guess x^n with the prescribed DOFs at
  // their end-of-step positions; v^{n+1} = (x^{n+1} - x^n) / h. The stage solve re-solves while
  // penalty-driven motions miss their targets (the book ch. 11).
  StepResult result;
  const double t0 = state.t;
  stage_.begin_step(state.x, t0, h);
  VecX x, v;
  stage_.dirk_stage(state.x, state.v, h, t0 + h, state.x, x, v, result);
  state.x = std::move(x);
  state.v = std::move(v);
  state.t = t0 + h;
  return result;
}

}  // namespace softsim
