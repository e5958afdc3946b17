#pragma once
// The frame friction acts in, as functions of a contact stencil's positions on any scalar
// (double, or Dual for forward-mode derivatives of fully implicit friction): the closest-point
// weights w_a (the relative velocity of the closest points is sum_a w_a v_a; IPC, Li et al.
// 2020, sec. 5), the tangent basis B (dim x m, orthonormal columns spanning the plane
// orthogonal to the contact normal; Larionov et al. 2022, sec. 3.3: T = J_c^T B) and the normal
// force magnitude lambda, which each contact model supplies. Conventions of the IPC stencils
// (the IPC code's, so lagged friction matches the reference states of ../shared/data/friction):
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

#include "softsim/contact/stencil/contact_stencil.hpp"
#include "softsim/core/types.hpp"
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

// A scalar with a given value and directional derivative (the derivative is dropped on double).
template <class S>
S scalar_with_derivative(double value, double derivative);
template <>
inline double scalar_with_derivative<double>(double value, double) { return value; }
template <>
inline Dual scalar_with_derivative<Dual>(double value, double derivative) { return {value, derivative}; }

inline double derivative_of(double) { return 0.0; }
inline double derivative_of(const Dual& x) { return x.d; }

// g(x) for a scalar function with value g and derivative dg at value_of(x) (chain rule).
template <class S>
S chain_scalar(const S& x, double g, double dg) {
  return scalar_with_derivative<S>(g, dg * derivative_of(x));
}

template <class S>
struct FrictionFrame {
  using Basis = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, 0, 3, 3>;
  int num_vertices = 0;
  std::array<S, 4> weights{};
  Basis basis;  // dim x m
  S lambda = S(0.0);
};

template <class S, int D>
FrameVec<S, D> stencil_vertex_of(const S* x, int a) {
  return Eigen::Map<const Eigen::Matrix<S, D, 1>>(x + a * D);
}

// Closest-point weights and tangent basis of an IPC stencil (point-point, point-edge,
// point-triangle, edge-edge; in 2D point-point and point-edge) at its positions x
// (num_vertices * dim values), in the conventions above; lambda is left to the contact model.
// coords (optional) receives the closest-point coordinates (point-edge: alpha; point-triangle:
// beta1, beta2; edge-edge: alpha, beta).
template <class S>
FrictionFrame<S> stencil_frame(StencilKind kind, const S* x, int dim, std::array<S, 2>* coords = nullptr) {
  FrictionFrame<S> f;
  std::array<S, 2> c{S(0.0), S(0.0)};
  if (dim == 3) {
    auto v = [&](int a) { return stencil_vertex_of<S, 3>(x, a); };
    switch (kind) {
      case StencilKind::point_edge: {
        c[0] = point_edge_coordinate<S, 3>(v(0), v(1), v(2));
        f.num_vertices = 3;
        f.weights = {S(1.0), c[0] - S(1.0), -c[0], S(0.0)};
        f.basis = point_edge_basis<S>(v(0), v(1), v(2));
        break;
      }
      case StencilKind::point_triangle: {
        c = point_triangle_coordinates<S>(v(0), v(1), v(2), v(3));
        f.num_vertices = 4;
        f.weights = {S(1.0), c[0] + c[1] - S(1.0), -c[0], -c[1]};
        f.basis = plane_basis<S>(v(2) - v(1), v(3) - v(1));
        break;
      }
      case StencilKind::edge_edge: {
        c = edge_edge_coordinates<S>(v(0), v(1), v(2), v(3));
        f.num_vertices = 4;
        f.weights = {S(1.0) - c[0], c[0], c[1] - S(1.0), -c[1]};
        f.basis = plane_basis<S>(v(1) - v(0), v(3) - v(2));
        break;
      }
      default:  // point-point
        f.num_vertices = 2;
        f.weights = {S(1.0), S(-1.0), S(0.0), S(0.0)};
        f.basis = point_point_basis<S>(v(0), v(1));
        break;
    }
  } else if (kind == StencilKind::point_edge) {
    auto v = [&](int a) { return stencil_vertex_of<S, 2>(x, a); };
    c[0] = point_edge_coordinate<S, 2>(v(0), v(1), v(2));
    f.num_vertices = 3;
    f.weights = {S(1.0), c[0] - S(1.0), -c[0], S(0.0)};
    f.basis = point_edge_basis<S>(v(1), v(2));
  } else {  // 2D point-point
    auto v = [&](int a) { return stencil_vertex_of<S, 2>(x, a); };
    f.num_vertices = 2;
    f.weights = {S(1.0), S(-1.0), S(0.0), S(0.0)};
    f.basis = point_point_basis<S>(v(0), v(1));
  }
  if (coords) *coords = c;
  return f;
}

// The squared distance of the closest points sum_a w_a x_a (the weights sum to zero).
template <class S>
S closest_points_distance_squared(const FrictionFrame<S>& f, const S* x, int dim) {
  S s(0.0);
  for (int r = 0; r < dim; ++r) {
    S gap(0.0);
    for (int a = 0; a < f.num_vertices; ++a) gap += f.weights[a] * x[a * dim + r];
    s += gap * gap;
  }
  return s;
}

// The tangent projector B = I - n n^T of a unit normal: the basis of contacts whose normal comes
// from a distance field (analytic obstacles, penalty contact); its derivative follows by the
// product rule on Duals.
template <class S, class N>
typename FrictionFrame<S>::Basis tangent_projector(const N& n) {
  const auto dim = n.size();
  typename FrictionFrame<S>::Basis B(dim, dim);
  for (Eigen::Index r = 0; r < dim; ++r)
    for (Eigen::Index k = 0; k < dim; ++k) B(r, k) = S(r == k ? 1.0 : 0.0) - n[r] * n[k];
  return B;
}

// The unit normal n = g / |g| of a distance field with gradient g and Hessian H at p, on the
// scalar of p: on Duals (p' = dp) its derivative is dn = (I - n n^T) H dp / |g|.
template <class S, class Grad, class Hess, class Dir>
Eigen::Matrix<S, Eigen::Dynamic, 1, 0, 3, 1> unit_normal_of_distance(const Grad& g, const Hess& H, const Dir& dp) {
  const double gn = g.norm();
  const VecUpTo3 n = g / gn;
  const VecUpTo3 Hdp = H * dp;
  const VecUpTo3 dn = Hdp / gn - n * (n.dot(Hdp) / gn);
  Eigen::Matrix<S, Eigen::Dynamic, 1, 0, 3, 1> out(n.size());
  for (Eigen::Index k = 0; k < n.size(); ++k) out[k] = scalar_with_derivative<S>(n[k], dn[k]);
  return out;
}

}  // namespace softsim
