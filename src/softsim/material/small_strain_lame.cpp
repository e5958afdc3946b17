#include "softsim/material/small_strain_lame.hpp"

#include <cmath>
#include <stdexcept>

namespace softsim {

template <int D>
LameParameters small_strain_lame(const Material<D>& material) {
  constexpr double h = 1e-6;  // strain: O(h^2) truncation, ~eps / h = 1e-10 relative rounding
  MatD<D> plus = MatD<D>::Identity(), minus = MatD<D>::Identity();
  plus(0, 0) += h;
  minus(0, 0) -= h;
  MatD<D> P_plus, P_minus;
  material.evaluate(plus, &P_plus, nullptr, false);
  material.evaluate(minus, &P_minus, nullptr, false);
  const MatD<D> dP = (P_plus - P_minus) / (2.0 * h);
  LameParameters lame;
  lame.lambda = dP(1, 1);
  lame.mu = 0.5 * (dP(0, 0) - lame.lambda);
  if (!(lame.mu > 0.0) || !std::isfinite(lame.lambda) || !(lame.lambda > -2.0 * lame.mu / D))
    throw std::invalid_argument("the material '" + material.name() + "' has no positive small-strain moduli");
  return lame;
}

template LameParameters small_strain_lame<2>(const Material<2>&);
template LameParameters small_strain_lame<3>(const Material<3>&);

}  // namespace softsim
