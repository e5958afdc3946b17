// Fixed corotated elasticity (Stomakhin et al. 2012) in signed singular values: the ARAP term
// plus lambda/2 (J - 1)^2 with J = prod sigma_i.
#include "softsim/material/models.hpp"

namespace softsim {

template <int D>
void FixedCorotatedMaterial<D>::singular_value_terms(const VecD<D>& s, int order,
                                                     SingularValueTerms<D>& t) const {
  const double mu = lame_.mu;
  const double lambda = lame_.lambda;
  const VecD<D> d = s - VecD<D>::Ones();
  const double J = s.prod();
  t.psi = mu * d.squaredNorm() + 0.5 * lambda * (J - 1.0) * (J - 1.0);
  if (order < 1) return;
  const VecD<D> dJ = det_gradient<D>(s);
  t.grad = 2.0 * mu * d + lambda * (J - 1.0) * dJ;
  if (order < 2) return;
  t.hess = 2.0 * mu * MatD<D>::Identity() + lambda * dJ * dJ.transpose();
  for (int p = 0; p < SingularValueTerms<D>::kPairs; ++p) {
    const auto [i, j] = pair_of<D>(p);
    const double c = lambda * (J - 1.0) * det_pair_cofactor<D>(s, i, j);
    t.hess(i, j) += c;
    t.hess(j, i) += c;
    // Volume term: g_i -+ g_j = lambda (J-1) J_ij (s_j -+ s_i) (cf. Stomakhin et al. 2012,
    // tech. report), so the divisions by s_i -+ s_j are exact.
    t.flip[p] = 2.0 * mu - c;
    t.twist[p] = 2.0 * mu * (1.0 - 2.0 / clamp_away_from_zero(s(i) + s(j))) + c;
  }
}

template class FixedCorotatedMaterial<2>;
template class FixedCorotatedMaterial<3>;

}  // namespace softsim
