#pragma once
// Connected pieces of a triangle surface and whether each is a closed, consistently oriented
// surface (what a divergence-theorem volume needs). A hollow ball's boundary, for instance, has
// two pieces: the outer sphere and the cavity.
#include <vector>

#include "softsim/core/types.hpp"

namespace softsim {

// Faces grouped by connectivity through shared edges; each group keeps the input order, and
// groups are ordered by their first face.
std::vector<Eigen::MatrixXi> surface_components(const Eigen::MatrixXi& faces);

// True when every directed edge (a, b) of the faces occurs once and its reverse (b, a) occurs
// once: a closed 2-manifold-like surface with consistent orientation.
bool is_closed_and_oriented(const Eigen::MatrixXi& faces);

}  // namespace softsim
