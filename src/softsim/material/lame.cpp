// Conversions between (Young's modulus, Poisson ratio) and the Lame parameters (mu, lambda).
// The 3D formulas are used in 2D as well: 2D elements are plane strain.
#include <stdexcept>

#include "softsim/material/material.hpp"

namespace softsim {

LameParameters LameParameters::from_young_poisson(double youngs_modulus, double poisson_ratio) {
  // nu -> 1/2 makes lambda infinite, nu -> -1 makes mu infinite; both are rejected.
  if (!(youngs_modulus >= 0.0) || !(poisson_ratio > -1.0 && poisson_ratio < 0.5)) {
    throw std::invalid_argument("LameParameters: need E >= 0 and -1 < nu < 0.5");
  }
  const double E = youngs_modulus;
  const double nu = poisson_ratio;
  return {E / (2.0 * (1.0 + nu)), E * nu / ((1.0 + nu) * (1.0 - 2.0 * nu))};
}

double LameParameters::youngs_modulus() const {
  return mu * (3.0 * lambda + 2.0 * mu) / (lambda + mu);
}

double LameParameters::poisson_ratio() const { return lambda / (2.0 * (lambda + mu)); }

}  // namespace softsim
