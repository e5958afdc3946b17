#include "softsim/integrate/exponential/second_order_system.hpp"

#include <stdexcept>

namespace softsim {

SecondOrderSystem::SecondOrderSystem(const Model& model, bool project_psd) : model_(model), project_psd_(project_psd) {
  const int n = model.num_dofs();
  fixed_ = model.boundary.fixed_dofs();
  if (fixed_.empty()) fixed_.assign(n, 0);
  has_damping_ = model.rayleigh_alpha != 0.0 || model.rayleigh_beta != 0.0;
  const SparseMat& M = model.mass_matrix();
  bool diagonal = true;
  for (int c = 0; c < M.outerSize() && diagonal; ++c)
    for (SparseMat::InnerIterator it(M, c); it; ++it)
      if (it.row() != c && it.value() != 0.0) {
        diagonal = false;
        break;
      }
  if (diagonal) {
    inverse_diagonal_mass_ = M.diagonal().cwiseInverse();
    mask(inverse_diagonal_mass_);
  } else {
    SparseMat reduced = M;
    model.boundary.reduce_hessian(reduced);
    mass_ldlt_ = std::make_unique<Eigen::SimplicialLDLT<SparseMat>>(reduced);
    if (mass_ldlt_->info() != Eigen::Success) throw std::runtime_error("the mass matrix is not positive definite");
  }
}

void SecondOrderSystem::mask(VecX& x) const {
  for (Eigen::Index i = 0; i < x.size(); ++i)
    if (fixed_[i]) x[i] = 0.0;
}

void SecondOrderSystem::mask_rows(MatX& X) const {
  for (Eigen::Index i = 0; i < X.rows(); ++i)
    if (fixed_[i]) X.row(i).setZero();
}

SparseMat SecondOrderSystem::stiffness(const EvalContext& ctx, const VecX& q) const {
  SparseMat K = model_.layout().pattern();
  AssemblyOutputs out;
  out.hessian = &K;
  out.project_psd = project_psd_;
  model_.potential(ctx, q, out);
  return K;
}

void SecondOrderSystem::set_damping(const SparseMat& stiffness_at_start) {
  if (!has_damping_) return;
  damping_ = model_.rayleigh_beta * stiffness_at_start;
  model_.add_mass_to(damping_, model_.rayleigh_alpha);
}

VecX SecondOrderSystem::force(const EvalContext& ctx, const VecX& q, const VecX& v) const {
  VecX g = VecX::Zero(q.size());
  model_.potential(ctx, q, AssemblyOutputs{&g, nullptr, 1.0, false});
  VecX f = -g;
  if (has_damping_) f -= damping_ * v;
  mask(f);
  return f;
}

VecX SecondOrderSystem::solve_mass(const VecX& f) const {
  if (mass_ldlt_) {
    VecX a = mass_ldlt_->solve(masked(f));
    mask(a);
    return a;
  }
  return inverse_diagonal_mass_.cwiseProduct(f);
}

void SecondOrderSystem::jacobian_times(const SparseMat& K, const VecX& a, const VecX& b, VecX& out_q,
                                       VecX& out_v) const {
  out_q = masked(b);
  VecX force = -(K * masked(a));
  if (has_damping_) force -= damping_ * out_q;
  out_v = solve_mass(masked(force));
}

}  // namespace softsim
