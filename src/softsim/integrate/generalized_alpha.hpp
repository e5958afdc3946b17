#pragma once
// Newmark and generalized-alpha (Newmark 1959; Chung & Hulbert 1993; Ascher et al. 2022, §3.4):
//   q1 = q0 + h v0 + h^2 ((1/2 - beta) a0 + beta a1)
//   v1 = v0 + h ((1 - gamma) a0 + gamma a1)
//   M ((1 - am) a1 + am a0) = f((1 - af) q1 + af q0, (1 - af) v1 + af v0)
// Newmark: am = af = 0 with the given beta, gamma (beta = 1/4, gamma = 1/2 is the trapezoidal rule).
// Generalized-alpha from rho_inf: am = (2 rho - 1)/(rho + 1), af = rho/(rho + 1),
// gamma = 1/2 - am + af, beta = (1 - am + af)^2 / 4 (second order, unconditionally stable).
// Incremental-potential form: the unknown is y = (1 - af) q1 + af q0; with Qp = q0 + h v0 +
// h^2 (1/2 - beta) a0, V* = v0 + h (1 - gamma) a0, c = beta h^2 (1 - af)/(1 - am),
// Y0 = af q0 + (1 - af) Qp, the equation is (*) of implicit_stage.hpp with
//   q_pred = Y0 - c am a0, w = c, w_d = c gamma / (beta h),
//   q_ref = Y0 - (beta h / gamma)((1 - af) V* + af v0);
// then q1 = (y - af q0)/(1 - af), a1 = (q1 - Qp)/(beta h^2), v1 = V* + h gamma a1.
// The algorithmic acceleration a is carried between steps (initialised with M^{-1} f(q0, v0)).
// A model evaluated in its subspace's coordinates (StageSolver::in_coordinates) is stepped in
// (y, y_dot) with a carried in coordinates too (the Galerkin acceleration to start): every
// combination above is affine with weights summing to one on positions (dirk.hpp).
#include "softsim/integrate/implicit_stage.hpp"

namespace softsim {

struct AlphaParameters {
  double alpha_m = 0.0, alpha_f = 0.0, beta = 0.25, gamma = 0.5;
  static AlphaParameters newmark(double beta, double gamma) { return {0.0, 0.0, beta, gamma}; }
  static AlphaParameters chung_hulbert(double rho_inf);
};

class GeneralizedAlphaStepper : public Stepper {
 public:
  GeneralizedAlphaStepper(const Model& model, const StepperOptions& options, AlphaParameters params, std::string name)
      : stage_(model, options), params_(params), name_(std::move(name)) {}
  std::string name() const override { return name_; }
  StepResult step(State& state, double h) override;
  const ModelData& data() const override { return stage_.data(); }
  void save(ArchiveWriter& out) const override;
  void load(ArchiveReader& in) override;
  bool steps_in_coordinates() const override { return stage_.in_coordinates(); }
  std::pair<double, double> energies_in_coordinates(const State& state) override {
    return stage_.energies_in_coordinates(state);
  }

 private:
  StageSolver stage_;
  AlphaParameters params_;
  std::string name_;
  bool has_acceleration_ = false;
  VecX a_;  // in positions, or in coordinates when the model steps in them
  double t_prev_end_ = 0.0;
};

}  // namespace softsim
