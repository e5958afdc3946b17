#include "softsim/contact/constraint/contact_constraint.hpp"

#include <algorithm>
#include <cmath>

#include "softsim/core/jet.hpp"

namespace softsim {

namespace {

Vec3 row(const VertexRows& V, int id) { return V.row(id).transpose(); }

// Barycentric weights of the projection of p onto the plane of (a, b, c).
Vec3 plane_barycentric(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 e0 = b - a, e1 = c - a, w = p - a;
  const double d00 = e0.dot(e0), d01 = e0.dot(e1), d11 = e1.dot(e1), d20 = w.dot(e0), d21 = w.dot(e1);
  const double det = d00 * d11 - d01 * d01;
  const double v = (d11 * d20 - d01 * d21) / det, u = (d00 * d21 - d01 * d20) / det;
  return {1.0 - v - u, v, u};
}

// Unit gradient and value of an analytic obstacle's signed distance at p.
std::pair<Vec3, double> obstacle_normal(const AnalyticObstacle& o, const Vec3& p) {
  using J = Jet<3>;
  Eigen::Matrix<J, 3, 1> x;
  for (int i = 0; i < 3; ++i) x[i] = J::variable(p[i], i);
  const J d = analytic_signed_distance<J, 3>(o, x);
  return {d.g, d.v};
}

// Vertex p of contact stencil s seen from its obstacle's rest pose (a moving obstacle's stencil
// is (p, pose)).
Vec3 at_rest_pose(const AnalyticObstacle& o, const ContactStencil& s, const VertexRows& V) {
  const Vec3 p = row(V, s.ids[0]);
  return s.num_vertices == 2 ? relative_to_rest_pose<double, 3>(o, p, row(V, s.ids[1])) : p;
}

}  // namespace

std::optional<ContactConstraint> make_contact_constraint(const PenaltyContactPoint& point, const VertexRows& V,
                                                         const std::vector<AnalyticObstacle>& obstacles, double mu) {
  ContactConstraint c;
  c.stencil = point.stencil;
  c.side = point.side;
  c.mu = mu;
  const auto& ids = point.stencil.ids;
  const Vec3 p = row(V, ids[0]);
  switch (point.stencil.kind) {
    case StencilKind::point_triangle: {
      const Vec3 b = plane_barycentric(p, row(V, ids[1]), row(V, ids[2]), row(V, ids[3]));
      c.weight = {1.0, -b[0], -b[1], -b[2]};
      break;
    }
    case StencilKind::point_edge: {
      const Vec3 e0 = row(V, ids[1]), e = row(V, ids[2]) - e0;
      const double t = std::clamp((p - e0).dot(e) / e.squaredNorm(), 0.0, 1.0);
      c.weight = {1.0, -(1.0 - t), -t, 0.0};
      break;
    }
    case StencilKind::point_point: c.weight = {1.0, -1.0, 0.0, 0.0}; break;
    case StencilKind::point_obstacle: {
      const auto [n, d] = obstacle_normal(obstacles[static_cast<std::size_t>(point.stencil.obstacle)],
                                          at_rest_pose(obstacles[static_cast<std::size_t>(point.stencil.obstacle)],
                                                       point.stencil, V));
      c.anchor = p - d * n;
      if (point.stencil.num_vertices == 2) {  // moving: the closest point is carried by the pose
        c.weight = {1.0, -1.0, 0.0, 0.0};
        c.anchor -= row(V, ids[1]);
      }
      break;
    }
    case StencilKind::edge_edge: return std::nullopt;  // penalty points are vertex-feature pairs
  }
  if (!contact_geometry(c, V, obstacles).valid) return std::nullopt;
  return c;
}

Vec3 relative_position(const ContactConstraint& c, const VertexRows& V) {
  Vec3 r = Vec3::Zero();
  for (int a = 0; a < c.stencil.num_vertices; ++a) r += c.weight[static_cast<std::size_t>(a)] * row(V, c.stencil.ids[a]);
  if (c.stencil.kind == StencilKind::point_obstacle) r -= c.anchor;
  return r;
}

ContactGeometry contact_geometry(const ContactConstraint& c, const VertexRows& V,
                                 const std::vector<AnalyticObstacle>& obstacles) {
  ContactGeometry g;
  const auto& ids = c.stencil.ids;
  switch (c.stencil.kind) {
    case StencilKind::point_triangle: {
      const Vec3 t0 = row(V, ids[1]);
      const Vec3 n = (row(V, ids[2]) - t0).cross(row(V, ids[3]) - t0);
      const double length = n.norm();
      if (!(length > 0.0)) return g;
      g.normal = n / length;
      g.gap = g.normal.dot(row(V, ids[0]) - t0);
      g.valid = true;
      return g;
    }
    case StencilKind::point_obstacle: {
      const AnalyticObstacle& o = obstacles[static_cast<std::size_t>(c.stencil.obstacle)];
      const auto [n, d] = obstacle_normal(o, at_rest_pose(o, c.stencil, V));
      g.normal = n;
      g.gap = d;
      g.valid = n.squaredNorm() > 0.0;
      return g;
    }
    default: {  // edge or vertex feature: along r, on the side found with the contact
      const Vec3 r = relative_position(c, V);
      const double length = r.norm();
      double scale = 0.0;
      for (int a = 0; a < c.stencil.num_vertices; ++a) scale = std::max(scale, row(V, ids[a]).cwiseAbs().maxCoeff());
      if (!(length > 1e-12 * std::max(1.0, scale))) return g;
      g.normal = c.side * r / length;
      g.gap = c.side * length;
      g.valid = true;
      return g;
    }
  }
}

Mat3 contact_frame(const Vec3& normal, const Vec3* previous_tangent) {
  Vec3 t1;
  if (previous_tangent) t1 = *previous_tangent - previous_tangent->dot(normal) * normal;
  if (!previous_tangent || t1.norm() < 0.5) {
    Eigen::Index axis = 0;
    normal.cwiseAbs().minCoeff(&axis);
    t1 = Vec3::Unit(axis) - normal[axis] * normal;
  }
  t1.normalize();
  Mat3 C;
  C.row(0) = normal.transpose();
  C.row(1) = t1.transpose();
  C.row(2) = normal.cross(t1).transpose();
  return C;
}

}  // namespace softsim
