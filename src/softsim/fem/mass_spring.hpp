#pragma once
// Mass-spring energy (Li & Jiang 2025, eq. 4.3.1): per edge P = (l^2 / 2) k (|d|^2 / l^2 - 1)^2, d = x1 - x2,
// with rest length l. No square root; the l^2 weight keeps k independent of the resolution.
#include "softsim/model/energy.hpp"

namespace softsim {

// The block H of one spring's Hessian [[H, -H], [-H, H]] at d = x1 - x2, l2 the squared rest
// length, k the stiffness; with `project`, H projected to PSD in closed form (its eigenvectors
// are d and the directions orthogonal to it).
template <int D>
MatD<D> spring_hessian_block(const VecD<D>& d, double l2, double k, bool project);

template <int D>
class MassSpring : public Energy {
 public:
  // edges: m x 2 global vertex ids; rest: all vertices' rest positions (n x D); k: stiffness (N/m
  // scale, the units of Li & Jiang 2025).
  MassSpring(const MatXi& edges, const MatX& rest, double stiffness);
  std::string name() const override { return "mass_spring"; }
  void declare_stencils(HessianLayout& layout) override;
  double evaluate(const EvalContext& ctx, const VecX& x, const AssemblyOutputs& out) const override;
  VecX element_energy_density(const EvalContext& ctx, const VecX& x) const override;
  std::unique_ptr<HessianOperator> hessian_operator(const EvalContext& ctx, const VecX& x) const override;
  bool hessian_psd_when_projected() const override { return true; }  // a compressed spring is projected in closed form
  // Forward mode: out += weight * H(x) p, the spring gradient evaluated on dual numbers x + eps p.
  void gradient_jvp(const VecX& x, const VecX& p, double weight, VecX& out) const;
  // One spring's energy and, when grad is non-null, its gradient over (x1, x2) (2 D doubles):
  // for the position-based solvers (pbd/), which project one element at a time.
  double element_energy(const VecX& x, int e, double* grad) const;
  const MatXi& edges() const { return edges_; }

 private:
  MatXi edges_;
  std::vector<double> rest_length_sq_;
  std::vector<double> inverse_rest_length_sq_;
  double stiffness_;
  int set_ = -1;
  const HessianLayout* layout_ = nullptr;
};

}  // namespace softsim
