#include <cstdint>
#include <fmt/format.h>
#include <map>
#include <ostream>

#include "softsim/core/errors.hpp"
#include "softsim/io/atomic_file.hpp"
#include "softsim/io/write_mesh.hpp"

namespace softsim {

namespace {

int gmsh_type(const Mesh& mesh) {
  switch (mesh.cells.cols()) {
    case 2: return 1;
    case 3: return 2;
    case 4: return 4;
    default: throw RunError(fmt::format("cannot write cells with {} vertices to gmsh", mesh.cells.cols()));
  }
}

double coord(const Mesh& mesh, int v, int c) { return c < mesh.dim() ? mesh.vertices(v, c) : 0.0; }

void check_tags(const Mesh& mesh) {
  if (!mesh.cell_tags.empty() && static_cast<int>(mesh.cell_tags.size()) != mesh.num_cells())
    throw RunError(fmt::format("cannot write a mesh with {} cell tags for {} cells", mesh.cell_tags.size(), mesh.num_cells()));
}

template <class T>
void put(std::ostream& out, T value) {
  out.write(reinterpret_cast<const char*>(&value), sizeof(T));
}

}  // namespace

void write_msh41_ascii(const std::filesystem::path& path, const Mesh& mesh) {
  check_tags(mesh);
  const int type = gmsh_type(mesh);
  const int edim = static_cast<int>(mesh.cells.cols()) - 1;
  const bool tagged = !mesh.cell_tags.empty();
  // One entity of dimension edim per distinct tag (physical group = the tag); one element
  // block per run of equal tags, so the cell order is kept.
  std::map<int, int> entity_of_tag;
  if (tagged)
    for (int t : mesh.cell_tags) entity_of_tag.emplace(t, 0);
  else
    entity_of_tag.emplace(0, 0);
  int next = 1;
  for (auto& [tag, entity] : entity_of_tag) entity = next++;
  const int first_entity = entity_of_tag.begin()->second;
  int runs = 0;
  for (int c = 0; c < mesh.num_cells(); ++c)
    if (c == 0 || (tagged && mesh.cell_tags[c] != mesh.cell_tags[c - 1])) ++runs;
  write_file_atomically(path, [&](std::ostream& out) {
    out << "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Entities\n";
    int counts[4] = {0, 0, 0, 0};
    counts[edim] = static_cast<int>(entity_of_tag.size());
    out << fmt::format("{} {} {} {}\n", counts[0], counts[1], counts[2], counts[3]);
    for (const auto& [tag, entity] : entity_of_tag) {
      out << fmt::format("{} 0 0 0 0 0 0", entity);
      out << (tagged ? fmt::format(" 1 {}", tag) : std::string(" 0")) << " 0\n";
    }
    out << "$EndEntities\n$Nodes\n";
    const int n = mesh.num_vertices();
    out << fmt::format("1 {} 1 {}\n{} {} 0 {}\n", n, n, edim, first_entity, n);
    for (int v = 0; v < n; ++v) out << v + 1 << '\n';
    for (int v = 0; v < n; ++v) out << fmt::format("{} {} {}\n", coord(mesh, v, 0), coord(mesh, v, 1), coord(mesh, v, 2));
    out << "$EndNodes\n$Elements\n";
    out << fmt::format("{} {} 1 {}\n", runs, mesh.num_cells(), mesh.num_cells());
    for (int start = 0; start < mesh.num_cells();) {
      int end = start + 1;
      while (end < mesh.num_cells() && tagged && mesh.cell_tags[end] == mesh.cell_tags[start]) ++end;
      if (!tagged) end = mesh.num_cells();
      const int entity = entity_of_tag.at(tagged ? mesh.cell_tags[start] : 0);
      out << fmt::format("{} {} {} {}\n", edim, entity, type, end - start);
      for (int c = start; c < end; ++c) {
        out << c + 1;
        for (int q = 0; q < mesh.cells.cols(); ++q) out << ' ' << mesh.cells(c, q) + 1;
        out << '\n';
      }
      start = end;
    }
    out << "$EndElements\n";
  });
}

void write_msh22_ascii(const std::filesystem::path& path, const Mesh& mesh) {
  check_tags(mesh);
  const int type = gmsh_type(mesh);
  write_file_atomically(path, [&](std::ostream& out) {
    out << "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n" << mesh.num_vertices() << '\n';
    for (int v = 0; v < mesh.num_vertices(); ++v)
      out << fmt::format("{} {} {} {}\n", v + 1, coord(mesh, v, 0), coord(mesh, v, 1), coord(mesh, v, 2));
    out << "$EndNodes\n$Elements\n" << mesh.num_cells() << '\n';
    for (int c = 0; c < mesh.num_cells(); ++c) {
      out << c + 1 << ' ' << type;
      if (mesh.cell_tags.empty()) out << " 0";
      else out << " 2 " << mesh.cell_tags[c] << ' ' << mesh.cell_tags[c];
      for (int q = 0; q < mesh.cells.cols(); ++q) out << ' ' << mesh.cells(c, q) + 1;
      out << '\n';
    }
    out << "$EndElements\n";
  });
}

void write_msh22_binary(const std::filesystem::path& path, const Mesh& mesh) {
  check_tags(mesh);
  const int type = gmsh_type(mesh);
  const bool tagged = !mesh.cell_tags.empty();
  write_file_atomically(path, [&](std::ostream& out) {
    out << "$MeshFormat\n2.2 1 8\n";
    put<std::int32_t>(out, 1);
    out << "\n$EndMeshFormat\n$Nodes\n" << mesh.num_vertices() << '\n';
    for (int v = 0; v < mesh.num_vertices(); ++v) {
      put<std::int32_t>(out, v + 1);
      for (int c = 0; c < 3; ++c) put<double>(out, coord(mesh, v, c));
    }
    out << "\n$EndNodes\n$Elements\n" << mesh.num_cells() << '\n';
    if (mesh.num_cells() > 0) {
      put<std::int32_t>(out, type);
      put<std::int32_t>(out, mesh.num_cells());
      put<std::int32_t>(out, tagged ? 2 : 0);
      for (int c = 0; c < mesh.num_cells(); ++c) {
        put<std::int32_t>(out, c + 1);
        if (tagged) {
          put<std::int32_t>(out, mesh.cell_tags[c]);
          put<std::int32_t>(out, mesh.cell_tags[c]);
        }
        for (int q = 0; q < mesh.cells.cols(); ++q) put<std::int32_t>(out, mesh.cells(c, q) + 1);
      }
    }
    out << "\n$EndElements\n";
  });
}

}  // namespace softsim
