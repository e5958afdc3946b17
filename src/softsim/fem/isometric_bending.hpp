#pragma once
// The quadratic (isometric) bending of Bergou et al. 2006, "A Quadratic Bending Model for
// Inextensible Surfaces" (eq. 7-8): for every interior edge with hinge (x0, x1, x2, x3),
// E = k_b 3 / (A0 + A1) |sum_i K_i x_i|^2, K = (c03 + c04, c01 + c02, -c01 - c03, -c02 - c04) the
// cotangent weights of the rest shape. sum_i K_i x_i vanishes on a plane and has length
// |e| theta for a small fold theta about the edge, so E is the hinge energy
// k_b theta^2 3 |e|^2 / (A0 + A1) of hinge_bending.hpp for small folds, while its Hessian is
// constant: what cloth that bends but hardly stretches needs. The model holds for a flat rest
// shape only (then E is invariant under rigid motions); a curved one is refused.
#include "softsim/fem/shell_hinges.hpp"
#include "softsim/model/energy.hpp"

namespace softsim {

class IsometricBending : public Energy {
 public:
  // triangles: global ids (m x 3); rest: all rest positions (n x 3); stiffness k_b in J. Throws
  // std::invalid_argument when a hinge's rest shape is not flat (|sum K_i x_i| > 1e-6 |e|).
  IsometricBending(const MatXi& triangles, const MatX& rest, double stiffness);
  std::string name() const override { return "isometric_bending"; }
  void declare_stencils(HessianLayout& layout) override;
  double evaluate(const EvalContext& ctx, const VecX& x, const AssemblyOutputs& out) const override;
  bool hessian_psd_when_projected() const override { return true; }  // constant and PSD
  int num_hinges() const { return static_cast<int>(hinges_.rows()); }
  Eigen::Matrix<int, 1, 4> hinge(int h) const { return hinges_.row(h); }
  // Hinge h's energy and, when grad is non-null, its gradient (12 doubles): for pbd/.
  double hinge_energy(const VecX& x, int h, double* grad) const;

 private:
  Vec3 curvature_vector(const VecX& x, int h) const;  // sum_i K_i x_i
  Hinges hinges_;
  std::vector<Eigen::Vector4d> weights_;  // K per hinge
  std::vector<double> scale_;             // k_b 3 / (A0 + A1)
  int set_ = -1;
  const HessianLayout* layout_ = nullptr;
};

}  // namespace softsim
