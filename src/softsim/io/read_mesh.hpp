#pragma once
// Reading a mesh file, whatever its format (chosen by the extension):
//   .msh          gmsh 2.2 / 4.1, ASCII or binary (highest-dimensional simplices, physical tags)
//   .node / .ele  TetGen (the sibling file is found by stem)
//   .obj          Wavefront OBJ (triangulated polygons)
//   .ply          PLY, ASCII or binary (triangulated polygons)
//   .mesh         MEDIT
//   .stl          STL, ASCII or binary (told apart by content), coincident corners welded
// Bad input (missing file, unknown extension, truncated or malformed data) throws InputError
// naming the file and the line (text) or byte offset and section (binary).
#include <filesystem>
#include <string>

#include "softsim/mesh/mesh.hpp"

namespace softsim {

// dim_hint = 2: the scene is planar; every z coordinate must be ~0 (|z| <= 1e-12 * max(1,
// largest |coordinate|)) and the z column is dropped. Tetrahedra are rejected in 2D.
// The returned mesh has indices in range and finite coordinates; geometric checks (inverted,
// degenerate cells) are validate_mesh's job.
Mesh read_mesh(const std::filesystem::path& path, int dim_hint = 3);

// The same from bytes already in memory; `name` (used in messages) chooses the format by its
// extension. TetGen (two files) is not available this way.
Mesh read_mesh_from_memory(std::string bytes, const std::string& name, int dim_hint = 3);

}  // namespace softsim
