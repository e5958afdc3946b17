#include "softsim/integrate/static_solve.hpp"

#include "softsim/core/bounding_box.hpp"

namespace softsim {

StaticStepper::StaticStepper(const Model& model, const StepperOptions& options)
    : model_(model), data_(model), options_(options), objective_(model, data_),
      subspace_objective_(make_subspace_objective(objective_, model)),
      solver_(make_linear_solver(options.linear_solver, num_unknowns(model.subspace, model.num_dofs()))) {}

StepResult StaticStepper::step(State& state, double h) {
  // A static solve has no time step: h = 0 (lagged friction and moving penalty targets rest); it
  // starts at the state's time, which loads switched on and off read (fem/timed_load.hpp).
  const Stage stage = Stage::step(state.t, 0.0);
  model_.begin_step(stage, data_, state.x);
  objective_.set_step(stage, state.x, 0.0, 1.0, state.x, 0.0);
  VecX x = state.x;
  model_.boundary.apply_positions(x, model_.rest_positions, state.t + h);
  // Without inertia the Newton step is a displacement: converge on it relative to the model's
  // size (tolerance * 1e-3 of the bounding-box diagonal per unit "velocity" scale).
  NewtonOptions newton = options_.newton;
  const auto X = as_rows(model_.rest_positions, model_.dim());
  const double diagonal = bounding_box_diagonal(X);
  newton.step_scale = 1.0;
  newton.tolerance = options_.newton.tolerance * 1e-6 * diagonal;
  StepResult result;
  result.accumulate(projected_newton_on_positions(objective_, subspace_objective_.get(), x, *solver_, newton));
  state.v.setZero();
  state.x = std::move(x);
  state.t += h;
  return result;
}

}  // namespace softsim
