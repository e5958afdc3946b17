#pragma once
// The orthogonality potential of affine body dynamics (Lan et al. 2022, eq. 7):
//   E(A) = kappa V ||A A^T - I||_F^2,
// stiff, zero exactly when A is a rotation, so an affine body with it behaves as a rigid one
// while its positions stay linear in its coordinates. A is read from the body's dim + 1 frame
// vertices (A = D_s D_m^-1, as an element's deformation gradient), which is exact for a body in
// the affine subspace; the term is then a one-stencil energy on positions like any other.
// A "rigid" body stiffens kappa (x10, kept for the next steps) whenever a solve that ends a step
// leaves ||A A^T - I||_F above its tolerance, and the solve is repeated, so A is a rotation to
// that tolerance at the end of every step.
#include <string>
#include <vector>

#include "softsim/model/energy.hpp"

namespace softsim {

class OrthogonalityPotential : public Energy {
 public:
  // frame: dim + 1 global vertex ids; frame_rest: their rest positions (rows); volume: the
  // body's (m^dim); stiffness: kappa (Pa); rigid_tolerance: 0 keeps kappa fixed.
  OrthogonalityPotential(int dim, std::vector<int> frame, const MatX& frame_rest, double volume, double stiffness,
                         double rigid_tolerance, std::string body);
  std::string name() const override { return "orthogonality"; }
  void declare_stencils(HessianLayout& layout) override;
  std::unique_ptr<TermData> make_data() const override;
  double evaluate(const EvalContext& ctx, const VecX& x, const AssemblyOutputs& out) const override;
  bool hessian_psd_when_projected() const override { return true; }  // projected per body
  bool after_solve(const StepContext& ctx, const VecX& x) const override;
  // The frame vertices, which after_solve reads too.
  bool vertex_support(std::vector<int>& vertices) const override;
  bool hooks_read_all_positions() const override { return false; }

  // A of the frame at x, and ||A A^T - I||_F.
  MatX affine_matrix(const VecX& x) const;
  double deviation(const VecX& x) const;
  // kappa in use (grown by a rigid body's after_solve).
  double stiffness(const ModelData& data) const;
  const std::string& body() const { return body_; }

 private:
  template <int D>
  double evaluate_dim(double kappa, const VecX& x, const AssemblyOutputs& out) const;
  int dim_;
  std::vector<int> frame_;
  MatX frame_weights_;   // (dim + 1) x dim: A = X^T W for the frame's positions X (rows)
  double volume_, stiffness_, tolerance_;
  std::string body_;
  const HessianLayout* layout_ = nullptr;
  int set_ = -1;
};

}  // namespace softsim
