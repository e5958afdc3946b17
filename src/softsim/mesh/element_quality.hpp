#pragma once
// Shape quality of simplices, for reports and warnings: the minimum dihedral angle (tets) or
// angle (triangles), which bounds how ill-conditioned an element's stiffness is (Shewchuk 2002),
// and the radius ratio, d r_in / R_circ (1 for the regular simplex, 0 when flat).
#include <string>
#include <vector>

#include "softsim/mesh/mesh.hpp"

namespace softsim {

// Per cell: smallest dihedral angle of a tetrahedron, smallest angle of a triangle (degrees; 0
// for a degenerate cell). Tets and triangles only (2D or 3D).
double min_angle_degrees(const Mesh& mesh, int cell);
// Per cell: 3 r_in / R_circ (tets), 2 r_in / R_circ (triangles); 0 for a degenerate cell.
double radius_ratio(const Mesh& mesh, int cell);

struct Histogram {
  std::vector<double> bin_edges;  // k + 1 increasing edges for k bins; the last bin is closed
  std::vector<int> counts;        // k
};

struct QualitySummary {
  bool has_quality = false;  // false for edge meshes
  std::string angle_name;    // "minimum dihedral angle" (tets) or "minimum angle" (triangles)
  double worst_angle = 0.0, mean_angle = 0.0;  // degrees
  int worst_angle_cell = -1;
  double worst_radius_ratio = 0.0, mean_radius_ratio = 0.0;
  int worst_radius_ratio_cell = -1;
  Histogram angle_histogram;         // degrees, bins 0, 5, 10, 20, 30, 40, 50, 60, 70.53 (tets) / 90 (triangles)
  Histogram radius_ratio_histogram;  // bins of 0.1 from 0 to 1
};

QualitySummary summarize_quality(const Mesh& mesh);

// Below this smallest angle an element is a sliver or needle whose stiffness makes the Newton
// systems ill-conditioned (Shewchuk 2002): scenes warn about such bodies. TetGen's quality meshes
// have their worst dihedral angle between 5 and 8 degrees (docs/meshing.md), clear of it.
inline constexpr double kPoorElementAngleDegrees = 3.0;

// The text report of softsim info: one line per bin with a bar.
std::string format_histogram(const Histogram& h, const std::string& title, int decimals);

}  // namespace softsim
