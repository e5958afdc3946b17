#pragma once
// Discrete hinge bending of triangle shells (Grinspun et al. 2003, "Discrete Shells", eq. 2 with
// the 3|e|^2/A weighting): for every interior edge e shared by triangles (x0, x1, x2) and
// (x1, x0, x3), E = k_b (theta - theta_rest)^2 * 3 |e_rest|^2 / (A0_rest + A1_rest), theta the
// signed dihedral angle. Derivatives by second-order forward-mode AD.
#include "softsim/fem/shell_hinges.hpp"
#include "softsim/model/energy.hpp"

namespace softsim {

class HingeBending : public Energy {
 public:
  // triangles: global ids (m x 3); rest: all rest positions (n x 3); stiffness k_b in J.
  HingeBending(const MatXi& triangles, const MatX& rest, double stiffness);
  std::string name() const override { return "hinge_bending"; }
  void declare_stencils(HessianLayout& layout) override;
  double evaluate(const EvalContext& ctx, const VecX& x, const AssemblyOutputs& out) const override;
  bool hessian_psd_when_projected() const override { return true; }  // projected per hinge
  int num_hinges() const { return static_cast<int>(hinges_.rows()); }
  // Signed dihedral angle of hinge h at positions x (0 when flat).
  double dihedral_angle(const VecX& x, int h) const;
  // Hinge h's vertices (x0, x1 the edge, x2, x3 the wings), and its energy with, when grad is
  // non-null, the gradient over them (12 doubles): for the position-based solvers (pbd/).
  Eigen::Matrix<int, 1, 4> hinge(int h) const { return hinges_.row(h); }
  double hinge_energy(const VecX& x, int h, double* grad) const;

 private:
  Hinges hinges_;  // x0, x1 (the edge), x2, x3 (the wings)
  std::vector<double> rest_angle_, weight_;
  double stiffness_;
  int set_ = -1;
  const HessianLayout* layout_ = nullptr;
};

}  // namespace softsim
