#pragma once
// Per-cell geometry shared by quality checks, surface extraction and tests: signed measure
// (tet volume, 2D triangle area with counter-clockwise positive), edge lengths, bounding box.
#include "softsim/mesh/mesh.hpp"

namespace softsim {

// True when the cell measure carries an orientation sign: tetrahedra in 3D and triangles in
// 2D. Triangles in 3D (shells) and edges have only a magnitude.
bool cell_measure_is_signed(const Mesh& mesh);

// Tetrahedron: det[p1-p0, p2-p0, p3-p0] / 6. 2D triangle: signed area (ccw > 0).
// 3D triangle: area (>= 0). Edge: length.
double cell_measure(const Mesh& mesh, int cell);

// Aspect ratio normalised to 1 for the regular simplex: tetrahedron longest edge /
// (2 sqrt(6) inradius), triangle longest edge / (2 sqrt(3) inradius), edge 1.
// Returns +infinity for a degenerate cell.
double cell_aspect_ratio(const Mesh& mesh, int cell);

struct BoundingBox {
  Eigen::VectorXd min, max;  // dim entries each; empty for a mesh without vertices
  double diagonal() const { return min.size() ? (max - min).norm() : 0.0; }
};
BoundingBox bounding_box(const Eigen::MatrixXd& vertices);

// Tolerance below which |measure| counts as degenerate: 1e-12 * bbox_diagonal^d, where d is
// the cell's own dimension (3 tets, 2 triangles, 1 edges).
double degenerate_measure_tolerance(const Mesh& mesh);

}  // namespace softsim
