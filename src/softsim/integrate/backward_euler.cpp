#include "softsim/integrate/backward_euler.hpp"

namespace softsim {

BackwardEulerStepper::BackwardEulerStepper(Model& model, const StepperOptions& options)
    : model_(model),
      options_(options),
      objective_(model),
      solver_(make_linear_solver(options.linear_solver, model.num_dofs())) {}

StepResult BackwardEulerStepper::step(State& state, double h) {
  model_.begin_step(state.x, state.t, h);
  objective_.freeze_damping_stiffness(state.x);
  const VecX x_start = state.x;
  const VecX predictor = state.x + h * state.v;
  objective_.set_step(predictor, 1.0, h * h, x_start, h);
  // Start from the start-of-step positions (always admissible for the filters), with the
  // prescribed DOFs moved to their end-of-step positions.
  VecX x = x_start;
  model_.boundary.apply_positions(x, model_.rest_positions, state.t + h);
  NewtonOptions newton = options_.newton;
  newton.step_scale = h;
  StepResult result;
  result.accumulate(minimize(objective_, x, *solver_, newton));
  // Penalty-driven motions that missed their targets stiffen and the step is solved again
  // (the book ch. 11), from the current iterate.
  for (int retry = 0; retry < 30 && result.converged && model_.stiffen_unmet_penalties(x); ++retry)
    result.accumulate(minimize(objective_, x, *solver_, newton));
  state.v = (x - x_start) / h;
  state.x = std::move(x);
  state.t += h;
  return result;
}

}  // namespace softsim
