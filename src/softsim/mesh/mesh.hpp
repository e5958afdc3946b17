#pragma once
// A simplicial mesh: vertices (n x dim, one row per vertex) and cells of one kind.
#include <string>
#include <vector>

#include "softsim/core/types.hpp"

namespace softsim {

enum class CellType { Edge = 2, Triangle = 3, Tetrahedron = 4 };

struct Mesh {
  Eigen::MatrixXd vertices;  // n x dim, dim = 2 or 3
  Eigen::MatrixXi cells;     // m x k, k = 2 (edges), 3 (triangles) or 4 (tetrahedra), 0-based
  std::vector<int> cell_tags;  // optional physical/region tag per cell (empty when absent)
  // What was done to the file's data on the way in (e.g. an STL's corners welded), one sentence
  // each, for reports (softsim info, scene warnings).
  std::vector<std::string> notes;

  int dim() const { return static_cast<int>(vertices.cols()); }
  int num_vertices() const { return static_cast<int>(vertices.rows()); }
  int num_cells() const { return static_cast<int>(cells.rows()); }
  CellType cell_type() const { return static_cast<CellType>(cells.cols()); }
};

std::string to_string(CellType type);

}  // namespace softsim
