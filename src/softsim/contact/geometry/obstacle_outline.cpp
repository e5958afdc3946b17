#include "softsim/contact/geometry/obstacle_outline.hpp"

#include <Eigen/Geometry>
#include <cmath>
#include <numbers>

namespace softsim {

namespace {

constexpr int kSegments = 48;  // around a circle
constexpr int kStacks = 16;    // pole to pole on a sphere

Mesh plane_outline(const AnalyticObstacle& o, int dim, const VecX& centre, double extent) {
  const VecX n = o.normal.head(dim).normalized();
  const VecX foot = centre - n * n.dot(centre - o.point.head(dim));
  Mesh m;
  if (dim == 2) {
    const Vec2 t(-n[1], n[0]);
    m.vertices.resize(2, 2);
    m.vertices.row(0) = (foot - 0.5 * extent * t).transpose();
    m.vertices.row(1) = (foot + 0.5 * extent * t).transpose();
    m.cells.resize(1, 2);
    m.cells << 0, 1;
    return m;
  }
  const Vec3 n3 = n;
  Eigen::Index axis = 0;
  n3.cwiseAbs().minCoeff(&axis);
  const Vec3 t1 = (Vec3::Unit(axis) - n3[axis] * n3).normalized();
  const Vec3 t2 = n3.cross(t1);
  m.vertices.resize(4, 3);
  const double s = 0.5 * extent;
  m.vertices.row(0) = (foot - s * t1 - s * t2).transpose();
  m.vertices.row(1) = (foot + s * t1 - s * t2).transpose();
  m.vertices.row(2) = (foot + s * t1 + s * t2).transpose();
  m.vertices.row(3) = (foot - s * t1 + s * t2).transpose();
  m.cells.resize(2, 3);
  m.cells << 0, 1, 2, 0, 2, 3;  // counter-clockwise seen from the normal's side
  return m;
}

Mesh sphere_outline(const AnalyticObstacle& o, int dim) {
  const VecX c = o.point.head(dim);
  const double pi = std::numbers::pi;
  Mesh m;
  if (dim == 2) {
    m.vertices.resize(kSegments, 2);
    m.cells.resize(kSegments, 2);
    for (int i = 0; i < kSegments; ++i) {
      const double a = 2.0 * pi * i / kSegments;
      m.vertices.row(i) = (c + o.radius * Vec2(std::cos(a), std::sin(a))).transpose();
      m.cells.row(i) << i, (i + 1) % kSegments;
    }
    return m;
  }
  // Rings 1 .. kStacks - 1 of kSegments vertices, then the two poles.
  const int rings = kStacks - 1;
  m.vertices.resize(rings * kSegments + 2, 3);
  for (int r = 0; r < rings; ++r) {
    const double polar = pi * (r + 1) / kStacks;
    for (int i = 0; i < kSegments; ++i) {
      const double a = 2.0 * pi * i / kSegments;
      const Vec3 u(std::sin(polar) * std::cos(a), std::cos(polar), std::sin(polar) * std::sin(a));
      m.vertices.row(r * kSegments + i) = (c + o.radius * u).transpose();
    }
  }
  const int top = rings * kSegments, bottom = top + 1;
  m.vertices.row(top) = (c + o.radius * Vec3::UnitY()).transpose();
  m.vertices.row(bottom) = (c - o.radius * Vec3::UnitY()).transpose();
  m.cells.resize(2 * kSegments * rings, 3);
  int f = 0;
  auto at = [&](int r, int i) { return r * kSegments + (i % kSegments); };
  for (int i = 0; i < kSegments; ++i) {
    m.cells.row(f++) << top, at(0, i + 1), at(0, i);
    m.cells.row(f++) << bottom, at(rings - 1, i), at(rings - 1, i + 1);
  }
  for (int r = 0; r + 1 < rings; ++r)
    for (int i = 0; i < kSegments; ++i) {
      m.cells.row(f++) << at(r, i), at(r, i + 1), at(r + 1, i + 1);
      m.cells.row(f++) << at(r, i), at(r + 1, i + 1), at(r + 1, i);
    }
  return m;
}

Mesh box_outline(const AnalyticObstacle& o, int dim) {
  const VecX c = o.point.head(dim);
  const VecX e = o.half_extents.head(dim);
  Mesh m;
  const int corners = dim == 2 ? 4 : 8;
  m.vertices.resize(corners, dim);
  for (int k = 0; k < corners; ++k)
    for (int d = 0; d < dim; ++d) m.vertices(k, d) = c[d] + ((k >> d) & 1 ? e[d] : -e[d]);
  if (dim == 2) {
    m.cells.resize(4, 2);
    m.cells << 0, 1, 1, 3, 3, 2, 2, 0;
    return m;
  }
  m.cells.resize(12, 3);
  // Corner k has bit d set when it is on the + side of axis d; outward orientation.
  m.cells << 0, 2, 3, 0, 3, 1,  // z-
      4, 5, 7, 4, 7, 6,         // z+
      0, 1, 5, 0, 5, 4,         // y-
      2, 6, 7, 2, 7, 3,         // y+
      0, 4, 6, 0, 6, 2,         // x-
      1, 3, 7, 1, 7, 5;         // x+
  return m;
}

}  // namespace

Mesh obstacle_outline(const AnalyticObstacle& obstacle, int dim, const VecX& centre, double extent) {
  switch (obstacle.shape) {
    case AnalyticObstacle::Shape::Plane: return plane_outline(obstacle, dim, centre, extent);
    case AnalyticObstacle::Shape::Sphere: return sphere_outline(obstacle, dim);
    case AnalyticObstacle::Shape::Box: return box_outline(obstacle, dim);
  }
  return {};
}

}  // namespace softsim
