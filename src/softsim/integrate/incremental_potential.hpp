#pragma once
// The incremental potential of one implicit solve (Ascher et al. 2022, eqs. 14-15; Li & Jiang 2025, eq. 2.1.1):
//   E(x) = 1/2 (x - x_pred)^T M (x - x_pred) + w P(x) + w_d/2 (x - x_ref)^T D (x - x_ref)
// with the predictor x_pred and weight w chosen by the integrator (BE: x_pred = x^n + h v^n,
// w = h^2) and Rayleigh damping D = alpha M + beta K(x^n) frozen at the step start (w_d = h for
// BE, x_ref = x^n). A static solve sets inertia to 0 and w = 1.
// Forces without a potential (Model::forces(), e.g. implicit friction) add w * (-f(x, v(x)))
// to the gradient and their non-symmetric Jacobian to the "Hessian", with the stage velocity
// v(x) = (w_d / w)(x - x_ref) (BE: (x - x^n)/h). They have no energy, so the value E ignores
// them: only the residual form (root finding on the gradient) may be used with them.
// The model is evaluated with the solve's Stage (its velocity map is that v(x)) and the run's
// ModelData, which end_iteration lets the adaptive terms update.
#include <vector>

#include "softsim/core/widened_hessian.hpp"
#include "softsim/model/model.hpp"
#include "softsim/solve/objective.hpp"

namespace softsim {

class IncrementalPotential : public Objective {
 public:
  IncrementalPotential(const Model& model, ModelData& data);

  // Configures the solve: the stage's time (t0, h, fraction) and the weights; the stage's
  // velocity map follows from them. damping_weight = 0 disables damping.
  void set_step(Stage stage, const VecX& predictor, double inertia_weight, double potential_weight,
                const VecX& damping_reference, double damping_weight);
  // The frozen damping matrix alpha M + beta K(x^n) (rayleigh_damping.hpp), or null.
  void set_damping(const SparseMat* damping) {
    damping_ = damping;
    ++configuration_count_;
  }
  const Stage& stage() const { return stage_; }
  // What set_step and set_damping configured (the damping weight is 0 without damping), and a
  // count of those calls, so that an objective built on this one sees when the step changed.
  const VecX& predictor() const { return predictor_; }
  const VecX& damping_reference() const { return damping_reference_; }
  double inertia_weight() const { return inertia_weight_; }
  double potential_weight() const { return potential_weight_; }
  double damping_weight() const { return damping_weight_; }
  long configuration_count() const { return configuration_count_; }
  EvalContext context() const { return {stage_, data_}; }

  double evaluate(const VecX& x, VecX* gradient, SparseMat* hessian, bool project_psd) override;
  const SparseMat& hessian_pattern() const override { return model_.layout().pattern(); }
  double max_step_fraction(const VecX& x, const VecX& p) override;
  void reduce(VecX& gradient, SparseMat* hessian) const override;
  bool reduce_changes_hessian() const override;
  // (inertia M + w Hess P + w_d D) p, the potential part by the terms' Hessian operators.
  std::function<void(const VecX& p, VecX& out)> hessian_operator(const VecX& x) override;
  void rank_one_hessian(const VecX& x, std::vector<RankOneHessian>& out) override;
  void expand(VecX& step) const override;
  // inertia_weight times the smallest lumped mass, where every term's projected Hessian is PSD
  // and the damping matrix is (0 otherwise).
  double hessian_lower_bound() const override;
  bool end_iteration(const VecX& x) override { return model_.end_iteration(stage_, data_, x); }
  bool before_stop(const VecX& x) override { return model_.after_solve(stage_, data_, x); }
  // The same with x formed on the terms' supports only and `whole` forming every position on
  // request (Model::end_iteration, StepContext::whole_positions).
  bool end_iteration(const VecX& x, FunctionRef<const VecX&()> whole) {
    return model_.end_iteration(stage_, data_, x, whole);
  }
  bool before_stop(const VecX& x, FunctionRef<const VecX&()> whole) {
    return model_.after_solve(stage_, data_, x, whole);
  }

 private:
  const Model& model_;
  ModelData& data_;
  Stage stage_;
  VecX predictor_, damping_reference_;
  double inertia_weight_ = 1.0, potential_weight_ = 1.0, damping_weight_ = 0.0;
  double velocity_scale_ = 0.0;  // c in v(x) = c (x - x_ref)
  VecX stage_velocity(const VecX& x) const { return velocity_scale_ * (x - damping_reference_); }
  const SparseMat* damping_ = nullptr;  // alpha M + beta K(x^n), layout pattern
  long configuration_count_ = 0;
  // Kept between evaluations (none allocates when the problem's size is unchanged): x minus the
  // predictor or the damping reference, its product with M or D, and the contact Hessian's
  // entries with their places in the pattern.
  VecX difference_, product_;
  std::vector<Triplet> dynamic_hessian_;
  WidenedHessian widened_;  // the layout's pattern widened by contact entries, kept
  // The DOFs the model's terms hold at the moment (Model::held_dofs), asked for several times an
  // iteration, in kept storage.
  mutable std::vector<int> held_;
  const std::vector<int>& refresh_held_dofs() const {
    model_.held_dofs(data_, held_);
    return held_;
  }
};

}  // namespace softsim
