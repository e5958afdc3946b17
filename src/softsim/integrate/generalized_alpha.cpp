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
  const bool in_coordinates = stage_.in_coordinates();
  const double t0 = state.t;
  VecX x0, v0;
  stage_.start_step(state, h, x0, v0);
  const double am = params_.alpha_m, af = params_.alpha_f, beta = params_.beta, gamma = params_.gamma;
  const bool usable = has_acceleration_ && a_.size() == x0.size() &&
                      std::abs(t0 - t_prev_end_) <= 1e-9 * std::max(1.0, std::abs(t0)) + 1e-3 * h;
  const VecX a0 =
      usable ? a_ : (in_coordinates ? stage_.acceleration_in_coordinates(x0, v0) : stage_.acceleration(x0, v0));
  const VecX Qp = x0 + h * v0 + h * h * (0.5 - beta) * a0;
  const VecX Vs = v0 + h * (1.0 - gamma) * a0;
  const double c = beta * h * h * (1.0 - af) / (1.0 - am);
  const VecX Y0 = af * x0 + (1.0 - af) * Qp;
  const VecX pred = Y0 - c * am * a0;
  const VecX ref = Y0 - (beta * h / gamma) * ((1.0 - af) * Vs + af * v0);
  const double w_d = c * gamma / (beta * h), t_stage = t0 + (1.0 - af) * h, velocity_scale = beta * h * (1.0 - af) / gamma;
  VecX y = x0;
  if (in_coordinates)
    stage_.solve_in_coordinates(y, pred, c, ref, w_d, t_stage, velocity_scale, result);
  else
    stage_.solve(y, pred, c, ref, w_d, t_stage, velocity_scale, result);
  VecX q1 = (y - af * x0) / (1.0 - af);
  if (!in_coordinates) {  // in coordinates no Dirichlet DOF moves (StageSolver::in_coordinates)
    const Model& model = stage_.model();
    model.boundary.apply_positions(q1, model.rest_positions, t0 + h);
  }
  VecX a1 = (q1 - Qp) / (beta * h * h);
  VecX v1 = Vs + h * gamma * a1;
  a_ = std::move(a1);
  has_acceleration_ = true;
  t_prev_end_ = t0 + h;
  stage_.finish_step(state, q1, v1, t0 + h);
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
