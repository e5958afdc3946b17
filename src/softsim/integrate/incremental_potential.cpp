#include "softsim/integrate/incremental_potential.hpp"

#include <algorithm>

namespace softsim {

IncrementalPotential::IncrementalPotential(const Model& model, ModelData& data) : model_(model), data_(data) {}

void IncrementalPotential::set_step(Stage stage, const VecX& predictor, double inertia_weight, double potential_weight,
                                    const VecX& damping_reference, double damping_weight) {
  predictor_ = predictor;
  inertia_weight_ = inertia_weight;
  potential_weight_ = potential_weight;
  damping_reference_ = damping_reference;
  const bool damped = model_.rayleigh_alpha != 0.0 || model_.rayleigh_beta != 0.0;
  damping_weight_ = damped ? damping_weight : 0.0;
  velocity_scale_ = potential_weight != 0.0 ? damping_weight / potential_weight : 0.0;
  // The velocity map's reference is copied into the storage the last stage's had (one
  // allocation per stage otherwise).
  VecX reference = std::move(stage_.velocity_reference);
  stage_ = std::move(stage);
  stage_.velocity_reference = std::move(reference);
  stage_.velocity_scale = 0.0;
  if (velocity_scale_ > 0.0) {
    stage_.velocity_reference = damping_reference_;
    stage_.velocity_scale = velocity_scale_;
  } else {
    stage_.velocity_reference.resize(0);
  }
  ++configuration_count_;
}

double IncrementalPotential::evaluate(const VecX& x, VecX* gradient, SparseMat* hessian, bool project_psd) {
  std::vector<Triplet>& dynamic = dynamic_hessian_;
  const AssemblyOutputs out =
      zeroed_outputs(gradient, hessian, dynamic, x.size(), hessian_pattern(), potential_weight_, project_psd);
  const EvalContext ctx = context();
  double E = model_.potential(ctx, x, out);
  if (inertia_weight_ != 0.0) {
    VecX& dx = difference_;
    VecX& Mdx = product_;
    dx = x - predictor_;
    Mdx.noalias() = model_.mass_matrix() * dx;
    E += 0.5 * inertia_weight_ * dx.dot(Mdx);
    if (gradient) *gradient += inertia_weight_ * Mdx;
    if (hessian) model_.add_mass_to(*hessian, inertia_weight_);
  }
  if (damping_weight_ != 0.0) {
    VecX& dx = difference_;
    VecX& Ddx = product_;
    dx = x - damping_reference_;
    Ddx.noalias() = *damping_ * dx;
    E += 0.5 * damping_weight_ * dx.dot(Ddx);
    if (gradient) *gradient += damping_weight_ * Ddx;
    if (hessian) {
      double* dst = hessian->valuePtr();
      const double* src = damping_->valuePtr();
      for (Eigen::Index i = 0; i < damping_->nonZeros(); ++i) dst[i] += damping_weight_ * src[i];
    }
  }
  if (model_.has_velocity_forces() && (gradient || hessian)) {
    // grad += w (-f), "Hessian" += w (-(df/dx + c df/dv)): the stage residual of Larionov et
    // al. 2022, eq. 23.
    model_.add_velocity_forces(ctx, x, stage_velocity(x), velocity_scale_, -potential_weight_, gradient,
                               hessian ? &dynamic : nullptr);
  }
  // Contact pairs change between iterations: their entries widen the fixed pattern.
  if (hessian) widened_.add(*hessian, dynamic);
  return E;
}

double IncrementalPotential::max_step_fraction(const VecX& x, const VecX& p) {
  return model_.max_step_fraction(context(), x, p);
}

std::function<void(const VecX& p, VecX& out)> IncrementalPotential::hessian_operator(const VecX& x) {
  const EvalContext ctx = context();
  std::shared_ptr<const HessianOperator> potential = model_.potential_hessian(ctx, x);
  const VecX v = model_.has_velocity_forces() ? stage_velocity(x) : VecX();
  return [this, potential, x, v](const VecX& p, VecX& out) {
    out = VecX::Zero(x.size());
    potential->add_product(p, potential_weight_, out);
    if (model_.has_velocity_forces())
      model_.velocity_forces_jacobian_times(context(), x, v, velocity_scale_, p, -potential_weight_, out);
    if (inertia_weight_ != 0.0) out += inertia_weight_ * model_.mass_times(p);
    if (damping_weight_ != 0.0) out += damping_weight_ * (*damping_ * p);
  };
}

void IncrementalPotential::rank_one_hessian(const VecX& x, std::vector<RankOneHessian>& out) {
  out.clear();
  model_.rank_one_hessian(context(), x, potential_weight_, out);
  const std::vector<int>& held = refresh_held_dofs();
  for (RankOneHessian& term : out) {
    model_.boundary.reduce_gradient(term.u);  // Q^T u, fixed entries 0
    for (int d : held) term.u[d] = 0.0;
  }
}

void IncrementalPotential::reduce(VecX& gradient, SparseMat* hessian) const {
  model_.boundary.reduce_gradient(gradient);
  if (hessian) model_.boundary.reduce_hessian(*hessian);
  const std::vector<int>& held = refresh_held_dofs();
  if (held.empty()) return;
  // Held DOFs are eliminated as Dirichlet ones are: zero gradient, identity rows and columns.
  for (int d : held) gradient[d] = 0.0;
  if (!hessian) return;
  // Through the held columns only: the pattern is symmetric (every stencil's block is), so row d's
  // entry in column r is found from column d's entry in row r, by bisection. Sweeping every
  // entry for a handful of held DOFs was 4.6% of the inversion-free square's step (perf).
  SparseMat& H = *hessian;
  if (!H.isCompressed()) H.makeCompressed();
  const int* outer = H.outerIndexPtr();
  const int* rows = H.innerIndexPtr();
  double* values = H.valuePtr();
  for (int d : held)
    for (int k = outer[d]; k < outer[d + 1]; ++k) {
      const int r = rows[k];
      values[k] = r == d ? 1.0 : 0.0;
      if (r == d) continue;
      const int* found = std::lower_bound(rows + outer[r], rows + outer[r + 1], d);
      if (found != rows + outer[r + 1] && *found == d) values[found - rows] = 0.0;
    }
}

bool IncrementalPotential::reduce_changes_hessian() const {
  return !model_.boundary.empty() || !refresh_held_dofs().empty();
}

double IncrementalPotential::hessian_lower_bound() const {
  // H = inertia_weight M + w (the terms' projected Hessians, PSD) + w_d (alpha M + beta K(x^n)
  // with K projected, PSD for alpha, beta >= 0); eliminating DOFs takes a principal submatrix
  // (slip frames rotate it), whose eigenvalues lie within the whole matrix's.
  if (!(inertia_weight_ > 0.0) || potential_weight_ < 0.0 || !model_.hessians_psd_when_projected()) return 0.0;
  if (damping_weight_ != 0.0 && (damping_weight_ < 0.0 || model_.rayleigh_alpha < 0.0 || model_.rayleigh_beta < 0.0))
    return 0.0;
  return inertia_weight_ * model_.mass_lower_bound();
}

void IncrementalPotential::expand(VecX& step) const {
  model_.boundary.expand_step(step);
  for (int d : refresh_held_dofs()) step[d] = 0.0;
}

}  // namespace softsim
