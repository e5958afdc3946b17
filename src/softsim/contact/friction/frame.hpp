#pragma once
// The geometry friction acts through, as functions of the stencil's positions on any scalar
// (double, or Dual for forward-mode derivatives of fully implicit friction): the closest-point
// weights w_a (the relative velocity of the closest points is sum_a w_a v_a; IPC, Li et al.
// 2020, sec. 5), the tangent basis B (dim x m, orthonormal columns spanning the plane
// orthogonal to the contact normal; seed 003 sec. 3.3: T = J_c^T B) and the squared distance s
// of the closest points. Conventions (the IPC code's, so lagged friction matches the reference
// states of ../shared/data/friction):
//  - point-point (p0, p1): B from the cross products of p1 - p0 with the x or y axis.
//  - point-edge (p, e0, e1): B = [e/|e|, (e x (p - e0))/|..|],  alpha = (p - e0).e / |e|^2.
//  - point-triangle (p, t0, t1, t2): B = [e1/|e1|, ((e1 x e2) x e1)/|..|]; (beta1, beta2) solve
//    the 2x2 normal equations, closest point t0 + beta1 e1 + beta2 e2.
//  - edge-edge: B = [ea/|ea|, ((ea x eb) x ea)/|..|]; (alpha, beta) the line-line closest points.
//  - 2D point-edge: B = e/|e|; 2D point-point: the unit vector orthogonal to p1 - p0.
// The coordinates are those of the unconstrained (line / plane) problems, used for the distance
// type already chosen by classification (distance/classification.hpp).
#include <Eigen/Geometry>
#include <array>

#include "softsim/core/dual.hpp"
#include "softsim/core/jet.hpp"  // value_of(double)

namespace softsim {

template <class S, int D>
using FrameVec = Eigen::Matrix<S, D, 1>;

template <class S, int D>
FrameVec<S, D> normalized_vector(const FrameVec<S, D>& v) {
  using std::sqrt;
  return v / S(sqrt(v.squaredNorm()));
}

template <class S>
Eigen::Matrix<S, 3, 2> point_point_basis(const FrameVec<S, 3>& p0, const FrameVec<S, 3>& p1) {
  const FrameVec<S, 3> n = p1 - p0;
  const FrameVec<S, 3> cx = n.cross(FrameVec<S, 3>(S(1), S(0), S(0)));
  const FrameVec<S, 3> cy = n.cross(FrameVec<S, 3>(S(0), S(1), S(0)));
  const FrameVec<S, 3> t0 = value_of(cx.squaredNorm()) > value_of(cy.squaredNorm()) ? cx : cy;
  Eigen::Matrix<S, 3, 2> B;
  B.col(0) = normalized_vector<S, 3>(t0);
  B.col(1) = normalized_vector<S, 3>(n.cross(t0));
  return B;
}

template <class S>
Eigen::Matrix<S, 3, 2> point_edge_basis(const FrameVec<S, 3>& p, const FrameVec<S, 3>& e0, const FrameVec<S, 3>& e1) {
  const FrameVec<S, 3> e = e1 - e0;
  Eigen::Matrix<S, 3, 2> B;
  B.col(0) = normalized_vector<S, 3>(e);
  B.col(1) = normalized_vector<S, 3>(e.cross(FrameVec<S, 3>(p - e0)));
  return B;
}

// Basis of the plane spanned by a and b (its first column along a), e.g. a triangle's two edges
// or two edges' directions.
template <class S>
Eigen::Matrix<S, 3, 2> plane_basis(const FrameVec<S, 3>& a, const FrameVec<S, 3>& b) {
  const FrameVec<S, 3> n = a.cross(b);
  Eigen::Matrix<S, 3, 2> B;
  B.col(0) = normalized_vector<S, 3>(a);
  B.col(1) = normalized_vector<S, 3>(n.cross(a));
  return B;
}

template <class S>
FrameVec<S, 2> point_edge_basis(const FrameVec<S, 2>& e0, const FrameVec<S, 2>& e1) {
  return normalized_vector<S, 2>(FrameVec<S, 2>(e1 - e0));
}

template <class S>
FrameVec<S, 2> point_point_basis(const FrameVec<S, 2>& p0, const FrameVec<S, 2>& p1) {
  const FrameVec<S, 2> n = p1 - p0;
  return normalized_vector<S, 2>(FrameVec<S, 2>(-n.y(), n.x()));
}

template <class S, int D>
S point_edge_coordinate(const FrameVec<S, D>& p, const FrameVec<S, D>& e0, const FrameVec<S, D>& e1) {
  const FrameVec<S, D> e = e1 - e0;
  return FrameVec<S, D>(p - e0).dot(e) / e.squaredNorm();
}

// Solves the 2x2 system [a b; c d] x = r by Cramer's rule (a scalar-generic inverse).
template <class S>
std::array<S, 2> solve_2x2(const S& a, const S& b, const S& c, const S& d, const S& r0, const S& r1) {
  const S det = a * d - b * c;
  return {(d * r0 - b * r1) / det, (a * r1 - c * r0) / det};
}

template <class S>
std::array<S, 2> point_triangle_coordinates(const FrameVec<S, 3>& p, const FrameVec<S, 3>& t0,
                                            const FrameVec<S, 3>& t1, const FrameVec<S, 3>& t2) {
  const FrameVec<S, 3> e1 = t1 - t0, e2 = t2 - t0, r = p - t0;
  const S e12 = e1.dot(e2);
  return solve_2x2<S>(e1.dot(e1), e12, e12, e2.dot(e2), r.dot(e1), r.dot(e2));
}

template <class S>
std::array<S, 2> edge_edge_coordinates(const FrameVec<S, 3>& ea0, const FrameVec<S, 3>& ea1,
                                       const FrameVec<S, 3>& eb0, const FrameVec<S, 3>& eb1) {
  // Minimise |ea0 + alpha ea - eb0 - beta eb|^2 over (alpha, beta).
  const FrameVec<S, 3> ea = ea1 - ea0, eb = eb1 - eb0, w = ea0 - eb0;
  const S ab = ea.dot(eb);
  return solve_2x2<S>(ea.dot(ea), -ab, -ab, eb.dot(eb), -w.dot(ea), w.dot(eb));
}

}  // namespace softsim
