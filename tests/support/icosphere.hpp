#pragma once
// Closed triangle surfaces made by the tests (header-only): the icosphere of radius r (an
// icosahedron whose faces are split in four `level` times, new points pushed onto the sphere),
// outward-oriented, and writers of a surface as OBJ and as ASCII / binary STL.
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "softsim/mesh/mesh.hpp"

namespace softsim::test {

inline Mesh icosphere(int level, double radius = 1.0, const Eigen::Vector3d& centre = Eigen::Vector3d::Zero()) {
  const double t = (1.0 + std::sqrt(5.0)) / 2.0;
  std::vector<Eigen::Vector3d> p = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t},
                                    {0, -1, -t}, {0, 1, -t}, {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
  for (auto& x : p) x.normalize();
  std::vector<std::array<int, 3>> f = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                                       {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                                       {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                                       {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  for (int l = 0; l < level; ++l) {
    std::map<std::pair<int, int>, int> middle;
    const auto mid = [&](int a, int b) {
      const auto key = std::minmax(a, b);
      const auto it = middle.find(key);
      if (it != middle.end()) return it->second;
      p.push_back((p[a] + p[b]).normalized());
      return middle[key] = static_cast<int>(p.size()) - 1;
    };
    std::vector<std::array<int, 3>> next;
    for (const auto& [a, b, c] : f) {
      const int ab = mid(a, b), bc = mid(b, c), ca = mid(c, a);
      next.insert(next.end(), {{a, ab, ca}, {b, bc, ab}, {c, ca, bc}, {ab, bc, ca}});
    }
    f = std::move(next);
  }
  Mesh m;
  m.vertices.resize(static_cast<Eigen::Index>(p.size()), 3);
  for (std::size_t i = 0; i < p.size(); ++i) m.vertices.row(static_cast<Eigen::Index>(i)) = (centre + radius * p[i]).transpose();
  m.cells.resize(static_cast<Eigen::Index>(f.size()), 3);
  for (std::size_t i = 0; i < f.size(); ++i)
    for (int c = 0; c < 3; ++c) m.cells(static_cast<Eigen::Index>(i), c) = f[i][c];
  return m;
}

inline void write_obj_surface(const std::filesystem::path& path, const Mesh& m) {
  std::ofstream out(path);
  for (Eigen::Index v = 0; v < m.vertices.rows(); ++v)
    out << fmt::format("v {:.17g} {:.17g} {:.17g}\n", m.vertices(v, 0), m.vertices(v, 1), m.vertices(v, 2));
  for (Eigen::Index f = 0; f < m.cells.rows(); ++f)
    out << fmt::format("f {} {} {}\n", m.cells(f, 0) + 1, m.cells(f, 1) + 1, m.cells(f, 2) + 1);
}

// Coordinates are rounded to float, as binary STL stores them; the ASCII file prints those floats
// exactly (17 significant digits of the float's value), so both files hold the same numbers.
inline void write_stl_surface(const std::filesystem::path& path, const Mesh& m, bool binary,
                              const std::string& header = "softsim test surface") {
  if (binary) {
    std::ofstream out(path, std::ios::binary);
    char head[80] = {};
    std::memcpy(head, header.data(), std::min<std::size_t>(header.size(), 80));
    out.write(head, 80);
    const std::uint32_t n = static_cast<std::uint32_t>(m.cells.rows());
    out.write(reinterpret_cast<const char*>(&n), 4);
    for (Eigen::Index f = 0; f < m.cells.rows(); ++f) {
      const float normal[3] = {0, 0, 0};
      out.write(reinterpret_cast<const char*>(normal), 12);
      for (int c = 0; c < 3; ++c)
        for (int d = 0; d < 3; ++d) {
          const float x = static_cast<float>(m.vertices(m.cells(f, c), d));
          out.write(reinterpret_cast<const char*>(&x), 4);
        }
      const std::uint16_t attribute = 0;
      out.write(reinterpret_cast<const char*>(&attribute), 2);
    }
    return;
  }
  std::ofstream out(path);
  out << "solid " << header << "\n";
  for (Eigen::Index f = 0; f < m.cells.rows(); ++f) {
    out << "  facet normal 0 0 0\n    outer loop\n";
    for (int c = 0; c < 3; ++c) {
      out << "      vertex";
      for (int d = 0; d < 3; ++d)
        out << fmt::format(" {:.17g}", static_cast<double>(static_cast<float>(m.vertices(m.cells(f, c), d))));
      out << "\n";
    }
    out << "    endloop\n  endfacet\n";
  }
  out << "endsolid " << header << "\n";
}

}  // namespace softsim::test
