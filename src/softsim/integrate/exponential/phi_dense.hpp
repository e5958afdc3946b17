#pragma once
// phi_1(Z) g = Z^-1 (e^Z - I) g for a small dense Z (the reduced ERE update of the additive
// methods, Ascher et al. 2022, eq. 25), read off the last column of the exponential of the
// augmented matrix [[Z, g], [0, 0]] (Sidje 1998, Thm. 1): no inverse of Z, so singular Z (rigid
// modes) is fine.
#include "softsim/core/types.hpp"

namespace softsim {

VecX phi1_times(const MatX& Z, const VecX& g);

}  // namespace softsim
