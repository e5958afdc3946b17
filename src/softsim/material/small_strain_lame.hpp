#pragma once
// The Lame parameters a material shows for small strains, read from its stress at F = I +- h e_00
// by central differences: every isotropic model linearises to P = 2 mu eps + lambda tr(eps) I
// there, so dP00/dF00 = 2 mu + lambda and dP11/dF00 = lambda. For methods that need the moduli
// rather than the energy (the position-based strain constraints, pbd/strain_constraints.hpp).
#include "softsim/material/material.hpp"

namespace softsim {

// Throws std::invalid_argument when the result is not a material (mu <= 0, lambda < -2 mu / D,
// or not finite).
template <int D>
LameParameters small_strain_lame(const Material<D>& material);

}  // namespace softsim
