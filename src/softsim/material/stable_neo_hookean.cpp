// Stable neo-Hookean (Smith, de Goes, Kim 2018) in singular values; parametrisation in models.hpp.
#include <cmath>
#include <stdexcept>

#include <Eigen/LU>

#include "softsim/material/models.hpp"

namespace softsim {

template <int D>
StableNeoHookeanMaterial<D>::StableNeoHookeanMaterial(const LameParameters& lame)
    : mu_((D + 1.0) / D * lame.mu), lambda_(lame.lambda + lame.mu - 2.0 * lame.mu / (D * (D + 1.0))) {
  if (!(lambda_ > 0.0)) {
    throw std::invalid_argument("stable_neo_hookean: needs lambda + mu - 2 mu/(D(D+1)) > 0");
  }
  alpha_ = 1.0 + mu_ * D / ((D + 1.0) * lambda_);  // rest-stress-free (3D: 1 + 3mu'/(4lambda'), Smith et al. 2018)
  psi_rest_ = 0.5 * lambda_ * (1.0 - alpha_) * (1.0 - alpha_) - 0.5 * mu_ * std::log(D + 1.0);
}

template <int D>
bool StableNeoHookeanMaterial<D>::closed_form(const Mat& F, double& psi, Mat* P) const {
  const double Ic = F.squaredNorm();
  const double J = F.determinant();
  psi = 0.5 * mu_ * (Ic - D) + 0.5 * lambda_ * (J - alpha_) * (J - alpha_) - 0.5 * mu_ * std::log(Ic + 1.0) -
        psi_rest_;
  // P = mu' (1 - 1/(I_C + 1)) F + lambda' (J - alpha) cof F (the derivative of Smith et al. 2018, eq. 14).
  if (P) *P = mu_ * (1.0 - 1.0 / (Ic + 1.0)) * F + lambda_ * (J - alpha_) * cofactor<D>(F);
  return true;
}

template <int D>
void StableNeoHookeanMaterial<D>::singular_value_terms(const VecD<D>& s, int order,
                                                       SingularValueTerms<D>& t) const {
  const double Ic = s.squaredNorm();
  const double J = s.prod();
  t.psi = 0.5 * mu_ * (Ic - D) + 0.5 * lambda_ * (J - alpha_) * (J - alpha_) -
          0.5 * mu_ * std::log(Ic + 1.0) - psi_rest_;
  if (order < 1) return;
  const VecD<D> dJ = det_gradient<D>(s);
  const double m = mu_ * (1.0 - 1.0 / (Ic + 1.0));  // mu' (1 - 1/(I_C + 1)), eq. 14 derivative
  t.grad = m * s + lambda_ * (J - alpha_) * dJ;
  if (order < 2) return;
  t.hess = m * MatD<D>::Identity() + (2.0 * mu_ / ((Ic + 1.0) * (Ic + 1.0))) * s * s.transpose() +
           lambda_ * dJ * dJ.transpose();
  for (int p = 0; p < SingularValueTerms<D>::kPairs; ++p) {
    const auto [i, j] = pair_of<D>(p);
    const double c = lambda_ * (J - alpha_) * det_pair_cofactor<D>(s, i, j);
    t.hess(i, j) += c;
    t.hess(j, i) += c;
    t.flip[p] = m - c;   // exact divisions by s_i -+ s_j, as in the closed-form eigenvalues of Smith et al. 2018
    t.twist[p] = m + c;
  }
}

template class StableNeoHookeanMaterial<2>;
template class StableNeoHookeanMaterial<3>;

}  // namespace softsim
