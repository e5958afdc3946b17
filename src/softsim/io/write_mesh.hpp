#pragma once
// Mesh writers (each writes atomically, see atomic_file.hpp, and throws RunError when the file
// cannot be written). Coordinates are printed in shortest round-trip form, so reading a file
// back gives the same doubles. 2D vertices are written with z = 0. cell_tags, when present,
// are written as physical tags (gmsh) or element attributes (TetGen).
#include <filesystem>

#include "softsim/mesh/mesh.hpp"

namespace softsim {

void write_msh41_ascii(const std::filesystem::path& path, const Mesh& mesh);
void write_msh22_ascii(const std::filesystem::path& path, const Mesh& mesh);
// gmsh 2.2 binary, native (little-endian on every supported machine) byte order.
void write_msh22_binary(const std::filesystem::path& path, const Mesh& mesh);

// TetGen pair: node_path (".node") and the sibling ".ele"; 1-based numbering. 2D meshes are
// written in Triangle's format (dimension 2, 3 nodes per element).
void write_tetgen(const std::filesystem::path& node_path, const Mesh& mesh);

// Wavefront OBJ with vertices V (n x 2 or n x 3) and faces F (m x 3 or any polygon width,
// 0-based, written 1-based).
void write_obj(const std::filesystem::path& path, const Eigen::MatrixXd& V, const Eigen::MatrixXi& F);

}  // namespace softsim
