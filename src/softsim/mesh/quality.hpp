#pragma once
// Mesh statistics (for reports) and the validation every loaded mesh goes through.
#include <string>

#include "softsim/mesh/mesh.hpp"

namespace softsim {

struct MeshReport {
  int dim = 0;
  int num_vertices = 0;
  int num_cells = 0;
  int vertices_per_cell = 0;  // 2 edges, 3 triangles, 4 tets
  Eigen::VectorXd bbox_min, bbox_max;
  double bbox_diagonal = 0.0;
  // Cell measure: signed volume (tets), signed area with ccw positive (2D triangles), area
  // (3D triangles), length (edges).
  double min_measure = 0.0, max_measure = 0.0, total_measure = 0.0;
  // Aspect ratio normalised to 1 for a regular simplex: longest edge / (2 sqrt(6) inradius)
  // for tets, longest edge / (2 sqrt(3) inradius) for triangles, 1 for edges.
  double min_aspect_ratio = 0.0, max_aspect_ratio = 0.0, mean_aspect_ratio = 0.0;
  int num_inverted = 0;    // signed measure < 0 (only for signed cell kinds)
  int num_degenerate = 0;  // |measure| <= 1e-12 * bbox_diagonal^(cell dimension)
  int num_surface_faces = 0, num_surface_edges = 0, num_surface_vertices = 0;
};

// Statistics of a mesh whose indices are in range (call validate_mesh first on untrusted data).
MeshReport inspect_mesh(const Mesh& mesh);

// Throws InputError naming `source` if the mesh is empty, has no cells, an unsupported
// shape, a non-finite coordinate, an index out of range, a vertex repeated within a cell, or
// degenerate or inverted cells (then naming the first offending cell and how many there are).
// 3D triangle meshes (shells) have no orientation: only degenerate triangles are errors.
void validate_mesh(const Mesh& mesh, const std::string& source);

}  // namespace softsim
