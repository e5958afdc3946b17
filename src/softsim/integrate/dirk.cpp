#include "softsim/integrate/dirk.hpp"

#include <cmath>

namespace softsim {

DirkStepper::DirkStepper(const Model& model, const StepperOptions& options, Method method)
    : stage_(model, options), method_(method) {}

std::string DirkStepper::name() const {
  switch (method_) {
    case Method::BackwardEuler: return "backward_euler";
    case Method::Trapezoidal: return "trapezoidal";
    case Method::TrBdf2: return "tr_bdf2";
    case Method::Sdirk2: return "sdirk2";
    case Method::ImplicitMidpoint: return "implicit_midpoint";
  }
  return "?";
}

namespace {

// The two spaces a DIRK step runs in: positions (x, v) or a subspace's coordinates (y, y_dot).
// Every combination of stages below is affine with weights summing to one on positions, so it
// is the same in coordinates (x = offset + B y is affine).
struct InPositions {
  StageSolver& stage;
  VecX acceleration(const VecX& x, const VecX& v) { return stage.acceleration(x, v); }
  void dirk_stage(const VecX& Q, const VecX& V, double k, double t, const VecX& start, VecX& q, VecX& v,
                  StepResult& result) {
    stage.dirk_stage(Q, V, k, t, start, q, v, result);
  }
};

struct InCoordinates {
  StageSolver& stage;
  VecX acceleration(const VecX& y, const VecX& y_dot) { return stage.acceleration_in_coordinates(y, y_dot); }
  void dirk_stage(const VecX& Q, const VecX& V, double k, double t, const VecX& start, VecX& q, VecX& v,
                  StepResult& result) {
    stage.dirk_stage_in_coordinates(Q, V, k, t, start, q, v, result);
  }
};

}  // namespace

template <class Space>
void DirkStepper::stages(Space space, const VecX& x0, const VecX& v0, double t0, double h, StepResult& result) {
  VecX &q1 = q1_, &v1 = v1_;
  switch (method_) {
    case Method::BackwardEuler:
      space.dirk_stage(x0, v0, h, t0 + h, x0, q1, v1, result);
      break;
    case Method::Trapezoidal: {
      const VecX a0 = space.acceleration(x0, v0);
      space.dirk_stage(x0 + 0.5 * h * v0, v0 + 0.5 * h * a0, 0.5 * h, t0 + h, x0, q1, v1, result);
      break;
    }
    case Method::TrBdf2: {
      const VecX a0 = space.acceleration(x0, v0);
      VecX qh, vh;
      space.dirk_stage(x0 + 0.25 * h * v0, v0 + 0.25 * h * a0, 0.25 * h, t0 + 0.5 * h, x0, qh, vh, result);
      space.dirk_stage((4.0 * qh - x0) / 3.0, (4.0 * vh - v0) / 3.0, h / 3.0, t0 + h, x0, q1, v1, result);
      break;
    }
    case Method::Sdirk2: {
      const double gamma = 2.0 - std::sqrt(2.0), beta = std::sqrt(2.0) / 4.0, c = 2.0 * beta / gamma;
      const VecX a0 = space.acceleration(x0, v0);
      VecX qg, vg;
      space.dirk_stage(x0 + 0.5 * gamma * h * v0, v0 + 0.5 * gamma * h * a0, 0.5 * gamma * h, t0 + gamma * h, x0, qg,
                       vg, result);
      space.dirk_stage(x0 + c * (qg - x0), v0 + c * (vg - v0), 0.5 * gamma * h, t0 + h, x0, q1, v1, result);
      break;
    }
    case Method::ImplicitMidpoint: {
      VecX &qm = q_mid_, &vm = v_mid_;
      space.dirk_stage(x0, v0, 0.5 * h, t0 + 0.5 * h, x0, qm, vm, result);
      q1 = 2.0 * qm - x0;
      v1 = 2.0 * vm - v0;
      break;
    }
  }
}

StepResult DirkStepper::step(State& state, double h) {
  StepResult result;
  const double t0 = state.t;
  stage_.start_step(state, h, x0_, v0_);
  if (stage_.in_coordinates())
    stages(InCoordinates{stage_}, x0_, v0_, t0, h, result);
  else
    stages(InPositions{stage_}, x0_, v0_, t0, h, result);
  stage_.finish_step(state, q1_, v1_, t0 + h);  // swapped: the old state's storage holds the next result
  return result;
}

}  // namespace softsim
