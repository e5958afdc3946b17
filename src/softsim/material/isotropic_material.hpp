#pragma once
// Isotropic hyperelastic models written as Psi(F) = Psi_hat(sigma) of the signed singular values
// of a rotation-variant SVD F = U diag(sigma) V^T. The base class turns the model's derivatives in
// sigma into P = U diag(dPsi_hat/dsigma) V^T and into dP/dF through its eigensystem
// (Teran et al. 2005 "Robust quasistatic FE"; Stomakhin et al. 2012 tech. report):
//  - the D "scaling" modes vec(u_a v_a^T), coupled by the D x D Hessian of Psi_hat;
//  - per pair i < j, the "flip" mode vec(u_i v_j^T + u_j v_i^T)/sqrt2 with eigenvalue
//    (g_i - g_j)/(sigma_i - sigma_j) and the "twist" mode vec(u_i v_j^T - u_j v_i^T)/sqrt2 with
//    eigenvalue (g_i + g_j)/(sigma_i + sigma_j), g = dPsi_hat/dsigma.
// With project_psd the Hessian block and the flip/twist eigenvalues are clamped at zero, which is
// exactly the eigenvalue-clamped projection of dP/dF, without a D^2 x D^2 eigensolve.
#include <array>

#include "softsim/material/material.hpp"

namespace softsim {

template <int D>
struct SingularValueTerms {
  static constexpr int kPairs = D * (D - 1) / 2;
  double psi = 0.0;
  VecD<D> grad = VecD<D>::Zero();  // dPsi_hat / dsigma
  MatD<D> hess = MatD<D>::Zero();  // d^2 Psi_hat / dsigma^2
  // Per pair p = (i, j), i < j (see pair_of): the flip and twist eigenvalues. Models return
  // them with the division by (sigma_i -+ sigma_j) done analytically, so that they stay exact
  // for (nearly) equal singular values; a remaining 1/(sigma_i + sigma_j) goes through
  // clamp_away_from_zero.
  std::array<double, kPairs> flip{};
  std::array<double, kPairs> twist{};
};

// Pair p of singular-value indices (i, j), i < j: D = 2: (0,1); D = 3: (0,1), (0,2), (1,2).
template <int D>
constexpr std::array<int, 2> pair_of(int p) {
  if constexpr (D == 2) {
    return {0, 1};
  } else {
    return p == 0 ? std::array<int, 2>{0, 1} : p == 1 ? std::array<int, 2>{0, 2} : std::array<int, 2>{1, 2};
  }
}

// prod_{k != i} sigma_k = dJ/dsigma_i.
template <int D>
VecD<D> det_gradient(const VecD<D>& s) {
  if constexpr (D == 2) {
    return VecD<D>(s(1), s(0));
  } else {
    return VecD<D>(s(1) * s(2), s(0) * s(2), s(0) * s(1));
  }
}
// prod_{k != i, j} sigma_k = d^2 J / dsigma_i dsigma_j for i != j (1 in 2D).
template <int D>
double det_pair_cofactor(const VecD<D>& s, int i, int j) {
  if constexpr (D == 2) {
    return 1.0;
  } else {
    return s(3 - i - j);
  }
}

// Keeps |x| >= eps with x's sign (+eps for x = 0), for the 1/(sigma_i + sigma_j) of the twist
// eigenvalue of models with a polar rotation, which is singular where F has a reflection in the
// (i, j) plane (sigma_i = -sigma_j; Stomakhin et al. 2012 clamp it the same way).
inline double clamp_away_from_zero(double x, double eps = 1e-6) {
  return x >= 0.0 ? (x < eps ? eps : x) : (x > -eps ? -eps : x);
}

template <int D>
class IsotropicMaterial : public Material<D> {
 public:
  using typename Material<D>::Mat;
  using typename Material<D>::Mat2nd;

  double evaluate(const Mat& F, Mat* P, Mat2nd* dPdF, bool project_psd) const override;

 protected:
  // Fills t.psi; also t.grad when order >= 1; also t.hess, t.flip, t.twist when order >= 2.
  // A model may set t.psi = +infinity (outside its domain); evaluate then zeroes P and dPdF.
  virtual void singular_value_terms(const VecD<D>& sigma, int order, SingularValueTerms<D>& t) const = 0;
};

}  // namespace softsim
