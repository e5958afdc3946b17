#pragma once
// Membrane energy of triangle shells in 3D (cloth, thin sheets): each triangle's deformation
// gradient F (3x2) maps its rest frame to the deformed triangle; the energy density depends on
// the metric C = F^T F only: E = thickness * A * Psi(C). Models: "stvk" (Psi = mu |E|^2 +
// lambda/2 tr(E)^2, E = (C - I)/2) and "neo_hookean" (mu/2 (tr C - 2) - mu ln J + lambda/2
// ln^2 J, J = sqrt(det C)), with plane-stress lambda = 2 mu lambda3 / (lambda3 + 2 mu).
// Derivatives by second-order forward-mode AD (core/jet.hpp).
#include "softsim/material/material.hpp"
#include "softsim/model/energy.hpp"

namespace softsim {

class ShellMembrane : public Energy {
 public:
  // triangles: global ids (m x 3); rest: all rest positions (n x 3); thickness in m.
  ShellMembrane(const MatXi& triangles, const MatX& rest, const std::string& model, const LameParameters& lame,
                double thickness, const std::string& source);
  static bool supports(const std::string& model) { return model == "stvk" || model == "neo_hookean"; }

  std::string name() const override { return "shell_membrane(" + model_ + ")"; }
  void declare_stencils(HessianLayout& layout) override;
  double evaluate(const EvalContext& ctx, const VecX& x, const AssemblyOutputs& out) const override;
  bool hessian_psd_when_projected() const override { return true; }  // projected per element
  VecX element_energy_density(const EvalContext& ctx, const VecX& x) const override;
  const std::vector<double>& rest_areas() const { return area_; }
  // One triangle's energy and, when grad is non-null, its gradient over its 3 vertices (9
  // doubles): for the position-based solvers (pbd/). +infinity where the model is undefined.
  double element_energy(const VecX& x, int t, double* grad) const;
  const MatXi& triangles() const { return triangles_; }
  // The rest data the position-based strain constraints (pbd/strain_constraints.hpp) build on.
  const Mat2& rest_inverse(int t) const { return rest_inverse_[static_cast<std::size_t>(t)]; }
  double mu() const { return mu_; }
  double plane_stress_lambda() const { return lambda_; }
  double thickness() const { return thickness_; }

 private:
  template <class T>
  T density(const T& c00, const T& c01, const T& c11) const;
  MatXi triangles_;
  std::string model_;
  double mu_, lambda_, thickness_;
  std::vector<Mat2> rest_inverse_;
  std::vector<double> area_;
  int set_ = -1;
  const HessianLayout* layout_ = nullptr;
};

}  // namespace softsim
