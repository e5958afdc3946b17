#pragma once
// The format readers behind read_mesh (one file each). Vertices come back with 3 columns
// (read_mesh reduces them to 2 for a 2D scene); cells 0-based.
#include <filesystem>

#include "softsim/mesh/mesh.hpp"

namespace softsim::io_detail {

class ParseBuffer;

Mesh read_msh(ParseBuffer& file);                     // gmsh 2.2 / 4.1, ASCII / binary
Mesh read_tetgen(const std::filesystem::path& path);  // .node + .ele (either given)
Mesh read_obj(ParseBuffer& file);                     // v / f, fan-triangulated
Mesh read_ply(ParseBuffer& file);                     // ASCII / binary little- or big-endian
Mesh read_medit(ParseBuffer& file);                   // MEDIT .mesh
Mesh read_stl(ParseBuffer& file);                     // ASCII / binary, corners welded

}  // namespace softsim::io_detail
