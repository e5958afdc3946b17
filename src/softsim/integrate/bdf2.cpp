#include "softsim/integrate/bdf2.hpp"

#include <cmath>

namespace softsim {

StepResult Bdf2Stepper::step(State& state, double h) {
  StepResult result;
  const bool in_coordinates = stage_.in_coordinates();
  const double t0 = state.t;
  VecX x0, v0;
  stage_.start_step(state, h, x0, v0);
  const bool usable = has_history_ && x_prev_.size() == x0.size() && std::abs(h - h_prev_) <= 1e-12 * h &&
                      std::abs(t0 - t_prev_end_) <= 1e-9 * std::max(1.0, std::abs(t0)) + 1e-3 * h;
  const VecX Q = usable ? VecX((4.0 * x0 - x_prev_) / 3.0) : x0;
  const VecX V = usable ? VecX((4.0 * v0 - v_prev_) / 3.0) : v0;
  const double k = usable ? 2.0 * h / 3.0 : h;  // otherwise a backward Euler start
  VecX q1, v1;
  if (in_coordinates)
    stage_.dirk_stage_in_coordinates(Q, V, k, t0 + h, x0, q1, v1, result);
  else
    stage_.dirk_stage(Q, V, k, t0 + h, x0, q1, v1, result);
  x_prev_ = std::move(x0);
  v_prev_ = std::move(v0);
  h_prev_ = h;
  t_prev_end_ = t0 + h;
  has_history_ = true;
  stage_.finish_step(state, q1, v1, t0 + h);
  return result;
}

void Bdf2Stepper::save(ArchiveWriter& out) const {
  stage_.save(out);
  out.tag("bdf2_history");
  out.flag(has_history_);
  out.vector(x_prev_);
  out.vector(v_prev_);
  out.real(t_prev_end_);
  out.real(h_prev_);
}

void Bdf2Stepper::load(ArchiveReader& in) {
  stage_.load(in);
  in.expect("bdf2_history");
  has_history_ = in.flag();
  x_prev_ = in.vector();
  v_prev_ = in.vector();
  t_prev_end_ = in.real();
  h_prev_ = in.real();
}

}  // namespace softsim
