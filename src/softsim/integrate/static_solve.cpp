#include "softsim/integrate/static_solve.hpp"

#include "softsim/core/bounding_box.hpp"
#include "softsim/solve/projected_newton.hpp"

namespace softsim {

StaticStepper::StaticStepper(const Model& model, const StepperOptions& options)
    : model_(model), data_(model), options_(options), objective_(model, data_),
      subspace_objective_(make_subspace_objective(objective_, model)),
      coordinates_(coordinates_objective(subspace_objective_.get())),
      solver_(make_linear_solver(options.linear_solver, num_unknowns(model.subspace, model.num_dofs()))),
      diagonal_(bounding_box_diagonal(as_rows(model.rest_positions, model.dim()))) {}

StepResult StaticStepper::step(State& state, double h) {
  // Without inertia the Newton step is a displacement: converge on it relative to the model's
  // size (tolerance * 1e-3 of the bounding-box diagonal per unit "velocity" scale).
  NewtonOptions newton = options_.newton;
  newton.step_scale = 1.0;
  newton.tolerance = options_.newton.tolerance * 1e-6 * diagonal_;
  if (coordinates_) return step_in_coordinates(state, h, newton);
  // A static solve has no time step: h = 0 (lagged friction and moving penalty targets rest); it
  // starts at the state's time, which loads switched on and off read (fem/timed_load.hpp).
  const Stage stage = Stage::step(state.t, 0.0);
  model_.begin_step(stage, data_, state.x);
  objective_.set_step(stage, state.x, 0.0, 1.0, state.x, 0.0);
  VecX x = state.x;
  model_.boundary.apply_positions(x, model_.rest_positions, state.t + h);
  StepResult result;
  result.accumulate(projected_newton_on_positions(objective_, subspace_objective_.get(), x, *solver_, newton));
  state.v.setZero();
  state.x = std::move(x);
  state.t += h;
  return result;
}

// Such a model has no step hooks and no Dirichlet DOF that moves (StageSolver::in_coordinates).
StepResult StaticStepper::step_in_coordinates(State& state, double h, const NewtonOptions& newton) {
  static const VecX kNoPositions;  // no inertia, no damping: nothing is taken from positions
  VecX y, y_dot;
  start_coordinates(model_.subspace, state, y, y_dot);
  objective_.set_step(Stage::step(state.t, 0.0), kNoPositions, 0.0, 1.0, kNoPositions, 0.0);
  coordinates_->set_coordinate_step(y, y);  // weighted 0
  StepResult result;
  result.accumulate(projected_newton(*coordinates_, y, *solver_, newton));
  y_dot.setZero();
  finish_coordinates(model_.subspace, state, y, y_dot, state.t + h);
  return result;
}

std::pair<double, double> StaticStepper::energies_in_coordinates(const State& state) {
  if (!coordinates_ || !state.coordinates_current) return Stepper::energies_in_coordinates(state);
  return {0.0, coordinates_->potential(state.y, nullptr)};
}

}  // namespace softsim
