#include "softsim/integrate/explicit_euler.hpp"

#include <limits>

namespace softsim {

ExplicitEulerStepper::ExplicitEulerStepper(const Model& model, bool symplectic)
    : model_(model), data_(model), symplectic_(symplectic) {
  // Row sums of M (lumping a consistent mass matrix if one was chosen).
  inverse_lumped_mass_ = model.mass_times(VecX::Ones(model.num_dofs())).cwiseInverse();
}

StepResult ExplicitEulerStepper::step(State& state, double h) {
  const Stage stage = Stage::step(state.t, h);
  model_.begin_step(stage, data_, state.x);
  const EvalContext ctx{stage, data_};
  const double damping_alpha = model_.rayleigh_alpha;
  VecX gradient = VecX::Zero(state.x.size());
  AssemblyOutputs out{&gradient, nullptr, 1.0, false};
  model_.potential(ctx, state.x, out);
  VecX velocity_force = VecX::Zero(state.x.size());  // forces without a potential, at (x^n, v^n)
  model_.add_velocity_forces(ctx, state.x, state.v, 0.0, 1.0, &velocity_force, nullptr);
  gradient -= velocity_force;
  // Force = -dP/dx + f(x, v) - alpha M v (beta K v needs the Hessian; explicit steppers use alpha only).
  VecX accel = -inverse_lumped_mass_.cwiseProduct(gradient) - damping_alpha * state.v;
  // Constrained directions do not accelerate or move: fixed DOFs, and the eliminated local
  // coordinates of slip vertices (reduce_gradient rotates into the slip frames and zeroes them,
  // expand_step rotates back).
  model_.boundary.reduce_gradient(accel);
  model_.boundary.expand_step(accel);
  if (model_.boundary.has_slip()) {
    model_.boundary.reduce_gradient(state.v);
    model_.boundary.expand_step(state.v);
  }
  const VecX x_start = state.x;
  if (symplectic_) {
    state.v += h * accel;
    state.x += h * state.v;
  } else {
    state.x += h * state.v;
    state.v += h * accel;
  }
  // The step filters (CCD, inversion) cap the position update, so that contact is never
  // crossed even by an explicit method.
  const VecX p = state.x - x_start;
  const double alpha = model_.max_step_fraction(ctx, x_start, p);
  if (alpha < 1.0) state.x = x_start + alpha * p;
  model_.boundary.apply_positions(state.x, model_.rest_positions, state.t + h);
  model_.boundary.apply_velocities(state.v, model_.rest_positions, state.t + h);
  state.t += h;
  StepResult result;
  result.residual = std::numeric_limits<double>::quiet_NaN();
  return result;
}

}  // namespace softsim
