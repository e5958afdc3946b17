#pragma once
// Greedy colouring of constraints so that no two of one colour share a vertex: the constraints
// of a colour are then projected in parallel with the same result as one after another, for any
// thread count (Fratarcangeli et al. 2016, "Vivace"). Deterministic: constraints are taken in
// index order and each gets the smallest colour none of its vertices has yet.
#include <functional>
#include <span>
#include <vector>

namespace softsim {

// vertices_of(c) lists constraint c's vertices (c < count); returns the constraints of each
// colour, in index order.
std::vector<std::vector<int>> colour_constraints(int count, int num_vertices,
                                                 const std::function<std::span<const int>(int)>& vertices_of);

}  // namespace softsim
