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

StepResult DirkStepper::step(State& state, double h) {
  StepResult result;
  x0_ = state.x;
  v0_ = state.v;
  const VecX &x0 = x0_, &v0 = v0_;
  const double t0 = state.t;
  stage_.begin_step(x0, t0, h);
  VecX &q1 = q1_, &v1 = v1_;
  switch (method_) {
    case Method::BackwardEuler:
      stage_.dirk_stage(x0, v0, h, t0 + h, x0, q1, v1, result);
      break;
    case Method::Trapezoidal: {
      const VecX a0 = stage_.acceleration(x0, v0);
      stage_.dirk_stage(x0 + 0.5 * h * v0, v0 + 0.5 * h * a0, 0.5 * h, t0 + h, x0, q1, v1, result);
      break;
    }
    case Method::TrBdf2: {
      const VecX a0 = stage_.acceleration(x0, v0);
      VecX qh, vh;
      stage_.dirk_stage(x0 + 0.25 * h * v0, v0 + 0.25 * h * a0, 0.25 * h, t0 + 0.5 * h, x0, qh, vh, result);
      stage_.dirk_stage((4.0 * qh - x0) / 3.0, (4.0 * vh - v0) / 3.0, h / 3.0, t0 + h, x0, q1, v1, result);
      break;
    }
    case Method::Sdirk2: {
      const double gamma = 2.0 - std::sqrt(2.0), beta = std::sqrt(2.0) / 4.0, c = 2.0 * beta / gamma;
      const VecX a0 = stage_.acceleration(x0, v0);
      VecX qg, vg;
      stage_.dirk_stage(x0 + 0.5 * gamma * h * v0, v0 + 0.5 * gamma * h * a0, 0.5 * gamma * h, t0 + gamma * h, x0, qg,
                        vg, result);
      stage_.dirk_stage(x0 + c * (qg - x0), v0 + c * (vg - v0), 0.5 * gamma * h, t0 + h, x0, q1, v1, result);
      break;
    }
    case Method::ImplicitMidpoint: {
      VecX &qm = q_mid_, &vm = v_mid_;
      stage_.dirk_stage(x0, v0, 0.5 * h, t0 + 0.5 * h, x0, qm, vm, result);
      q1 = 2.0 * qm - x0;
      v1 = 2.0 * vm - v0;
      break;
    }
  }
  state.x.swap(q1);  // the old state's storage holds the next step's result
  state.v.swap(v1);
  state.t = t0 + h;
  return result;
}

}  // namespace softsim
