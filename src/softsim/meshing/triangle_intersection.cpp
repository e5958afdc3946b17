#include "softsim/meshing/triangle_intersection.hpp"

#include <Eigen/Geometry>
#include <cmath>

namespace softsim {

namespace {

// Sign of det[b - a, c - a, d - a]: positive when d is on the side a, b, c turn counter-clockwise
// towards.
int orient3d(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const double det = (b - a).cross(c - a).dot(d - a);
  return (det > 0) - (det < 0);
}

int orient2d(const Eigen::Vector2d& a, const Eigen::Vector2d& b, const Eigen::Vector2d& c) {
  const double det = (b.x() - a.x()) * (c.y() - a.y()) - (b.y() - a.y()) * (c.x() - a.x());
  return (det > 0) - (det < 0);
}

// Closed segments ab and cd in the plane.
bool segments_meet_2d(const Eigen::Vector2d& a, const Eigen::Vector2d& b, const Eigen::Vector2d& c,
                      const Eigen::Vector2d& d) {
  const int o1 = orient2d(a, b, c), o2 = orient2d(a, b, d), o3 = orient2d(c, d, a), o4 = orient2d(c, d, b);
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  const auto on_segment = [](const Eigen::Vector2d& p, const Eigen::Vector2d& q, const Eigen::Vector2d& r) {
    return std::min(p.x(), q.x()) <= r.x() && r.x() <= std::max(p.x(), q.x()) && std::min(p.y(), q.y()) <= r.y() &&
           r.y() <= std::max(p.y(), q.y());
  };
  return (o1 == 0 && on_segment(a, b, c)) || (o2 == 0 && on_segment(a, b, d)) || (o3 == 0 && on_segment(c, d, a)) ||
         (o4 == 0 && on_segment(c, d, b));
}

bool point_in_triangle_2d(const Eigen::Vector2d& p, const Eigen::Vector2d& a, const Eigen::Vector2d& b,
                          const Eigen::Vector2d& c) {
  const int o1 = orient2d(a, b, p), o2 = orient2d(b, c, p), o3 = orient2d(c, a, p);
  return !((o1 < 0 || o2 < 0 || o3 < 0) && (o1 > 0 || o2 > 0 || o3 > 0));
}

// The segment and triangle are coplanar: drop the axis along which the triangle's normal is
// largest (an affine bijection of the plane, so incidences are kept).
bool coplanar_segment_meets_triangle(const Vec3& p, const Vec3& q, const Triangle3& t) {
  const Vec3 n = (t.b - t.a).cross(t.c - t.a).cwiseAbs();
  int drop = 0;
  if (n.y() > n(drop)) drop = 1;
  if (n.z() > n(drop)) drop = 2;
  const int u = (drop + 1) % 3, v = (drop + 2) % 3;
  const auto flat = [u, v](const Vec3& x) { return Eigen::Vector2d(x(u), x(v)); };
  const Eigen::Vector2d P = flat(p), Q = flat(q), A = flat(t.a), B = flat(t.b), C = flat(t.c);
  return point_in_triangle_2d(P, A, B, C) || point_in_triangle_2d(Q, A, B, C) || segments_meet_2d(P, Q, A, B) ||
         segments_meet_2d(P, Q, B, C) || segments_meet_2d(P, Q, C, A);
}

}  // namespace

bool segment_meets_triangle(const Vec3& p, const Vec3& q, const Triangle3& t) {
  const int sp = orient3d(t.a, t.b, t.c, p), sq = orient3d(t.a, t.b, t.c, q);
  if (sp * sq > 0) return false;
  if (sp == 0 && sq == 0) return coplanar_segment_meets_triangle(p, q, t);
  // The line pq crosses the plane within the segment; it meets the triangle iff it passes on the
  // same side of (or through) all three edges.
  const int e1 = orient3d(p, q, t.a, t.b), e2 = orient3d(p, q, t.b, t.c), e3 = orient3d(p, q, t.c, t.a);
  return !((e1 < 0 || e2 < 0 || e3 < 0) && (e1 > 0 || e2 > 0 || e3 > 0));
}

bool triangles_intersect(const Triangle3& s, const Triangle3& t) {
  return segment_meets_triangle(s.a, s.b, t) || segment_meets_triangle(s.b, s.c, t) ||
         segment_meets_triangle(s.c, s.a, t) || segment_meets_triangle(t.a, t.b, s) ||
         segment_meets_triangle(t.b, t.c, s) || segment_meets_triangle(t.c, t.a, s);
}

bool triangles_sharing_a_vertex_overlap(const Triangle3& s, const Triangle3& t) {
  if (segment_meets_triangle(s.b, s.c, t) || segment_meets_triangle(t.b, t.c, s)) return true;
  const Vec3 n = (t.b - t.a).cross(t.c - t.a);
  const bool coplanar = orient3d(t.a, t.b, t.c, s.b) == 0 && orient3d(t.a, t.b, t.c, s.c) == 0;
  if (!coplanar || n.squaredNorm() == 0) return false;
  // Coplanar fans around the shared vertex overlap iff an edge from the vertex of one passes
  // strictly inside the angle of the other: test a point a short way along each such edge.
  for (const Triangle3* x : {&s, &t}) {
    const Triangle3& other = x == &s ? t : s;
    for (const Vec3* end : {&x->b, &x->c}) {
      const Vec3 inside = x->a + 1e-6 * (*end - x->a);
      if (coplanar_segment_meets_triangle(inside, inside, other)) return true;
    }
  }
  return false;
}

}  // namespace softsim
