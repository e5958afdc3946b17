#pragma once
// Merging coincident vertices: formats that store every face with its own corners (STL) give a
// triangle soup; welding corners that lie within a tolerance of each other restores the shared
// vertices that surface checks, contact and meshing need.
#include "softsim/mesh/mesh.hpp"

namespace softsim {

struct WeldReport {
  int vertices_before = 0;
  int vertices_after = 0;
  double tolerance = 0.0;  // absolute distance (m) under which two vertices were merged
  int merged() const { return vertices_before - vertices_after; }
};

// Merges every vertex that lies within relative_tolerance x bounding-box diagonal of an earlier
// kept vertex into it (a vertex is compared with the kept ones, in index order, so the result
// does not depend on anything but the input), renumbers the cells, and drops nothing else: a
// cell whose corners merged keeps its repeated index for the caller's checks to report.
WeldReport weld_vertices(Mesh& mesh, double relative_tolerance);

}  // namespace softsim
