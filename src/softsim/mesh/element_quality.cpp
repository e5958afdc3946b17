#include "softsim/mesh/element_quality.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include <numbers>

namespace softsim {

namespace {

Vec3 point(const Mesh& mesh, int cell, int corner) {
  Vec3 p = Vec3::Zero();
  p.head(mesh.dim()) = mesh.vertices.row(mesh.cells(cell, corner)).transpose();
  return p;
}

constexpr double kDegrees = 180.0 / std::numbers::pi;

double triangle_min_angle(const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 p[3] = {a, b, c};
  double smallest = 180.0;
  for (int k = 0; k < 3; ++k) {
    const Vec3 u = p[(k + 1) % 3] - p[k], v = p[(k + 2) % 3] - p[k];
    const double nu = u.norm(), nv = v.norm();
    if (nu == 0 || nv == 0) return 0.0;
    smallest = std::min(smallest, std::atan2(u.cross(v).norm(), u.dot(v)) * kDegrees);
  }
  return smallest;
}

// A tet whose volume is lost in round-off next to its size: its faces have no reliable outward
// side, and its smallest angle is 0 for every purpose here.
bool flat_tet(const Vec3 p[4]) {
  double longest = 0;
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j) longest = std::max(longest, (p[i] - p[j]).norm());
  return std::abs((p[1] - p[0]).dot((p[2] - p[0]).cross(p[3] - p[0]))) <= 1e-14 * longest * longest * longest;
}

double tet_min_dihedral(const Vec3 p[4]) {
  if (flat_tet(p)) return 0.0;
  // Face k is opposite corner k; its normal points away from corner k.
  Vec3 n[4];
  for (int k = 0; k < 4; ++k) {
    const Vec3& a = p[(k + 1) % 4];
    const Vec3& b = p[(k + 2) % 4];
    const Vec3& c = p[(k + 3) % 4];
    n[k] = (b - a).cross(c - a);
    if (n[k].dot(p[k] - a) > 0) n[k] = -n[k];
    if (n[k].squaredNorm() == 0) return 0.0;
  }
  double smallest = 180.0;
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j) {
      // The dihedral angle at the edge shared by faces i and j is pi minus the angle between
      // their outward normals.
      const double between = std::atan2(n[i].cross(n[j]).norm(), n[i].dot(n[j]));
      smallest = std::min(smallest, (std::numbers::pi - between) * kDegrees);
    }
  return smallest;
}

double tet_radius_ratio(const Vec3 p[4]) {
  if (flat_tet(p)) return 0.0;
  const Vec3 a = p[1] - p[0], b = p[2] - p[0], c = p[3] - p[0];
  const double six_volume = std::abs(a.dot(b.cross(c)));
  double area_sum = 0.0;
  for (int k = 0; k < 4; ++k)
    area_sum += 0.5 * (p[(k + 2) % 4] - p[(k + 1) % 4]).cross(p[(k + 3) % 4] - p[(k + 1) % 4]).norm();
  if (six_volume == 0 || area_sum == 0) return 0.0;
  const double r_in = 0.5 * six_volume / area_sum;  // 3 V / A
  const Vec3 centre = (a.squaredNorm() * b.cross(c) + b.squaredNorm() * c.cross(a) + c.squaredNorm() * a.cross(b)) /
                      (2.0 * a.dot(b.cross(c)));
  return 3.0 * r_in / centre.norm();
}

double triangle_radius_ratio(const Vec3& a, const Vec3& b, const Vec3& c) {
  const double la = (b - c).norm(), lb = (c - a).norm(), lc = (a - b).norm();
  const double area = 0.5 * (b - a).cross(c - a).norm();
  if (area == 0) return 0.0;
  const double r_in = 2.0 * area / (la + lb + lc);
  const double r_circ = la * lb * lc / (4.0 * area);
  return 2.0 * r_in / r_circ;
}

Histogram histogram(const std::vector<double>& values, std::vector<double> edges) {
  Histogram h;
  h.counts.assign(edges.size() - 1, 0);
  for (double v : values) {
    auto it = std::upper_bound(edges.begin(), edges.end(), v);
    std::size_t bin = it == edges.begin() ? 0 : static_cast<std::size_t>(it - edges.begin()) - 1;
    bin = std::min(bin, h.counts.size() - 1);
    ++h.counts[bin];
  }
  h.bin_edges = std::move(edges);
  return h;
}

}  // namespace

double min_angle_degrees(const Mesh& mesh, int cell) {
  if (mesh.cell_type() == CellType::Tetrahedron) {
    const Vec3 p[4] = {point(mesh, cell, 0), point(mesh, cell, 1), point(mesh, cell, 2), point(mesh, cell, 3)};
    return tet_min_dihedral(p);
  }
  return triangle_min_angle(point(mesh, cell, 0), point(mesh, cell, 1), point(mesh, cell, 2));
}

double radius_ratio(const Mesh& mesh, int cell) {
  if (mesh.cell_type() == CellType::Tetrahedron) {
    const Vec3 p[4] = {point(mesh, cell, 0), point(mesh, cell, 1), point(mesh, cell, 2), point(mesh, cell, 3)};
    return tet_radius_ratio(p);
  }
  return triangle_radius_ratio(point(mesh, cell, 0), point(mesh, cell, 1), point(mesh, cell, 2));
}

QualitySummary summarize_quality(const Mesh& mesh) {
  QualitySummary s;
  const CellType type = mesh.cell_type();
  if (mesh.num_cells() == 0 || (type != CellType::Tetrahedron && type != CellType::Triangle)) return s;
  s.has_quality = true;
  const bool tets = type == CellType::Tetrahedron;
  s.angle_name = tets ? "minimum dihedral angle" : "minimum angle";
  const int m = mesh.num_cells();
  std::vector<double> angles(static_cast<std::size_t>(m)), ratios(static_cast<std::size_t>(m));
  for (int c = 0; c < m; ++c) {
    angles[c] = min_angle_degrees(mesh, c);
    ratios[c] = radius_ratio(mesh, c);
  }
  s.worst_angle_cell = static_cast<int>(std::min_element(angles.begin(), angles.end()) - angles.begin());
  s.worst_radius_ratio_cell = static_cast<int>(std::min_element(ratios.begin(), ratios.end()) - ratios.begin());
  s.worst_angle = angles[s.worst_angle_cell];
  s.worst_radius_ratio = ratios[s.worst_radius_ratio_cell];
  for (int c = 0; c < m; ++c) {
    s.mean_angle += angles[c] / m;
    s.mean_radius_ratio += ratios[c] / m;
  }
  // The regular tet's dihedral angle, acos(1/3) = 70.53 degrees, is the largest minimum there is.
  const double top = tets ? std::acos(1.0 / 3.0) * kDegrees : 60.0;
  std::vector<double> angle_edges{0, 5, 10, 20, 30, 40, 50};
  if (tets) angle_edges.push_back(60);
  angle_edges.push_back(top);
  s.angle_histogram = histogram(angles, angle_edges);
  s.radius_ratio_histogram = histogram(ratios, {0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0});
  return s;
}

std::string format_histogram(const Histogram& h, const std::string& title, int decimals) {
  std::string text = title + "\n";
  int total = 0, widest = 0;
  for (int c : h.counts) total += c, widest = std::max(widest, c);
  for (std::size_t b = 0; b < h.counts.size(); ++b) {
    const int bar = widest > 0 ? static_cast<int>(std::lround(40.0 * h.counts[b] / widest)) : 0;
    const double share = total > 0 ? 100.0 * h.counts[b] / total : 0.0;
    text += fmt::format("  [{:>6.{}f}, {:>6.{}f}{} {:>9} {:5.1f}%  {}\n", h.bin_edges[b], decimals, h.bin_edges[b + 1],
                        decimals, b + 1 == h.counts.size() ? "]" : ")", h.counts[b], share, std::string(bar, '#'));
  }
  return text;
}

}  // namespace softsim
