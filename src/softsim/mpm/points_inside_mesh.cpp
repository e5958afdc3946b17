#include "softsim/mpm/points_inside_mesh.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "softsim/core/parallel.hpp"
#include "softsim/mesh/measure.hpp"

namespace softsim {

double mesh_volume(const Mesh& mesh) {
  double total = 0.0;
  for (int c = 0; c < mesh.num_cells(); ++c) total += std::abs(cell_measure(mesh, c));
  return total;
}

template <int D>
std::vector<VecD<D>> points_inside_mesh(const Mesh& mesh, const std::vector<VecD<D>>& points) {
  if (mesh.dim() != D || mesh.cells.cols() != D + 1)
    throw std::invalid_argument("points_inside_mesh: the mesh's cells must be simplices of the points' dimension");
  const int cells = mesh.num_cells();
  if (cells == 0 || points.empty()) return {};
  const BoundingBox box = bounding_box(mesh.vertices);
  const VecD<D> lo = box.min.template head<D>(), hi = box.max.template head<D>();
  // Buckets about as large as a cell: each cell lands in a few, each bucket holds a few cells.
  const VecD<D> extent = (hi - lo).cwiseMax(1e-300);
  const double bucket = std::pow(extent.prod() / cells, 1.0 / D) * 1.5;
  std::array<int, D> buckets{};
  long total = 1;
  for (int a = 0; a < D; ++a) {
    buckets[a] = std::clamp(static_cast<int>(std::ceil(extent[a] / bucket)), 1, 1024);
    total *= buckets[a];
  }
  const auto bucket_coord = [&](double x, int a) {
    return std::clamp(static_cast<int>(std::floor((x - lo[a]) / extent[a] * buckets[a])), 0, buckets[a] - 1);
  };
  const auto vertex = [&](int i) {
    VecD<D> v;
    for (int a = 0; a < D; ++a) v[a] = mesh.vertices(i, a);
    return v;
  };
  // Per cell: the inverse of its edge matrix [v1 - v0, ..., vD - v0], for barycentric coordinates.
  std::vector<MatD<D>> inverse(cells);
  std::vector<VecD<D>> origin(cells);
  std::vector<std::vector<int>> members(total);
  for (int c = 0; c < cells; ++c) {
    MatD<D> edges;
    VecD<D> c_lo, c_hi;
    origin[c] = vertex(mesh.cells(c, 0));
    c_lo = c_hi = origin[c];
    for (int k = 1; k <= D; ++k) {
      const VecD<D> v = vertex(mesh.cells(c, k));
      edges.col(k - 1) = v - origin[c];
      c_lo = c_lo.cwiseMin(v);
      c_hi = c_hi.cwiseMax(v);
    }
    inverse[c] = edges.inverse();
    std::array<int, D> from{}, to{};
    for (int a = 0; a < D; ++a) {
      from[a] = bucket_coord(c_lo[a], a);
      to[a] = bucket_coord(c_hi[a], a);
    }
    std::array<int, D> at = from;
    while (true) {  // every bucket in [from, to]
      long id = 0, stride = 1;
      for (int a = 0; a < D; ++a) {
        id += at[a] * stride;
        stride *= buckets[a];
      }
      members[id].push_back(c);
      int a = 0;
      for (; a < D; ++a) {
        if (++at[a] <= to[a]) break;
        at[a] = from[a];
      }
      if (a == D) break;
    }
  }
  // Inside a cell when its barycentric coordinates are all >= 0, with a tolerance relative to
  // round-off so that points on a shared face count once at least.
  constexpr double kTolerance = 1e-10;
  std::vector<char> inside(points.size(), 0);
  parallel_for(points.size(), [&](std::size_t i) {
    const VecD<D>& p = points[i];
    if ((p.array() < lo.array()).any() || (p.array() > hi.array()).any()) return;
    long id = 0, stride = 1;
    for (int a = 0; a < D; ++a) {
      id += bucket_coord(p[a], a) * stride;
      stride *= buckets[a];
    }
    for (int c : members[id]) {
      const VecD<D> b = inverse[c] * (p - origin[c]);
      if (b.minCoeff() >= -kTolerance && b.sum() <= 1.0 + kTolerance) {
        inside[i] = 1;
        return;
      }
    }
  });
  std::vector<VecD<D>> kept;
  for (std::size_t i = 0; i < points.size(); ++i)
    if (inside[i]) kept.push_back(points[i]);
  return kept;
}

template std::vector<VecD<2>> points_inside_mesh<2>(const Mesh&, const std::vector<VecD<2>>&);
template std::vector<VecD<3>> points_inside_mesh<3>(const Mesh&, const std::vector<VecD<3>>&);

}  // namespace softsim
