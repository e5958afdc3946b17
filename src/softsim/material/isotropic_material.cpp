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

  // Scaling modes coupled by the sigma-Hessian (Teran et al. 2005, eq. 7 block structure).
  Eigen::Matrix<double, D * D, D> scaling;
  for (int a = 0; a < D; ++a) scaling.col(a) = vec<D>(U.col(a) * V.col(a).transpose());
  Mat H = 0.5 * (t.hess + t.hess.transpose());
  if (project_psd) softsim::project_psd(H);
  Mat2nd K = scaling * H * scaling.transpose();

  // Flip (symmetric) and twist (antisymmetric) modes, one 2x2 block per pair.
  const double inv_sqrt2 = 1.0 / std::sqrt(2.0);
  for (int p = 0; p < SingularValueTerms<D>::kPairs; ++p) {
    const auto [i, j] = pair_of<D>(p);
    const Mat Mij = U.col(i) * V.col(j).transpose();
    const Mat Mji = U.col(j) * V.col(i).transpose();
    const VecD<D * D> flip = inv_sqrt2 * vec<D>(Mij + Mji);
    const VecD<D * D> twist = inv_sqrt2 * vec<D>(Mij - Mji);
    const double lf = project_psd ? std::max(t.flip[p], 0.0) : t.flip[p];
    const double lt = project_psd ? std::max(t.twist[p], 0.0) : t.twist[p];
    K.noalias() += lf * flip * flip.transpose();
    K.noalias() += lt * twist * twist.transpose();
  }
  *dPdF = 0.5 * (K + K.transpose());
  return t.psi;
}

template class IsotropicMaterial<2>;
template class IsotropicMaterial<3>;

}  // namespace softsim
