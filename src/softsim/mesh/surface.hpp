#pragma once
// Boundary of a simplicial mesh: outward triangles of a tet mesh, counter-clockwise boundary
// edges of a 2D triangle mesh, or the triangles themselves for a 3D shell.
#include <vector>

#include "softsim/mesh/mesh.hpp"

namespace softsim {

struct Surface {
  Eigen::MatrixXi faces;  // f x 3 outward-oriented triangles (3D); 0 x 3 in 2D
  Eigen::MatrixXi edges;  // e x 2: unique undirected boundary edges (3D: edges of the faces,
                          // sorted with edges(i,0) < edges(i,1)); 2D: boundary edges oriented
                          // counter-clockwise around the body (interior on the left)
  std::vector<int> vertices;  // sorted ids of the vertices on the surface
};

// Tets: faces used by exactly one tet, oriented outward (per-tet orientation taken from the
// sign of its volume). 2D triangles: edges used by one triangle. 3D triangles (shells): faces
// are the triangles, edges all unique edges. Edge meshes: edges are the unique edges.
Surface extract_surface(const Mesh& mesh);

// All undirected edges of the cells (any cell type) as rows (a, b) with a < b, sorted
// lexicographically, without duplicates.
Eigen::MatrixXi unique_edges(const Mesh& mesh);
Eigen::MatrixXi unique_edges(const Eigen::MatrixXi& cells);

}  // namespace softsim
