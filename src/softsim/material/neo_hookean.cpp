// Compressible neo-Hookean: closed form in F for Psi and P (and in 2D mostly for the tangent),
// singular values (g_i = mu s_i + (lambda ln J - mu)/s_i) for the tangent otherwise.
#include <cmath>
#include <limits>

#include <Eigen/LU>

#include "softsim/material/models.hpp"
#include "softsim/material/neo_hookean_tangent_2d.hpp"

namespace softsim {

template <int D>
bool NeoHookeanMaterial<D>::closed_form(const Mat& F, double& psi, Mat* P) const {
  const double J = F.determinant();
  if (!(J > 0.0)) {
    psi = std::numeric_limits<double>::infinity();
    if (P) P->setZero();
    return true;
  }
  const double logJ = std::log(J);
  psi = 0.5 * lame_.mu * (F.squaredNorm() - D) - lame_.mu * logJ + 0.5 * lame_.lambda * logJ * logJ;
  // P = mu F + (lambda ln J - mu) F^-T, F^-T = cof F / J.
  if (P) *P = lame_.mu * F + ((lame_.lambda * logJ - lame_.mu) / J) * cofactor<D>(F);
  return true;
}

template <int D>
bool NeoHookeanMaterial<D>::closed_form_tangent(const Mat& F, bool project_psd, Mat2nd& dPdF) const {
  if constexpr (D == 2) {
    return neo_hookean_tangent_2d(F, lame_, project_psd, dPdF);
  } else {
    return false;
  }
}

template <int D>
void NeoHookeanMaterial<D>::singular_value_terms(const VecD<D>& s, int order,
                                                 SingularValueTerms<D>& t) const {
  const double mu = lame_.mu;
  const double lambda = lame_.lambda;
  const double J = s.prod();
  if (!(J > 0.0)) {
    t.psi = std::numeric_limits<double>::infinity();
    return;
  }
  const double logJ = std::log(J);
  t.psi = 0.5 * mu * (s.squaredNorm() - D) - mu * logJ + 0.5 * lambda * logJ * logJ;
  if (order < 1) return;
  const double a = lambda * logJ - mu;
  const VecD<D> inv = s.cwiseInverse();
  t.grad = mu * s + a * inv;
  if (order < 2) return;
  t.hess = lambda * inv * inv.transpose();
  for (int i = 0; i < D; ++i) t.hess(i, i) += mu - a * inv(i) * inv(i);
  for (int p = 0; p < SingularValueTerms<D>::kPairs; ++p) {
    const auto [i, j] = pair_of<D>(p);
    // a (1/s_i -+ 1/s_j) = -+ a (s_i -+ s_j)/(s_i s_j): exact division.
    t.flip[p] = mu - a * inv(i) * inv(j);
    t.twist[p] = mu + a * inv(i) * inv(j);
  }
}

template class NeoHookeanMaterial<2>;
template class NeoHookeanMaterial<3>;

}  // namespace softsim
