#pragma once
// The clearance between a body's surface and an analytic sphere or box, computed independently
// of the contact code (test support, header-only): the smallest distance from any point of the
// body's triangles (3D) or edges (2D) to the obstacle, negative or zero when they meet.
//   sphere: the distance from the centre to each triangle's closest point (Ericson 2004,
//           "Real-Time Collision Detection", §5.1.5, by Voronoi regions), less the radius;
//   box:    whether a triangle meets the box decided exactly (a vertex inside, or an exact
//           triangle-triangle intersection with one of the box's 12 triangles,
//           intersection_check.hpp); apart, the smallest of vertex-box, corner-triangle and
//           edge-edge distances (segment-segment, Ericson §5.1.9), which is the distance of two
//           disjoint convex sets.
#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "support/intersection_check.hpp"

namespace softsim::test {

inline Eigen::Vector3d closest_point_on_triangle(const Eigen::Vector3d& p, const Eigen::Vector3d& a,
                                                 const Eigen::Vector3d& b, const Eigen::Vector3d& c) {
  const Eigen::Vector3d ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const Eigen::Vector3d bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + d1 / (d1 - d3) * ab;
  const Eigen::Vector3d cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + d2 / (d2 - d6) * ac;
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) return b + (d4 - d3) / ((d4 - d3) + (d5 - d6)) * (c - b);
  const double denom = 1.0 / (va + vb + vc);
  return a + ab * (vb * denom) + ac * (vc * denom);
}

template <class V>
double point_segment_distance(const V& p, const V& a, const V& b) {
  const V ab = b - a;
  const double len2 = ab.squaredNorm();
  const double t = len2 > 0 ? std::clamp((p - a).dot(ab) / len2, 0.0, 1.0) : 0.0;
  return (p - (a + t * ab)).norm();
}

inline double segment_segment_distance(const Eigen::Vector3d& p1, const Eigen::Vector3d& q1, const Eigen::Vector3d& p2,
                                       const Eigen::Vector3d& q2) {
  const Eigen::Vector3d d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  double s = 0, t = 0;
  if (a <= 0 && e <= 0) return r.norm();
  if (a <= 0) {
    t = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = d1.dot(r);
    if (e <= 0) {
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = d1.dot(d2), denom = a * e - b * b;
      s = denom > 0 ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = std::clamp(-c / a, 0.0, 1.0);
      } else if (t > 1) {
        t = 1;
        s = std::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  return ((p1 + s * d1) - (p2 + t * d2)).norm();
}

// Clearance of triangles F (rows of V, 3D) from the sphere (centre, radius).
inline double sphere_clearance(const Eigen::MatrixXd& V, const Eigen::MatrixXi& F, const Eigen::Vector3d& centre,
                               double radius) {
  double best = std::numeric_limits<double>::infinity();
  for (Eigen::Index f = 0; f < F.rows(); ++f) {
    const Eigen::Vector3d a = V.row(F(f, 0)).transpose(), b = V.row(F(f, 1)).transpose(), c = V.row(F(f, 2)).transpose();
    best = std::min(best, (centre - closest_point_on_triangle(centre, a, b, c)).norm() - radius);
  }
  return best;
}

// Clearance of edges E (rows of V, 2D) from the disk (centre, radius).
inline double disk_clearance(const Eigen::MatrixXd& V, const Eigen::MatrixXi& E, const Eigen::Vector2d& centre,
                             double radius) {
  double best = std::numeric_limits<double>::infinity();
  for (Eigen::Index e = 0; e < E.rows(); ++e)
    best = std::min(best, point_segment_distance<Eigen::Vector2d>(centre, V.row(E(e, 0)).transpose(),
                                                                  V.row(E(e, 1)).transpose()) -
                              radius);
  return best;
}

// Clearance of edges E (rows of V, 2D) from the rectangle (centre, half extents); -1 when they meet.
inline double rectangle_clearance(const Eigen::MatrixXd& V, const Eigen::MatrixXi& E, const Eigen::Vector2d& centre,
                                  const Eigen::Vector2d& half) {
  Eigen::Vector2d corner[4];
  for (int k = 0; k < 4; ++k)
    for (int a = 0; a < 2; ++a) corner[k][a] = centre[a] + ((k >> a) & 1 ? half[a] : -half[a]);
  const int sides[4][2] = {{0, 1}, {1, 3}, {3, 2}, {2, 0}};
  double best = std::numeric_limits<double>::infinity();
  for (Eigen::Index e = 0; e < E.rows(); ++e) {
    const Eigen::Vector2d p = V.row(E(e, 0)).transpose(), q = V.row(E(e, 1)).transpose();
    for (const Eigen::Vector2d& v : {p, q}) {
      const Eigen::Vector2d d = (v - centre).cwiseAbs() - half;
      if ((d.array() <= 0).all()) return -1.0;
      best = std::min(best, d.cwiseMax(0.0).norm());
    }
    for (const auto& s : sides)
      if (segments_intersect_2d(p.data(), q.data(), corner[s[0]].data(), corner[s[1]].data())) return -1.0;
    for (const auto& c : corner) best = std::min(best, point_segment_distance<Eigen::Vector2d>(c, p, q));
  }
  return best;
}

// Clearance of triangles F (rows of V, 3D) from the box (centre, half extents); -1 when they meet.
inline double box_clearance(const Eigen::MatrixXd& V, const Eigen::MatrixXi& F, const Eigen::Vector3d& centre,
                            const Eigen::Vector3d& half) {
  Eigen::Vector3d corner[8];
  for (int k = 0; k < 8; ++k)
    for (int a = 0; a < 3; ++a) corner[k][a] = centre[a] + ((k >> a) & 1 ? half[a] : -half[a]);
  // The box's faces as 12 triangles: for each axis a and side, the 4 corners with bit a fixed.
  int box_tris[12][3];
  int n = 0;
  for (int a = 0; a < 3; ++a)
    for (int side = 0; side < 2; ++side) {
      const int b = (a + 1) % 3, c = (a + 2) % 3;
      auto id = [&](int sb, int sc) { return (side << a) | (sb << b) | (sc << c); };
      box_tris[n][0] = id(0, 0), box_tris[n][1] = id(1, 0), box_tris[n][2] = id(1, 1), ++n;
      box_tris[n][0] = id(0, 0), box_tris[n][1] = id(1, 1), box_tris[n][2] = id(0, 1), ++n;
    }
  double best = std::numeric_limits<double>::infinity();
  for (Eigen::Index f = 0; f < F.rows(); ++f) {
    Eigen::Vector3d t[3];
    for (int a = 0; a < 3; ++a) t[a] = V.row(F(f, a)).transpose();
    for (int a = 0; a < 3; ++a) {
      const Eigen::Vector3d q = (t[a] - centre).cwiseAbs() - half;
      if ((q.array() <= 0).all()) return -1.0;  // a vertex in the closed box
      best = std::min(best, q.cwiseMax(0.0).norm());
    }
    const double* tp[3] = {t[0].data(), t[1].data(), t[2].data()};
    for (const auto& bt : box_tris) {
      const double* up[3] = {corner[bt[0]].data(), corner[bt[1]].data(), corner[bt[2]].data()};
      if (triangles_intersect(tp, up)) return -1.0;
    }
    for (const auto& c : corner) best = std::min(best, (c - closest_point_on_triangle(c, t[0], t[1], t[2])).norm());
    for (int k = 0; k < 8; ++k)
      for (int a = 0; a < 3; ++a) {
        if ((k >> a) & 1) continue;
        for (int e = 0; e < 3; ++e)
          best = std::min(best, segment_segment_distance(corner[k], corner[k | (1 << a)], t[e], t[(e + 1) % 3]));
      }
  }
  return best;
}

}  // namespace softsim::test
