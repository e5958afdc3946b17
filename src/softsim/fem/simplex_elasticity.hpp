#pragma once
// Hyperelastic energy of linear simplex elements: triangles in 2D (plane strain) and tetrahedra
// in 3D. E = sum_e W_e Psi(F_e), F_e = Ds Dm^-1 (Li & Jiang 2025, §15.1;
// Ascher et al. 2022, §2). Gradient W B^T vec(P), Hessian W B^T dP/dF B with B = d vec(F)/dx.
#include <memory>
#include <vector>

#include "softsim/material/material.hpp"
#include "softsim/model/energy.hpp"

namespace softsim {

template <int D>
class SimplexElasticity : public Energy {
 public:
  static constexpr int K = D + 1;  // vertices per element
  using Elements = Eigen::Matrix<int, Eigen::Dynamic, K>;

  // elements: global vertex ids (m x (D+1)); rest: all vertices' rest positions (n x D).
  // Throws InputError when an element is degenerate or inverted at rest (source names the body).
  SimplexElasticity(const MatXi& elements, const MatX& rest, std::shared_ptr<const Material<D>> material,
                    const std::string& source);

  std::string name() const override { return "elasticity(" + material_->name() + ")"; }
  void declare_stencils(HessianLayout& layout) override;
  // Corotated models: the element rotations frozen at the start of each step (identity before
  // the first); other models keep no data.
  std::unique_ptr<TermData> make_data() const override;
  double evaluate(const EvalContext& ctx, const VecX& x, const AssemblyOutputs& out) const override;
  bool hessian_psd_when_projected() const override { return true; }  // the material's dP/dF is projected per element
  void begin_step(const StepContext& ctx, const VecX& x_start) const override;
  bool hooks_read_all_positions() const override { return false; }  // none of them
  VecX element_energy_density(const EvalContext& ctx, const VecX& x) const override;
  // Forward mode through the element gradient W P(F) G: F is linear in x, so its dual part is
  // F(p); the stress primitive's JVP rule is dP = dP/dF : dF (the material's exact tangent).
  // The primal part, dP/dF at x, is the same for every product at x: the operator computes it
  // once (D^4 doubles per element) and applies it to every p.
  std::unique_ptr<HessianOperator> hessian_operator(const EvalContext& ctx, const VecX& x) const override;
  // Inversion filter (Li & Jiang 2025, §15.3 and §23.3): the largest alpha such that no element's
  // volume falls below 10% of its start-of-step value along x + alpha p.
  double max_step_fraction(const EvalContext& ctx, const VecX& x, const VecX& p) const override;

  const std::vector<double>& rest_volumes() const { return volume_; }
  // Cubature (Li & Jiang 2025, ch. 26; An et al. 2008): element e's energy counts weights[e]
  // times (one weight per element, >= 0; empty: all 1). Elements of weight 0 are skipped by the
  // energy, its derivatives and the inversion filter (a reduced body sees only its cubature
  // elements). The mass, made from rest_volumes() when the body is built, is not affected.
  void set_element_weights(std::vector<double> weights);
  // dE_e/dx over the element's D + 1 vertices (unweighted, rest frame): W_e P(F_e) G_a per vertex.
  Eigen::Matrix<double, K * D, 1> element_gradient(const VecX& x, int e) const;
  // W_e Psi(F_e) and, when non-null, its gradient and Hessian over the element's D + 1 vertices
  // (unweighted, rest frame; with project_psd the material's dP/dF is projected first). Not
  // finite (and grad, hess untouched) where the material is undefined.
  double element_energy(const VecX& x, int e, Eigen::Matrix<double, K * D, 1>* grad,
                        Eigen::Matrix<double, K * D, K * D>* hess, bool project_psd) const;
  // The inversion filter is on by default; the scene's solver.inversion_filter turns it off.
  void set_inversion_filter(bool on) { inversion_filter_ = on; }
  bool inversion_filter() const { return inversion_filter_; }
  const MatXi& elements() const { return elements_; }
  const MatD<D>& rest_inverse(int e) const { return rest_inverse_[static_cast<std::size_t>(e)]; }  // Dm^-1
  const std::shared_ptr<const Material<D>>& material() const { return material_; }
  // The cubature weights (empty: every element counts once).
  const std::vector<double>& element_weights() const { return weights_; }

  // Deformation gradient of element e at positions x.
  MatD<D> deformation_gradient(const VecX& x, int e) const;

 private:
  MatXi elements_;
  std::shared_ptr<const Material<D>> material_;
  std::vector<MatD<D>> rest_inverse_;  // Dm^-1
  std::vector<double> volume_;         // rest measure W_e
  std::vector<double> weights_;        // cubature weights (empty: all 1)
  double measure(int e) const { return weights_.empty() ? volume_[e] : weights_[e] * volume_[e]; }
  Eigen::Matrix<double, K, D> shape_gradients(int e) const;
  // The element's gradient and Hessian from its measure W, stress P and tangent dPdF (each output
  // only when non-null).
  void element_derivatives(int e, double W, const MatD<D>* P, const MatD<D * D>* dPdF,
                           Eigen::Matrix<double, K * D, 1>* grad, Eigen::Matrix<double, K * D, K * D>* hess) const;
  int set_ = -1;
  const HessianLayout* layout_ = nullptr;
  bool inversion_filter_ = true;
  struct FrozenRotations;
  class TangentOperator;
  // The frozen rotations R^n per element (corotated models), or null.
  const std::vector<MatD<D>>* frozen_rotations(const EvalContext& ctx) const;
};

}  // namespace softsim
