#pragma once
// What read_mesh promises about a mesh it returns (read_mesh.hpp): indices in range, finite
// coordinates, as many columns as the scene has dimensions, one tag per cell if any.
#include "fuzz_support.hpp"
#include "softsim/mesh/mesh.hpp"

namespace softsim::fuzz {

inline void check_mesh_contract(const Mesh& mesh, int dim_hint) {
  if (mesh.vertices.cols() != dim_hint) contract_violated("vertex columns differ from the scene dimension");
  if (!mesh.vertices.allFinite()) contract_violated("non-finite coordinate");
  for (Eigen::Index c = 0; c < mesh.cells.rows(); ++c)
    for (Eigen::Index q = 0; q < mesh.cells.cols(); ++q)
      if (mesh.cells(c, q) < 0 || mesh.cells(c, q) >= mesh.vertices.rows()) contract_violated("cell index out of range");
  if (!mesh.cell_tags.empty() && mesh.cell_tags.size() != static_cast<size_t>(mesh.cells.rows()))
    contract_violated("cell tags do not match the cells");
}

}  // namespace softsim::fuzz
