#pragma once
// Moving boundary conditions by penalty (the book, ch. 11, "Compressing Square"): selected
// vertices are pulled towards targets xhat = x^n + h v (or x^n once they have travelled `limit`)
// by (kappa_M / 2) m_k |x_k - xhat_k|^2. When a step converges with a target unmet (|x - xhat| /
// h above the tolerance), kappa_M doubles and the step is solved again; kappa_M is kept for the
// next steps (warm start, as the book's code does).
#include "softsim/model/energy.hpp"

namespace softsim {

class PenaltyMotion : public Energy {
 public:
  // vertices: global ids; masses: their nodal masses; velocity: dim vector (m/s); limit: distance
  // (m) after which the targets stop moving (infinity: never); kappa: initial stiffness (1/s^2).
  PenaltyMotion(int dim, std::vector<int> vertices, std::vector<double> masses, const VecX& velocity, double limit,
                double kappa, double tolerance);
  std::string name() const override { return "penalty_motion"; }
  double evaluate(const VecX& x, const AssemblyOutputs& out) const override;
  void begin_step(const VecX& x_start) override;
  void set_time_step(double t, double h) override {
    t_ = t;
    h_ = h;
  }
  // A stage ending at t + c h pulls towards x^n + c h v (c = 1 after begin_step).
  void set_stage_fraction(double c) override { fraction_ = c; }
  bool stiffen_if_unmet(const VecX& x) override;
  double stiffness() const { return kappa_; }
  double max_target_error(const VecX& x) const;

 private:
  int dim_;
  std::vector<int> vertices_;
  std::vector<double> masses_;
  VecX velocity_;
  double limit_, kappa_, tolerance_;
  double t_ = 0.0, h_ = 0.0;  // the current step's start time and size
  std::vector<VecX> targets_, starts_;  // end-of-step targets and start-of-step positions
  double fraction_ = 1.0;
  VecX target(std::size_t i) const {
    return fraction_ == 1.0 ? targets_[i] : VecX(starts_[i] + fraction_ * (targets_[i] - starts_[i]));
  }
  const HessianLayout* layout_ = nullptr;
  void declare_stencils(HessianLayout& layout) override { layout_ = &layout; }
};

}  // namespace softsim
