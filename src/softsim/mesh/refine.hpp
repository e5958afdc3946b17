#pragma once
// Uniform refinement of simplicial meshes: every edge split at its midpoint, a triangle into 4,
// a tetrahedron into 8 (its four corners and the inner octahedron cut along its shortest
// diagonal, Bey 1995). Children keep their parent's orientation and cell tag. What PolyFEM's
// `n_refs` does to a scene's mesh (docs/peer-scenes.md), and a body's `refine` (scene-format.md).
#include "softsim/mesh/mesh.hpp"

namespace softsim {

// `levels` rounds of refinement (0: the mesh unchanged). The original vertices keep their ids;
// the midpoints follow, numbered in order of first appearance (cells in order, local edges
// 01, 02, 03, 12, 13, 23), so the result depends only on the input. Edge meshes are refused
// (std::invalid_argument), as are meshes that would exceed 2^31 vertices or cells.
Mesh refine_uniformly(const Mesh& mesh, int levels);

}  // namespace softsim
