#include "softsim/integrate/generalized_alpha.hpp"

#include <cmath>

namespace softsim {

AlphaParameters AlphaParameters::chung_hulbert(double rho) {
  AlphaParameters p;
  p.alpha_m = (2.0 * rho - 1.0) / (rho + 1.0);
  p.alpha_f = rho / (rho + 1.0);
  p.gamma = 0.5 - p.alpha_m + p.alpha_f;
  p.beta = 0.25 * (1.0 - p.alpha_m + p.alpha_f) * (1.0 - p.alpha_m + p.alpha_f);
  return p;
}

StepResult GeneralizedAlphaStepper::step(State& state, double h) {
  StepResult result;
  const VecX x0 = state.x, v0 = state.v;
  const double t0 = state.t;
  stage_.begin_step(x0, t0, h);
  const double am = params_.alpha_m, af = params_.alpha_f, beta = params_.beta, gamma = params_.gamma;
  const bool usable = has_acceleration_ && a_.size() == x0.size() &&
                      std::abs(t0 - t_prev_end_) <= 1e-9 * std::max(1.0, std::abs(t0)) + 1e-3 * h;
  const VecX a0 = usable ? a_ : stage_.acceleration(x0, v0);
  const VecX Qp = x0 + h * v0 + h * h * (0.5 - beta) * a0;
  const VecX Vs = v0 + h * (1.0 - gamma) * a0;
  const double c = beta * h * h * (1.0 - af) / (1.0 - am);
  const VecX Y0 = af * x0 + (1.0 - af) * Qp;
  const VecX pred = Y0 - c * am * a0;
  const VecX ref = Y0 - (beta * h / gamma) * ((1.0 - af) * Vs + af * v0);
  VecX y = x0;
  stage_.solve(y, pred, c, ref, c * gamma / (beta * h), t0 + (1.0 - af) * h, beta * h * (1.0 - af) / gamma, result);
  VecX q1 = (y - af * x0) / (1.0 - af);
  const Model& model = stage_.model();
  model.boundary.apply_positions(q1, model.rest_positions, t0 + h);
  VecX a1 = (q1 - Qp) / (beta * h * h);
  state.v = Vs + h * gamma * a1;
  state.x = std::move(q1);
  state.t = t0 + h;
  a_ = std::move(a1);
  has_acceleration_ = true;
  t_prev_end_ = state.t;
  return result;
}

void GeneralizedAlphaStepper::save(ArchiveWriter& out) const {
  stage_.save(out);
  out.tag("carried_acceleration");
  out.flag(has_acceleration_);
  out.vector(a_);
  out.real(t_prev_end_);
}

void GeneralizedAlphaStepper::load(ArchiveReader& in) {
  stage_.load(in);
  in.expect("carried_acceleration");
  has_acceleration_ = in.flag();
  a_ = in.vector();
  t_prev_end_ = in.real();
}

}  // namespace softsim
