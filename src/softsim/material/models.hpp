#pragma once
// Concrete material models. Construct them through make_material (material_factory.cpp); the
// classes are visible for tests and for code that wants a specific model without a name lookup.
#include "softsim/material/isotropic_material.hpp"

namespace softsim {

// Linear elasticity, Psi = mu ||eps||_F^2 + lambda/2 tr(eps)^2 with eps = (F + F^T)/2 - I.
// dP/dF is constant; it and its PSD projection are precomputed.
template <int D>
class LinearMaterial : public Material<D> {
 public:
  using typename Material<D>::Mat;
  using typename Material<D>::Mat2nd;
  explicit LinearMaterial(const LameParameters& lame);
  std::string name() const override { return "linear"; }
  double evaluate(const Mat& F, Mat* P, Mat2nd* dPdF, bool project_psd) const override;
  bool rotation_invariant() const override { return false; }

 private:
  LameParameters lame_;
  Mat2nd tangent_;
  Mat2nd tangent_psd_;
};

// Corotated linear elasticity: the same energy, evaluated by the FEM element in the frame of the
// polar rotation frozen at the start of the step (Mueller et al. 2002; Li & Jiang 2025, Def. 13.3.1).
template <int D>
class CorotatedLinearMaterial : public LinearMaterial<D> {
 public:
  using LinearMaterial<D>::LinearMaterial;
  std::string name() const override { return "corotated_linear"; }
  bool uses_frozen_rotation() const override { return true; }
};

// As-rigid-as-possible: Psi = mu ||F - R||_F^2 = mu sum_i (sigma_i - 1)^2.
template <int D>
class ArapMaterial : public IsotropicMaterial<D> {
 public:
  explicit ArapMaterial(const LameParameters& lame) : lame_(lame) {}
  std::string name() const override { return "arap"; }

 protected:
  void singular_value_terms(const VecD<D>& s, int order, SingularValueTerms<D>& t) const override;

 private:
  LameParameters lame_;
};

// Fixed corotated (Stomakhin et al. 2012, "Energetically consistent invertible elasticity"): mu ||F - R||_F^2 + lambda/2 (J - 1)^2.
template <int D>
class FixedCorotatedMaterial : public IsotropicMaterial<D> {
 public:
  explicit FixedCorotatedMaterial(const LameParameters& lame) : lame_(lame) {}
  std::string name() const override { return "fixed_corotated"; }

 protected:
  void singular_value_terms(const VecD<D>& s, int order, SingularValueTerms<D>& t) const override;

 private:
  LameParameters lame_;
};

// St. Venant-Kirchhoff: mu ||E||_F^2 + lambda/2 tr(E)^2, E = (F^T F - I)/2.
template <int D>
class StvkMaterial : public IsotropicMaterial<D> {
 public:
  explicit StvkMaterial(const LameParameters& lame) : lame_(lame) {}
  std::string name() const override { return "stvk"; }

 protected:
  using typename Material<D>::Mat;
  bool closed_form(const Mat& F, double& psi, Mat* P) const override;
  void singular_value_terms(const VecD<D>& s, int order, SingularValueTerms<D>& t) const override;

 private:
  LameParameters lame_;
};

// Compressible neo-Hookean (Bonet & Wood 2008, ch. 6):
// mu/2 (tr F^T F - D) - mu ln J + lambda/2 (ln J)^2. Undefined for J <= 0: evaluate returns
// +infinity there and sets P and dPdF (when requested) to zero, so they are NaN-free; callers
// (line searches) must reject the step on the infinite energy.
template <int D>
class NeoHookeanMaterial : public IsotropicMaterial<D> {
 public:
  using typename Material<D>::Mat;
  using typename Material<D>::Mat2nd;
  explicit NeoHookeanMaterial(const LameParameters& lame) : lame_(lame) {}
  std::string name() const override { return "neo_hookean"; }
  bool defined_when_inverted() const override { return false; }

 protected:
  // The barrier is checked on det F itself, so det F <= 0 is reported as such even where the
  // SVD's last singular value would carry a rounding-level sign of its own.
  bool closed_form(const Mat& F, double& psi, Mat* P) const override;
  // In 2D where the projection needs no SVD (neo_hookean_tangent_2d.hpp); never in 3D.
  bool closed_form_tangent(const Mat& F, bool project_psd, Mat2nd& dPdF) const override;
  void singular_value_terms(const VecD<D>& s, int order, SingularValueTerms<D>& t) const override;

 private:
  LameParameters lame_;
};

// Stable neo-Hookean (Smith, de Goes, Kim 2018, eq. 14):
// mu'/2 (I_C - D) + lambda'/2 (J - alpha)^2 - mu'/2 ln(I_C + 1) - Psi_0, I_C = ||F||_F^2,
// alpha = 1 + mu' D / ((D + 1) lambda') (rest-stress-free in D dimensions), Psi_0 = Psi(I).
// (mu', lambda') are chosen so that the model linearises to the given (mu, lambda) at F = I
// (the Lame reparametrisation of Smith et al. 2018, given there for 3D):
//   mu' = (D + 1)/D mu,  lambda' = lambda + mu - 2 mu / (D (D + 1)),
// i.e. 3D: mu' = 4/3 mu, lambda' = lambda + 5/6 mu; 2D (plane strain): mu' = 3/2 mu,
// lambda' = lambda + 2/3 mu. Derivation: at sigma = 1 the sigma-Hessian is
// mu' D/(D+1) delta_ij + 2 mu'/(D+1)^2 + lambda' - (1 - delta_ij) mu' D/(D+1), which must equal
// 2 mu delta_ij + lambda. Requires lambda' > 0 (throws std::invalid_argument otherwise).
template <int D>
class StableNeoHookeanMaterial : public IsotropicMaterial<D> {
 public:
  explicit StableNeoHookeanMaterial(const LameParameters& lame);
  std::string name() const override { return "stable_neo_hookean"; }

 protected:
  using typename Material<D>::Mat;
  bool closed_form(const Mat& F, double& psi, Mat* P) const override;
  void singular_value_terms(const VecD<D>& s, int order, SingularValueTerms<D>& t) const override;

 private:
  double mu_;      // mu'
  double lambda_;  // lambda'
  double alpha_;
  double psi_rest_;
};

}  // namespace softsim
