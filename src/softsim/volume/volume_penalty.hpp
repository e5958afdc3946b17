#pragma once
// Volume-change penalty (Larionov et al. 2022, §3.4): E(x) = W(V(x)), W one of the laws of VolumeLaw and
// V the volume enclosed by a closed triangle surface (enclosed_volume.hpp): a body's boundary,
// a cavity, or the boundary of a set of tetrahedra.
//
// Derivatives. grad E = W'(V) grad V, exact. The exact Hessian
//   W''(V) grad V grad V^T + W'(V) d2V/dx2
// is dense (the rank-one term couples every surface vertex with every other), so:
//  - unprojected assembled Hessians (damped Newton's J) receive the sparse part W'(V) d2V/dx2,
//    triangle by triangle. Each block W'(V) d2V_f is indefinite (trace 0, zero diagonal
//    blocks), so a PSD-projected assembly (projected Newton) drops it rather than projecting it:
//    the projection would add stiffness of order |W'| x edge length even along motions to which
//    the true d2V gives none (a sealed box pressed along y: the y-y entries of d2V are all
//    zero): with it the static sealed-box test (ideal gas) stalled unconverged after 200 Newton
//    iterations instead of converging in 6;
//  - the rank-one part W''(V) grad V grad V^T (PSD: W'' > 0) is handed to direct solves through
//    rank_one_hessian(), which add it by Sherman-Morrison-Woodbury (one extra back-substitution):
//    the exact J of Larionov et al. 2022, Table 2(c), without a dense matrix.
//    set_dense_hessian(false) leaves it out: the sparse "inexact J" of that table;
//  - the matrix-free product (hessian_operator, used by inexact Newton's BiCGSTAB) applies the
//    complete derivative exactly without storing it: W''(V) grad V (grad V . p) + W'(V) d2V p.
#include <string>

#include "softsim/model/energy.hpp"
#include "softsim/volume/enclosed_volume.hpp"
#include "softsim/volume/volume_law.hpp"

namespace softsim {

class VolumePenalty : public Energy {
 public:
  // faces: global vertex ids (f x 3) of a closed surface oriented so that it encloses a positive
  // volume; law.rest_volume is V0. centre: a fixed point near the surface (conditioning only).
  VolumePenalty(Eigen::MatrixXi faces, const VolumeLaw& law, const Vec3& centre, std::string label);

  std::string name() const override { return "volume_penalty(" + to_string(law_.model) + ", " + label_ + ")"; }
  void declare_stencils(HessianLayout& layout) override;
  double evaluate(const EvalContext& ctx, const VecX& x, const AssemblyOutputs& out) const override;
  bool hessian_psd_when_projected() const override { return true; }  // projected: only the rank-one part, W'' >= 0
  std::unique_ptr<HessianOperator> hessian_operator(const EvalContext& ctx, const VecX& x) const override;
  // out += weight * H(x) p, the complete derivative (rank-one part included).
  void gradient_jvp(const VecX& x, const VecX& p, double weight, VecX& out) const;
  // weight W''(V) grad V grad V^T, unless set_dense_hessian(false).
  void rank_one_hessian(const EvalContext& ctx, const VecX& x, double weight,
                        std::vector<RankOneHessian>& out) const override;
  void set_dense_hessian(bool on) { dense_hessian_ = on; }
  // The logarithmic laws are undefined for V <= 0: the largest fraction of the step along which
  // V stays above 10% of its current value (V(x + a p) is a cubic in a). 1 for the quadratic law.
  double max_step_fraction(const EvalContext& ctx, const VecX& x, const VecX& p) const override;

  double volume(const VecX& x) const { return enclosed_volume(faces_, x, centre_); }
  // grad V (dense, num_dofs long).
  VecX volume_gradient(const VecX& x) const;
  const VolumeLaw& law() const { return law_; }
  const Eigen::MatrixXi& faces() const { return faces_; }

 private:
  Eigen::MatrixXi faces_;
  VolumeLaw law_;
  Vec3 centre_;
  std::string label_;
  bool dense_hessian_ = true;
  int set_ = -1;
  const HessianLayout* layout_ = nullptr;
  // Corners of face f relative to the centre.
  void corners(const VecX& x, int f, Vec3& y0, Vec3& y1, Vec3& y2) const;
};

}  // namespace softsim
