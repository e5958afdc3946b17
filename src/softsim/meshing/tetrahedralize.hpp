#pragma once
// A tetrahedral mesh of the solid a closed triangle surface bounds (docs/meshing.md): the
// surface is checked (surface_checks.hpp), then meshed by TetGen (Si 2015) as a piecewise linear
// complex with a quality bound and an optional size bound.
#include <optional>
#include <string>

#include "softsim/mesh/mesh.hpp"

namespace softsim {

struct TetrahedralizeOptions {
  // Size bound (give at most one): a target edge length L sets the largest tet volume to that of
  // the regular tetrahedron of edge L, L^3 / (6 sqrt 2); or the largest volume directly. Neither:
  // the quality bound alone decides the size.
  std::optional<double> edge_length;  // m
  std::optional<double> max_volume;   // m^3
  // Quality bound: no tet's circumradius / shortest edge above this (TetGen's radius-edge ratio,
  // 2/sqrt(6) = 0.61 for the regular tet; TetGen needs it >= 1 to end) ...
  double max_radius_edge_ratio = 1.5;
  // ... and no dihedral angle below this (degrees; TetGen reaches about 18 at most).
  double min_dihedral_degrees = 10.0;
  // Keep the input surface's triangles exactly (no point added on it), so the body's boundary is
  // the triangles given; the size and quality bounds then cannot be met near a surface coarser
  // than they ask. By default TetGen may split surface triangles to meet them: the new points lie
  // on the input triangles, so the shape does not change, only its triangulation.
  bool keep_surface = false;
};

// Throws InputError naming `source` when an option is out of range (the message names the
// option as `key_prefix` + its JSON key).
void check_tetrahedralize_options(const TetrahedralizeOptions& options, const std::string& key_prefix);

// Was this build made with a tetrahedral mesher (CMake option SOFTSIM_WITH_TETGEN)?
bool tetrahedralization_available();

// The tets (positively oriented: det[p1-p0, p2-p0, p3-p0] > 0) of the solid `surface` bounds.
// Throws InputError naming `source` when the surface fails its checks, when the build has no
// mesher, or when the mesher gives up (e.g. features below its tolerance). Deterministic: the
// same input gives the same mesh. The result's notes say what was done (faces reoriented, counts,
// time).
Mesh tetrahedralize(Mesh surface, const TetrahedralizeOptions& options, const std::string& source);

}  // namespace softsim
