#pragma once
// The affine map of one body (Lan et al. 2022; Li & Jiang 2025, ch. on rigid bodies and ABD):
// x_i = t + A (xbar_i - c) = t + sum_k (xbar_i - c)_k a_k, with a_k the columns of A. As handles
// of the subspace map (model/subspace_map.hpp) a vertex has the weights (1, xbar_i - c) over
// (t, a_1, ..., a_dim); with c the body's centre of mass, t is the centre of mass and the
// translation and A decouple in the reduced mass matrix.
#include <array>
#include <vector>

#include "softsim/core/types.hpp"

namespace softsim {

// One row per vertex: (1, xbar_i - c). rest: the body's vertices (rows).
MatX affine_weights(const MatX& rest, const VecX& centre);

// dim + 1 vertices (local ids) that span the body well: the affine map is fixed by them, and
// the orthogonality potential reads A from them. Farthest-point choices: the vertex farthest
// from the centroid, the one farthest from it, then the farthest from their line (and plane).
std::vector<int> affine_frame_vertices(const MatX& rest);

}  // namespace softsim
