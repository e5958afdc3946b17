#pragma once
// ParaView output: one VTK XML UnstructuredGrid (.vtu, ASCII) per frame and a .pvd collection
// listing the frames with their times. Written atomically; RunError if the file cannot be
// written or the data do not match the mesh.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "softsim/mesh/mesh.hpp"

namespace softsim {

using VtuFields = std::map<std::string, Eigen::MatrixXd>;  // name -> rows x components

// positions: n x 2 or n x 3 (2D padded with z = 0) for the n vertices of reference_topology;
// point_data rows = n, cell_data rows = number of cells. VTK cell types: 1 vertex (cells of one
// vertex each: a point cloud), 3 line, 5 triangle, 10 tetrahedron. Floats are written in
// shortest round-trip form.
void write_vtu(const std::filesystem::path& path, const Mesh& reference_topology, const Eigen::MatrixXd& positions,
               const VtuFields& point_data = {}, const VtuFields& cell_data = {});

struct PvdEntry {
  double time = 0.0;
  std::string file;  // relative to the .pvd's folder
  int part = 0;      // one part per body: several datasets at the same time step
};

void write_pvd(const std::filesystem::path& path, const std::vector<PvdEntry>& entries);

}  // namespace softsim

namespace softsim {

// The points of a .vtu that softsim wrote (ASCII Points, 3 components): n x 3. InputError naming
// the file and line when it is missing, not such a file, or its numbers are bad.
Eigen::MatrixXd read_vtu_points(const std::filesystem::path& path);

}  // namespace softsim
