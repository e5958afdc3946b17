#include "softsim/mesh/surface.hpp"

#include <algorithm>
#include <array>

#include "softsim/mesh/measure.hpp"

namespace softsim {

namespace {

template <size_t K>
Eigen::MatrixXi rows_to_matrix(const std::vector<std::array<int, K>>& rows) {
  Eigen::MatrixXi M(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(K));
  for (size_t r = 0; r < rows.size(); ++r)
    for (size_t c = 0; c < K; ++c) M(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = rows[r][c];
  return M;
}

std::vector<int> vertices_of(const Eigen::MatrixXi& elements) {
  std::vector<int> v(elements.data(), elements.data() + elements.size());
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// Keeps the oriented simplices (faces or edges) whose vertex set occurs exactly once, in the
// order in which they were generated.
template <size_t K>
std::vector<std::array<int, K>> used_once(const std::vector<std::array<int, K>>& oriented) {
  std::vector<std::pair<std::array<int, K>, size_t>> keyed(oriented.size());
  for (size_t i = 0; i < oriented.size(); ++i) {
    auto key = oriented[i];
    std::sort(key.begin(), key.end());
    keyed[i] = {key, i};
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<size_t> keep;
  for (size_t i = 0; i < keyed.size();) {
    size_t j = i + 1;
    while (j < keyed.size() && keyed[j].first == keyed[i].first) ++j;
    if (j == i + 1) keep.push_back(keyed[i].second);
    i = j;
  }
  std::sort(keep.begin(), keep.end());
  std::vector<std::array<int, K>> out;
  out.reserve(keep.size());
  for (size_t i : keep) out.push_back(oriented[i]);
  return out;
}

}  // namespace

Eigen::MatrixXi unique_edges(const Eigen::MatrixXi& cells) {
  std::vector<std::array<int, 2>> edges;
  const int k = static_cast<int>(cells.cols());
  edges.reserve(static_cast<size_t>(cells.rows()) * k * (k - 1) / 2);
  for (Eigen::Index c = 0; c < cells.rows(); ++c)
    for (int a = 0; a < k; ++a)
      for (int b = a + 1; b < k; ++b)
        edges.push_back({std::min(cells(c, a), cells(c, b)), std::max(cells(c, a), cells(c, b))});
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  return rows_to_matrix(edges);
}

Eigen::MatrixXi unique_edges(const Mesh& mesh) { return unique_edges(mesh.cells); }

Surface extract_surface(const Mesh& mesh) {
  Surface s;
  const int k = static_cast<int>(mesh.cells.cols());
  if (k == 4) {
    static constexpr int local[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};
    std::vector<std::array<int, 3>> faces;
    faces.reserve(static_cast<size_t>(mesh.num_cells()) * 4);
    for (int c = 0; c < mesh.num_cells(); ++c) {
      const bool flip = cell_measure(mesh, c) < 0;
      for (const auto& f : local) {
        std::array<int, 3> face{mesh.cells(c, f[0]), mesh.cells(c, f[1]), mesh.cells(c, f[2])};
        if (flip) std::swap(face[1], face[2]);
        faces.push_back(face);
      }
    }
    s.faces = rows_to_matrix(used_once(faces));
    s.edges = unique_edges(s.faces);
    s.vertices = vertices_of(s.faces);
  } else if (k == 3 && mesh.dim() == 2) {
    std::vector<std::array<int, 2>> edges;
    edges.reserve(static_cast<size_t>(mesh.num_cells()) * 3);
    for (int c = 0; c < mesh.num_cells(); ++c) {
      const bool flip = cell_measure(mesh, c) < 0;
      for (int a = 0; a < 3; ++a) {
        std::array<int, 2> e{mesh.cells(c, a), mesh.cells(c, (a + 1) % 3)};
        if (flip) std::swap(e[0], e[1]);
        edges.push_back(e);
      }
    }
    s.faces.resize(0, 3);
    s.edges = rows_to_matrix(used_once(edges));
    s.vertices = vertices_of(s.edges);
  } else if (k == 3) {
    s.faces = mesh.cells;
    s.edges = unique_edges(mesh.cells);
    s.vertices = vertices_of(mesh.cells);
  } else {
    s.faces.resize(0, 3);
    s.edges = unique_edges(mesh.cells);
    s.vertices = vertices_of(mesh.cells);
  }
  return s;
}

}  // namespace softsim
