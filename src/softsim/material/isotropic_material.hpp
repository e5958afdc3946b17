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

// The cofactor matrix cof F = dJ/dF = J F^-T (columns f_1 x f_2, f_2 x f_0, f_0 x f_1 in 3D).
template <int D>
MatD<D> cofactor(const MatD<D>& F) {
  MatD<D> C;
  if constexpr (D == 2) {
    C << F(1, 1), -F(1, 0), -F(0, 1), F(0, 0);
  } else {
    for (int i = 0; i < 3; ++i) {
      const int j = (i + 1) % 3, k = (i + 2) % 3;
      C.col(i) << F(1, j) * F(2, k) - F(2, j) * F(1, k), F(2, j) * F(0, k) - F(0, j) * F(2, k),
          F(0, j) * F(1, k) - F(1, j) * F(0, k);
    }
  }
  return C;
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

  // Psi and P from the model's closed form in F where it has one (no SVD: what line searches
  // and residuals need); dP/dF from the model's closed form where it has one at this F, through
  // the SVD and the eigensystem above otherwise.
  double evaluate(const Mat& F, Mat* P, Mat2nd* dPdF, bool project_psd) const override;
  // Everything through the SVD (for tests of the closed forms against it).
  double evaluate_by_svd(const Mat& F, Mat* P, Mat2nd* dPdF, bool project_psd) const;

 protected:
  // Models whose energy and stress are closed-form functions of invariants of F (I_C = ||F||^2,
  // J = det F, ||F^T F||^2) return true after setting psi and, when P is non-null, P. Outside the
  // model's domain they set psi = +infinity (evaluate then zeroes P and dPdF).
  virtual bool closed_form(const Mat& F, double& psi, Mat* P) const { return false; }
  // Models that have dP/dF (projected or not) in closed form at this F fill it and return true;
  // called only where closed_form gave a finite energy. False leaves the tangent to the SVD.
  virtual bool closed_form_tangent(const Mat& F, bool project_psd, Mat2nd& dPdF) const { return false; }
  // Fills t.psi; also t.grad when order >= 1; also t.hess, t.flip, t.twist when order >= 2.
  // A model may set t.psi = +infinity (outside its domain); evaluate then zeroes P and dPdF.
  virtual void singular_value_terms(const VecD<D>& sigma, int order, SingularValueTerms<D>& t) const = 0;
};

}  // namespace softsim
