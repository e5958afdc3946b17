#include "softsim/mesh/generators.hpp"

#include <Eigen/Geometry>
#include <Eigen/LU>
#include <array>
#include <string>
#include <vector>

#include "softsim/core/errors.hpp"

namespace softsim {

namespace {

void require_positive(const Eigen::VectorXd& size, const Eigen::VectorXi& cells, const char* what) {
  for (int d = 0; d < size.size(); ++d) {
    if (!(size[d] > 0) || cells[d] < 1)
      throw InputError(std::string(what) + ": every size must be positive and every cell count at least 1.");
  }
}

Eigen::MatrixXd lattice_3d(const Vec3& size, const Eigen::Vector3i& n) {
  Eigen::MatrixXd V((n.x() + 1) * (n.y() + 1) * (n.z() + 1), 3);
  int row = 0;
  for (int i = 0; i <= n.x(); ++i)
    for (int j = 0; j <= n.y(); ++j)
      for (int k = 0; k <= n.z(); ++k, ++row)
        V.row(row) << -0.5 * size.x() + i * size.x() / n.x(), -0.5 * size.y() + j * size.y() / n.y(),
            -0.5 * size.z() + k * size.z() / n.z();
  return V;
}

Eigen::MatrixXd lattice_2d(const Vec2& size, const Eigen::Vector2i& n) {
  Eigen::MatrixXd V((n.x() + 1) * (n.y() + 1), 2);
  for (int i = 0; i <= n.x(); ++i)
    for (int j = 0; j <= n.y(); ++j)
      V.row(i * (n.y() + 1) + j) << -0.5 * size.x() + i * size.x() / n.x(), -0.5 * size.y() + j * size.y() / n.y();
  return V;
}

Eigen::MatrixXi to_matrix(const std::vector<std::array<int, 4>>& rows, int k) {
  Eigen::MatrixXi M(static_cast<Eigen::Index>(rows.size()), k);
  for (size_t r = 0; r < rows.size(); ++r)
    for (int c = 0; c < k; ++c) M(static_cast<Eigen::Index>(r), c) = rows[r][c];
  return M;
}

}  // namespace

namespace {

// The box lattice's cells for which keep(i, j, k) holds, each split into 5 tets (see
// generate_box); unused lattice vertices are dropped and the rest renumbered in lattice order.
template <class Keep>
Mesh lattice_tets(const Vec3& size, const Eigen::Vector3i& n, Keep keep) {
  const Eigen::MatrixXd lattice = lattice_3d(size, n);
  auto id = [&](int i, int j, int k) { return (i * (n.y() + 1) + j) * (n.z() + 1) + k; };
  std::vector<std::array<int, 4>> tets;
  tets.reserve(5 * static_cast<size_t>(n.x()) * n.y() * n.z());
  for (int i = 0; i < n.x(); ++i)
    for (int j = 0; j < n.y(); ++j)
      for (int k = 0; k < n.z(); ++k) {
        if (!keep(i, j, k)) continue;
        // Corners whose global index parity (i+a + j+b + k+c) is even form the central tet;
        // each odd corner with its three (even) neighbours forms a corner tet. Face diagonals
        // then always join globally even vertices, so neighbouring cubes agree.
        std::vector<std::array<int, 3>> even, odd;
        for (int a = 0; a < 2; ++a)
          for (int b = 0; b < 2; ++b)
            for (int c = 0; c < 2; ++c)
              (((i + a + j + b + k + c) % 2 == 0) ? even : odd).push_back({a, b, c});
        auto vid = [&](const std::array<int, 3>& l) { return id(i + l[0], j + l[1], k + l[2]); };
        auto add = [&](std::array<int, 4> t) {
          const Vec3 p0 = lattice.row(t[0]).transpose();
          Mat3 E;
          for (int q = 0; q < 3; ++q) E.col(q) = lattice.row(t[q + 1]).transpose() - p0;
          if (E.determinant() < 0) std::swap(t[2], t[3]);
          tets.push_back(t);
        };
        add({vid(even[0]), vid(even[1]), vid(even[2]), vid(even[3])});
        for (const auto& corner : odd) {
          std::array<int, 4> t{vid(corner), 0, 0, 0};
          int q = 1;
          for (const auto& e : even) {
            const int dist = std::abs(e[0] - corner[0]) + std::abs(e[1] - corner[1]) + std::abs(e[2] - corner[2]);
            if (dist == 1) t[q++] = vid(e);
          }
          add(t);
        }
      }
  std::vector<int> new_id(static_cast<size_t>(lattice.rows()), -1);
  for (const auto& t : tets)
    for (int v : t) new_id[static_cast<size_t>(v)] = 0;
  int used = 0;
  for (int& v : new_id)
    if (v == 0) v = used++;
  Mesh mesh;
  mesh.vertices.resize(used, 3);
  for (Eigen::Index v = 0; v < lattice.rows(); ++v)
    if (new_id[static_cast<size_t>(v)] >= 0) mesh.vertices.row(new_id[static_cast<size_t>(v)]) = lattice.row(v);
  for (auto& t : tets)
    for (int& v : t) v = new_id[static_cast<size_t>(v)];
  mesh.cells = to_matrix(tets, 4);
  return mesh;
}

}  // namespace

Mesh generate_box(const Vec3& size, const Eigen::Vector3i& n) {
  require_positive(size, n, "generate_box");
  return lattice_tets(size, n, [](int, int, int) { return true; });
}

Mesh generate_hollow_box(const Vec3& size, const Eigen::Vector3i& n, int wall) {
  require_positive(size, n, "generate_hollow_box");
  if (wall < 1 || (n.array() <= 2 * wall).any())
    throw InputError("generate_hollow_box: the wall must be at least one cell thick and leave at least one cell of "
                     "cavity along every axis (resolution > 2 x wall).");
  auto in_cavity = [&](int c, int axis) { return c >= wall && c < n[axis] - wall; };
  return lattice_tets(size, n, [&](int i, int j, int k) {
    return !(in_cavity(i, 0) && in_cavity(j, 1) && in_cavity(k, 2));
  });
}

Mesh generate_rectangle(const Vec2& size, const Eigen::Vector2i& n) {
  require_positive(size, n, "generate_rectangle");
  Mesh mesh;
  mesh.vertices = lattice_2d(size, n);
  const int ny1 = n.y() + 1;
  std::vector<std::array<int, 4>> tris;
  for (int i = 0; i < n.x(); ++i)
    for (int j = 0; j < n.y(); ++j) {
      const int v00 = i * ny1 + j, v10 = (i + 1) * ny1 + j, v01 = i * ny1 + j + 1, v11 = (i + 1) * ny1 + j + 1;
      if ((i % 2) ^ (j % 2)) {
        tris.push_back({v00, v10, v01, 0});
        tris.push_back({v10, v11, v01, 0});
      } else {
        tris.push_back({v00, v10, v11, 0});
        tris.push_back({v00, v11, v01, 0});
      }
    }
  mesh.cells = to_matrix(tris, 3);
  return mesh;
}

Mesh generate_spring_grid(const Vec2& size, const Eigen::Vector2i& n) {
  require_positive(size, n, "generate_spring_grid");
  Mesh mesh;
  mesh.vertices = lattice_2d(size, n);
  const int ny1 = n.y() + 1;
  std::vector<std::array<int, 4>> edges;
  for (int i = 0; i < n.x(); ++i)
    for (int j = 0; j <= n.y(); ++j) edges.push_back({i * ny1 + j, (i + 1) * ny1 + j, 0, 0});
  for (int i = 0; i <= n.x(); ++i)
    for (int j = 0; j < n.y(); ++j) edges.push_back({i * ny1 + j, i * ny1 + j + 1, 0, 0});
  for (int i = 0; i < n.x(); ++i)
    for (int j = 0; j < n.y(); ++j) {
      edges.push_back({i * ny1 + j, (i + 1) * ny1 + j + 1, 0, 0});
      edges.push_back({(i + 1) * ny1 + j, i * ny1 + j + 1, 0, 0});
    }
  mesh.cells = to_matrix(edges, 2);
  return mesh;
}

Mesh generate_spring_box(const Vec3& size, const Eigen::Vector3i& n) {
  require_positive(size, n, "generate_spring_box");
  Mesh mesh;
  mesh.vertices = lattice_3d(size, n);
  auto id = [&](int i, int j, int k) { return (i * (n.y() + 1) + j) * (n.z() + 1) + k; };
  auto inside = [&](int i, int j, int k) {
    return i >= 0 && j >= 0 && k >= 0 && i <= n.x() && j <= n.y() && k <= n.z();
  };
  std::vector<std::array<int, 4>> edges;
  // Every lattice offset (a, b, c) with entries in {-1, 0, 1}, taken once per unordered pair:
  // 3 axis directions, 6 face diagonals, 4 body diagonals.
  std::vector<std::array<int, 3>> offsets;
  for (int a = -1; a <= 1; ++a)
    for (int b = -1; b <= 1; ++b)
      for (int c = -1; c <= 1; ++c) {
        const std::array<int, 3> o{a, b, c};
        // keep the lexicographically positive representative of {o, -o}
        if (a > 0 || (a == 0 && b > 0) || (a == 0 && b == 0 && c > 0)) offsets.push_back(o);
      }
  for (const auto& o : offsets)
    for (int i = 0; i <= n.x(); ++i)
      for (int j = 0; j <= n.y(); ++j)
        for (int k = 0; k <= n.z(); ++k)
          if (inside(i + o[0], j + o[1], k + o[2]))
            edges.push_back({id(i, j, k), id(i + o[0], j + o[1], k + o[2]), 0, 0});
  mesh.cells = to_matrix(edges, 2);
  return mesh;
}

}  // namespace softsim
