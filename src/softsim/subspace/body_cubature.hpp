#pragma once
// Cubature for a reduced solid (Li & Jiang 2025, ch. 26; An, Kim & James 2008): training poses
// x0 + U q drawn around the rest shape, the reduced elastic force U^T f(x) of every element at
// each pose, and the greedy non-negative fit of subspace/cubature.hpp. The body's elasticity
// term then evaluates only the chosen elements, weighted (SimplexElasticity::set_element_weights).
#include "softsim/model/model.hpp"
#include "softsim/subspace/cubature.hpp"
#include "softsim/subspace/reduced_basis.hpp"

namespace softsim {

struct BodyCubatureOptions {
  int poses = 0;            // training poses (0: 4 r)
  double amplitude = 0.1;   // the largest training displacement of the softest column, x the body's size
  CubatureOptions fit;
};

// The training poses' coordinates (r x poses): q_p = ((p + 1) / P) sigma (.) xi_p with xi_p
// standard normal (seeded: deterministic) and sigma_j = amplitude L / max|U_j| w_j, L the body's
// bounding-box diagonal and w_j = sqrt(value_ref / value_j) for modes (value_ref the smallest
// positive eigenvalue: equal energy per mode) or sqrt(value_j / value_1) for mass-PCA bases
// (their values are captured energies), at least 0.05. The ramp in p trains from the linear
// regime to the largest poses.
MatX training_coordinates(const ReducedBasis& basis, double body_size, int poses, double amplitude, unsigned seed);

// Fits the cubature of body `body`'s elasticity term (a SimplexElasticity of the model's
// dimension; std::invalid_argument otherwise). Element ids are the term's.
Cubature body_cubature(const Model& model, int body, const ReducedBasis& basis, const BodyCubatureOptions& options);

}  // namespace softsim
