#include "softsim/io/read_mesh.hpp"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

#include "softsim/core/errors.hpp"
#include "softsim/io/parse_buffer.hpp"
#include "softsim/io/readers.hpp"

namespace softsim {

namespace {

void reduce_to_2d(Mesh& mesh, const std::string& name) {
  if (mesh.cells.cols() == 4)
    throw InputError(fmt::format("{}: the mesh has tetrahedra, but the scene is 2D.", name));
  if (mesh.dim() != 3) return;
  const double scale = std::max(1.0, mesh.vertices.size() ? mesh.vertices.cwiseAbs().maxCoeff() : 0.0);
  for (int v = 0; v < mesh.num_vertices(); ++v)
    if (std::abs(mesh.vertices(v, 2)) > 1e-12 * scale)
      throw InputError(fmt::format("{}: vertex {} has z = {} but the scene is 2D (z must be 0).", name, v,
                                   mesh.vertices(v, 2)));
  mesh.vertices = Eigen::MatrixXd(mesh.vertices.leftCols(2));
}

void check_structure(const Mesh& mesh, const std::string& name) {
  for (int v = 0; v < mesh.num_vertices(); ++v)
    if (!mesh.vertices.row(v).allFinite())
      throw InputError(fmt::format("{}: vertex {} has a non-finite coordinate.", name, v));
  for (int c = 0; c < mesh.num_cells(); ++c)
    for (int q = 0; q < mesh.cells.cols(); ++q)
      if (mesh.cells(c, q) < 0 || mesh.cells(c, q) >= mesh.num_vertices())
        throw InputError(fmt::format("{}: cell {} refers to vertex {}, but there are {} vertices (0-based).", name, c,
                                     mesh.cells(c, q), mesh.num_vertices()));
}


std::string lower_extension(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

void check_arguments(const std::string& ext, const std::string& shown, int dim_hint) {
  if (dim_hint != 2 && dim_hint != 3)
    throw InputError(fmt::format("{}: the scene dimension must be 2 or 3, got {}.", shown, dim_hint));
  const bool known = ext == ".msh" || ext == ".node" || ext == ".ele" || ext == ".obj" || ext == ".ply" || ext == ".mesh" ||
                     ext == ".stl";
  if (!known)
    throw InputError(fmt::format("{}: unknown mesh format '{}' (expected .msh, .node, .ele, .obj, .ply, .stl or .mesh).",
                                 shown, ext));
}

Mesh parse(io_detail::ParseBuffer& buffer, const std::string& ext) {
  if (ext == ".msh") return io_detail::read_msh(buffer);
  if (ext == ".obj") return io_detail::read_obj(buffer);
  if (ext == ".ply") return io_detail::read_ply(buffer);
  if (ext == ".stl") return io_detail::read_stl(buffer);
  return io_detail::read_medit(buffer);
}

void finish(Mesh& mesh, const std::string& name, int dim_hint) {
  check_structure(mesh, name);
  if (dim_hint == 2) reduce_to_2d(mesh, name);
}

}  // namespace

Mesh read_mesh(const std::filesystem::path& path, int dim_hint) {
  const std::string ext = lower_extension(path);
  check_arguments(ext, path.string(), dim_hint);
  Mesh mesh;
  if (ext == ".node" || ext == ".ele") {
    mesh = io_detail::read_tetgen(path);
  } else {
    io_detail::ParseBuffer buffer = io_detail::ParseBuffer::from_file(path);
    mesh = parse(buffer, ext);
  }
  finish(mesh, path.filename().string(), dim_hint);
  return mesh;
}

Mesh read_mesh_from_memory(std::string bytes, const std::string& name, int dim_hint) {
  const std::string ext = lower_extension(name);
  check_arguments(ext, name, dim_hint);
  if (ext == ".node" || ext == ".ele")
    throw InputError(fmt::format("{}: TetGen meshes can only be read from files.", name));
  io_detail::ParseBuffer buffer(std::move(bytes), std::filesystem::path(name).filename().string());
  Mesh mesh = parse(buffer, ext);
  finish(mesh, buffer.name(), dim_hint);
  return mesh;
}

}  // namespace softsim
