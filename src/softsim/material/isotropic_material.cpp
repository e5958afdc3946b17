// Assembly of P and dP/dF (optionally PSD-projected) from derivatives in the singular values.
#include "softsim/material/isotropic_material.hpp"

#include <algorithm>
#include <cmath>

#include "softsim/core/psd_projection.hpp"
#include "softsim/material/svd.hpp"

namespace softsim {

namespace {

template <int D>
VecD<D * D> vec(const MatD<D>& M) {
  return Eigen::Map<const VecD<D * D>>(M.data());
}

}  // namespace

template <int D>
double IsotropicMaterial<D>::evaluate(const Mat& F, Mat* P, Mat2nd* dPdF, bool project_psd) const {
  double psi = 0.0;
  if (!closed_form(F, psi, P)) return evaluate_by_svd(F, P, dPdF, project_psd);
  if (!dPdF) return psi;
  if (!std::isfinite(psi)) {
    dPdF->setZero();
    return psi;
  }
  // The closed forms keep psi and P (value, gradient and line search stay one function); the
  // SVD is needed for the tangent only, and not even there where the model has it in closed form.
  if (!closed_form_tangent(F, project_psd, *dPdF)) evaluate_by_svd(F, nullptr, dPdF, project_psd);
  return psi;
}

template <int D>
double IsotropicMaterial<D>::evaluate_by_svd(const Mat& F, Mat* P, Mat2nd* dPdF, bool project_psd) const {
  const RotationVariantSvd<D> svd = rotation_variant_svd<D>(F);
  SingularValueTerms<D> t;
  singular_value_terms(svd.sigma, dPdF ? 2 : (P ? 1 : 0), t);
  if (!std::isfinite(t.psi)) {  // outside the model's domain (e.g. neo-Hookean with J <= 0)
    if (P) P->setZero();
    if (dPdF) dPdF->setZero();
    return t.psi;
  }
  const Mat& U = svd.U;
  const Mat& V = svd.V;
  if (P) *P = U * t.grad.asDiagonal() * V.transpose();
  if (!dPdF) return t.psi;

  // dP/dF = Q Lambda Q^T with the orthonormal modes as the columns of Q: first the D scaling
  // modes vec(u_a v_a^T), coupled by the sigma-Hessian (Teran et al. 2005, eq. 7 block
  // structure), then per pair the flip (symmetric) and twist (antisymmetric) modes, each an
  // eigenvector. Stored transposed (a mode per row) so that each entry of the symmetric product
  // is one contiguous dot product, computed once for both triangles.
  constexpr int N = D * D;
  constexpr int kPairs = SingularValueTerms<D>::kPairs;
  Eigen::Matrix<double, N, N> Qt, LQt;  // Q^T and Lambda Q^T
  for (int a = 0; a < D; ++a) Qt.row(a) = vec<D>(U.col(a) * V.col(a).transpose()).transpose();
  const double inv_sqrt2 = 1.0 / std::sqrt(2.0);
  for (int p = 0; p < kPairs; ++p) {
    const auto [i, j] = pair_of<D>(p);
    const Mat Mij = U.col(i) * V.col(j).transpose();
    const Mat Mji = U.col(j) * V.col(i).transpose();
    Qt.row(D + p) = inv_sqrt2 * vec<D>(Mij + Mji).transpose();
    Qt.row(D + kPairs + p) = inv_sqrt2 * vec<D>(Mij - Mji).transpose();
  }
  Mat H = 0.5 * (t.hess + t.hess.transpose());
  if (project_psd) softsim::project_psd(H);
  LQt.template topRows<D>().noalias() = H.lazyProduct(Qt.template topRows<D>());
  for (int p = 0; p < kPairs; ++p) {
    LQt.row(D + p) = (project_psd ? std::max(t.flip[p], 0.0) : t.flip[p]) * Qt.row(D + p);
    LQt.row(D + kPairs + p) = (project_psd ? std::max(t.twist[p], 0.0) : t.twist[p]) * Qt.row(D + kPairs + p);
  }
  for (int c = 0; c < N; ++c)
    for (int r = c; r < N; ++r) (*dPdF)(r, c) = (*dPdF)(c, r) = LQt.col(r).dot(Qt.col(c));
  return t.psi;
}

template class IsotropicMaterial<2>;
template class IsotropicMaterial<3>;

}  // namespace softsim
