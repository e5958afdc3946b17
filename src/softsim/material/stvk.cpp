// St. Venant-Kirchhoff: closed form in F (E = (F^T F - I)/2) for Psi and P; in singular values
// for the tangent: E_i = (s_i^2 - 1)/2,
// Psi = mu sum E_i^2 + lambda/2 (sum E_i)^2, g_i = s_i (2 mu E_i + lambda tr E).
#include "softsim/material/models.hpp"

namespace softsim {

template <int D>
bool StvkMaterial<D>::closed_form(const Mat& F, double& psi, Mat* P) const {
  const Mat E = 0.5 * (F.transpose() * F - Mat::Identity());
  const double trE = E.trace();
  psi = lame_.mu * E.squaredNorm() + 0.5 * lame_.lambda * trE * trE;
  if (P) *P = F * (2.0 * lame_.mu * E + lame_.lambda * trE * Mat::Identity());  // P = F S
  return true;
}

template <int D>
void StvkMaterial<D>::singular_value_terms(const VecD<D>& s, int order, SingularValueTerms<D>& t) const {
  const double mu = lame_.mu;
  const double lambda = lame_.lambda;
  const VecD<D> E = 0.5 * (s.cwiseProduct(s) - VecD<D>::Ones());
  const double trE = E.sum();
  t.psi = mu * E.squaredNorm() + 0.5 * lambda * trE * trE;
  if (order < 1) return;
  const VecD<D> stress = 2.0 * mu * E + lambda * trE * VecD<D>::Ones();
  t.grad = s.cwiseProduct(stress);
  if (order < 2) return;
  t.hess = lambda * s * s.transpose();
  for (int i = 0; i < D; ++i) t.hess(i, i) += stress(i) + 2.0 * mu * s(i) * s(i);
  for (int p = 0; p < SingularValueTerms<D>::kPairs; ++p) {
    const auto [i, j] = pair_of<D>(p);
    // g_i = mu (s_i^3 - s_i) + lambda trE s_i; the cubic divides exactly by s_i -+ s_j.
    const double base = lambda * trE - mu;
    t.flip[p] = mu * (s(i) * s(i) + s(i) * s(j) + s(j) * s(j)) + base;
    t.twist[p] = mu * (s(i) * s(i) - s(i) * s(j) + s(j) * s(j)) + base;
  }
}

template class StvkMaterial<2>;
template class StvkMaterial<3>;

}  // namespace softsim
