#include "softsim/integrate/static_solve.hpp"

#include "softsim/solve/projected_newton.hpp"

namespace softsim {

StaticStepper::StaticStepper(const Model& model, const StepperOptions& options)
    : model_(model), data_(model), options_(options), objective_(model, data_),
      solver_(make_linear_solver(options.linear_solver,
                                 model.subspace.empty() ? model.num_dofs() : model.subspace.num_coordinates())) {
  if (!model.subspace.empty()) subspace_objective_ = std::make_unique<SubspaceObjective>(objective_, model.subspace);
}

StepResult StaticStepper::step(State& state, double h) {
  // A static solve has no time step: h = 0 (lagged friction and moving penalty targets rest).
  const Stage stage = Stage::step(0.0, 0.0);
  model_.begin_step(stage, data_, state.x);
  objective_.set_step(stage, state.x, 0.0, 1.0, state.x, 0.0);
  VecX x = state.x;
  model_.boundary.apply_positions(x, model_.rest_positions, state.t + h);
  // Without inertia the Newton step is a displacement: converge on it relative to the model's
  // size (tolerance * 1e-3 of the bounding-box diagonal per unit "velocity" scale).
  NewtonOptions newton = options_.newton;
  const auto X = as_rows(model_.rest_positions, model_.dim());
  const double diagonal = (X.colwise().maxCoeff() - X.colwise().minCoeff()).norm();
  newton.step_scale = 1.0;
  newton.tolerance = options_.newton.tolerance * 1e-6 * diagonal;
  StepResult result;
  if (subspace_objective_) {
    VecX y = model_.subspace.coordinates(x);
    result.accumulate(projected_newton(*subspace_objective_, y, *solver_, newton));
    x = model_.subspace.positions(y);
  } else {
    result.accumulate(projected_newton(objective_, x, *solver_, newton));
  }
  state.v.setZero();
  state.x = std::move(x);
  state.t += h;
  return result;
}

}  // namespace softsim
