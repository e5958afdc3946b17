// MEDIT .mesh reader (ASCII): Dimension, Vertices, Edges, Triangles, Tetrahedra and a few
// per-entity keywords that are skipped. Cells are the highest-dimensional simplices present;
// their references become cell_tags when any is non-zero.
#include <array>
#include <fmt/format.h>
#include <vector>

#include "softsim/core/errors.hpp"
#include "softsim/io/parse_buffer.hpp"
#include "softsim/io/readers.hpp"
#include "softsim/io/text_util.hpp"

namespace softsim::io_detail {

Mesh read_medit(ParseBuffer& raw) {
  std::string text = raw.data();
  blank_comments(text);
  ParseBuffer b(std::move(text), raw.name());
  int dim = 3;
  std::vector<double> coords;
  std::array<std::vector<int>, 5> cells;  // by vertices per cell (2, 3, 4)
  std::array<std::vector<int>, 5> refs;
  bool have_vertices = false;
  for (;;) {
    const std::string_view key = b.token();
    if (key.empty() || key == "End") break;
    if (key == "MeshVersionFormatted") {
      b.read_int("the format version");
    } else if (key == "Dimension") {
      const long long d = b.read_int("the dimension");
      if (d != 2 && d != 3) b.fail_line(fmt::format("the dimension must be 2 or 3, got {}", d));
      dim = static_cast<int>(d);
    } else if (key == "Vertices") {
      const size_t n = b.read_count("the number of vertices", 2 * (dim + 1));
      coords.assign(3 * n, 0.0);
      for (size_t i = 0; i < n; ++i) {
        for (int c = 0; c < dim; ++c) coords[3 * i + c] = b.read_double(fmt::format("a coordinate of vertex {}", i + 1));
        b.read_int("a vertex reference");
      }
      have_vertices = true;
    } else if (key == "Edges" || key == "Triangles" || key == "Tetrahedra") {
      if (!have_vertices) b.fail_line(fmt::format("{} comes before Vertices", key));
      const int k = key == "Edges" ? 2 : key == "Triangles" ? 3 : 4;
      const size_t m = b.read_count(fmt::format("the number of {}", key), 2 * (k + 1));
      const long long nv = static_cast<long long>(coords.size() / 3);
      for (size_t e = 0; e < m; ++e) {
        for (int q = 0; q < k; ++q) {
          const long long v = b.read_int(fmt::format("a vertex of {} entry {}", key, e + 1));
          if (v < 1 || v > nv) b.fail_line(fmt::format("{} entry {} refers to vertex {}, but vertices are numbered 1 to {}", key, e + 1, v, nv));
          cells[k].push_back(static_cast<int>(v - 1));
        }
        refs[k].push_back(static_cast<int>(b.read_int("a reference")));
      }
    } else if (key == "Quadrilaterals" || key == "Hexahedra" || key == "Prisms") {
      const int k = key == "Quadrilaterals" ? 4 : key == "Hexahedra" ? 8 : 6;
      const size_t m = b.read_count(fmt::format("the number of {}", key), 2 * (k + 1));
      if (m > 0) b.fail_line(fmt::format("{} are not supported; use triangles or tetrahedra", key));
    } else if (key == "Corners" || key == "RequiredVertices" || key == "Ridges" || key == "RequiredEdges") {
      const size_t m = b.read_count(fmt::format("the number of {}", key), 2);
      for (size_t e = 0; e < m; ++e) b.read_int(key);
    } else {
      b.fail_line(fmt::format("unsupported keyword '{}'", key.substr(0, 40)));
    }
  }
  if (!have_vertices) b.fail("no Vertices section");
  const int k = !cells[4].empty() ? 4 : !cells[3].empty() ? 3 : !cells[2].empty() ? 2 : 0;
  if (k == 0) b.fail("no Edges, Triangles or Tetrahedra");
  Mesh mesh;
  const Eigen::Index n = static_cast<Eigen::Index>(coords.size() / 3);
  mesh.vertices.resize(n, 3);
  for (Eigen::Index i = 0; i < n; ++i)
    for (int c = 0; c < 3; ++c) mesh.vertices(i, c) = coords[static_cast<size_t>(i) * 3 + c];
  const Eigen::Index m = static_cast<Eigen::Index>(refs[k].size());
  mesh.cells.resize(m, k);
  for (Eigen::Index c = 0; c < m; ++c)
    for (int q = 0; q < k; ++q) mesh.cells(c, q) = cells[k][static_cast<size_t>(c) * k + q];
  for (int r : refs[k])
    if (r != 0) {
      mesh.cell_tags = refs[k];
      break;
    }
  return mesh;
}

}  // namespace softsim::io_detail
