// As-rigid-as-possible energy in singular values.
#include "softsim/material/models.hpp"

namespace softsim {

template <int D>
void ArapMaterial<D>::singular_value_terms(const VecD<D>& s, int order, SingularValueTerms<D>& t) const {
  const double mu = lame_.mu;
  const VecD<D> d = s - VecD<D>::Ones();
  t.psi = mu * d.squaredNorm();
  if (order < 1) return;
  t.grad = 2.0 * mu * d;
  if (order < 2) return;
  t.hess = 2.0 * mu * MatD<D>::Identity();
  for (int p = 0; p < SingularValueTerms<D>::kPairs; ++p) {
    const auto [i, j] = pair_of<D>(p);
    t.flip[p] = 2.0 * mu;  // (g_i - g_j)/(s_i - s_j)
    // (g_i + g_j)/(s_i + s_j) = 2 mu (1 - 2/(s_i + s_j)) (Stomakhin et al. 2012, tech. report)
    t.twist[p] = 2.0 * mu * (1.0 - 2.0 / clamp_away_from_zero(s(i) + s(j)));
  }
}

template class ArapMaterial<2>;
template class ArapMaterial<3>;

}  // namespace softsim
