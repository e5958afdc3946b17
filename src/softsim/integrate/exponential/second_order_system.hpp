#pragma once
// The equations of motion as the first-order system the exponential integrators step
// (Ascher et al. 2022, eq. 4 and sec. 3.5): u = (q, v),
//   F(u) = (v, M^-1 f(q, v)),  f = -grad P(q) - D v,
//   J(u) = dF/du = [[0, I], [-M^-1 K(q), -M^-1 D]],
// over the free DOFs: fixed DOFs neither move nor accelerate (their entries are masked to zero;
// the stepper writes their prescribed positions after the step). K is the Hessian of the
// potential with each element's block projected to positive semi-definite by default, as
// softsim's projected Newton uses it (solver.project_psd): the exact tangent stiffness wherever no
// element Hessian is indefinite (small and moderate strains), and it keeps I - hJ solvable by
// Cholesky and K x = lambda M x well posed.
// D = alpha M + beta K(q0) is frozen at the step start, as in the other integrators.
#include <Eigen/SparseCholesky>
#include <memory>

#include "softsim/model/model.hpp"

namespace softsim {

class SecondOrderSystem {
 public:
  // project_psd: per-element PSD projection of K (solver.project_psd; see above).
  explicit SecondOrderSystem(const Model& model, bool project_psd = true);

  const Model& model() const { return model_; }
  int size() const { return model_.num_dofs(); }
  // Zeroes the fixed DOFs of x.
  void mask(VecX& x) const;
  void mask_rows(MatX& X) const;  // zeroes the fixed DOFs' rows
  VecX masked(VecX x) const {
    mask(x);
    return x;
  }

  // The Hessian of the potential at q (the model's layout), per-element PSD-projected unless
  // constructed with project_psd = false.
  SparseMat stiffness(const EvalContext& ctx, const VecX& q) const;
  // Freezes D = alpha M + beta K for the step (K the stiffness at the step start).
  void set_damping(const SparseMat& stiffness_at_start);
  const SparseMat& damping() const { return damping_; }
  bool has_damping() const { return has_damping_; }

  // f(q, v) = -grad P(q) - D v, masked.
  VecX force(const EvalContext& ctx, const VecX& q, const VecX& v) const;
  // M^-1 f over the free DOFs (the reduced mass matrix; zero at fixed DOFs).
  VecX solve_mass(const VecX& f) const;
  // J (a, b) for the stiffness K: (b, M^-1 (-K a - D b)), masked.
  void jacobian_times(const SparseMat& K, const VecX& a, const VecX& b, VecX& out_q, VecX& out_v) const;

 private:
  const Model& model_;
  bool project_psd_;
  std::vector<char> fixed_;
  SparseMat damping_;
  bool has_damping_ = false;
  VecX inverse_diagonal_mass_;  // when M is diagonal (lumped)
  std::unique_ptr<Eigen::SimplicialLDLT<SparseMat>> mass_ldlt_;  // otherwise: the reduced M
};

}  // namespace softsim
