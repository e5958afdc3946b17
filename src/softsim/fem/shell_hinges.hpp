#pragma once
// The interior edges of a triangle mesh as hinges (x0, x1, x2, x3): x0 -> x1 the shared edge as the
// first triangle that uses it orders it, x2 that triangle's third vertex, x3 the other's. What the
// bending energies of shells sum over.
#include <Eigen/Core>

#include "softsim/core/types.hpp"

namespace softsim {

using Hinges = Eigen::Matrix<int, Eigen::Dynamic, 4>;

Hinges interior_hinges(const MatXi& triangles);

}  // namespace softsim
