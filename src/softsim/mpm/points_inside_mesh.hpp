#pragma once
// Which points lie inside a simplicial mesh's volume (triangles in 2D, tetrahedra in 3D): for
// MPM bodies sampled from a mesh (docs/mpm.md, "Scene files"). The cells are bucketed in a
// uniform grid over the mesh's bounding box, so a query tests the few cells of its bucket.
#include <vector>

#include "softsim/core/types.hpp"
#include "softsim/mesh/mesh.hpp"

namespace softsim {

// The points inside (or on the boundary of) some cell of the mesh, in their given order. The
// mesh has cells of dimension D (D + 1 vertices each) and no degenerate cell (validate_mesh).
template <int D>
std::vector<VecD<D>> points_inside_mesh(const Mesh& mesh, const std::vector<VecD<D>>& points);

// The mesh's volume (2D: area): the sum of its cells' unsigned measures.
double mesh_volume(const Mesh& mesh);

}  // namespace softsim
