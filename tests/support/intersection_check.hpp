#pragma once
// An exact intersection check, independent of the contact code (test support, header-only):
// every pair of non-adjacent surface triangles (3D) or edges (2D) that intersect, touching
// included (closed sets). Two primitives are adjacent when they share a vertex id; such pairs
// are never reported.
//
// Predicates. Triangle-triangle is decided by edge-triangle tests (two closed triangles
// intersect iff an edge of one meets the other), each from orient3d signs, and coplanar cases by
// orient2d in an axis-aligned projection in which the triangle is not degenerate (an affine
// bijection of the plane, so incidences are preserved exactly). orient2d/orient3d are evaluated
// with Shewchuk's static-dynamic filter (the double determinant with its forward error bound,
// errboundA = (3 + 16 eps) eps and (7 + 56 eps) eps times the permanent) and, when the filter
// cannot decide, exactly with floating-point expansions (Shewchuk 1997: TwoSum, TwoProduct via
// fma, Grow-Expansion): the sign of the exact determinant of the given doubles, with no rounding
// at all (barring overflow/underflow, impossible for coordinates of physical size). __float128
// was not used because it is not exact: a product of three coordinate differences needs up to
// ~3 x 54 bits, more than its 113-bit mantissa.
//
// Pre-filter: sweep and prune of the primitives' closed bounding boxes along the axis of largest
// spread (exact: boxes are min/max of the input doubles, compared with <=).
#include <algorithm>
#include <array>
#include <cmath>
#include <utility>
#include <vector>

#include <Eigen/Core>

namespace softsim::test {

namespace exact {

using Expansion = std::vector<double>;

inline void two_sum(double a, double b, double& x, double& y) {
  x = a + b;
  const double bv = x - a, av = x - bv;
  y = (a - av) + (b - bv);
}
inline void two_prod(double a, double b, double& x, double& y) {
  x = a * b;
  y = std::fma(a, b, -x);
}
// Grow-Expansion (Shewchuk 1997, Thm 10): e nonoverlapping, increasing magnitude -> e + b.
inline Expansion grow(const Expansion& e, double b) {
  Expansion h;
  h.reserve(e.size() + 1);
  double q = b;
  for (double ei : e) {
    double x, y;
    two_sum(q, ei, x, y);
    if (y != 0.0) h.push_back(y);
    q = x;
  }
  if (q != 0.0 || h.empty()) h.push_back(q);
  return h;
}
inline Expansion sum(const Expansion& e, const Expansion& f) {
  Expansion h = e;
  for (double fi : f) h = grow(h, fi);
  return h;
}
inline Expansion negate(Expansion e) {
  for (double& v : e) v = -v;
  return e;
}
inline Expansion scale(const Expansion& e, double b) {
  Expansion h;
  for (double ei : e) {
    double x, y;
    two_prod(ei, b, x, y);
    h = grow(h, y);
    h = grow(h, x);
  }
  return h;
}
inline Expansion product(const Expansion& e, const Expansion& f) {
  Expansion h;
  for (double fi : f) h = sum(h, scale(e, fi));
  return h;
}
inline Expansion diff(double a, double b) {
  double x, y;
  two_sum(a, -b, x, y);
  return grow(Expansion{y}, x);
}
// Sign of a nonoverlapping expansion: that of its largest (last nonzero) component.
inline int sign(const Expansion& e) {
  for (auto it = e.rbegin(); it != e.rend(); ++it)
    if (*it != 0.0) return *it > 0 ? 1 : -1;
  return 0;
}

}  // namespace exact

// Counters of how often the exact fallback ran (for the unit test and curiosity).
inline long& exact_fallbacks() {
  static thread_local long n = 0;
  return n;
}

// Sign of det[b - a, c - a] (2D): > 0 counter-clockwise.
inline int orient2d(const double* a, const double* b, const double* c) {
  const double acx = a[0] - c[0], bcx = b[0] - c[0], acy = a[1] - c[1], bcy = b[1] - c[1];
  const double l = acx * bcy, r = acy * bcx, det = l - r;
  const double eps = 0x1p-53;
  const double bound = (3.0 + 16.0 * eps) * eps * (std::abs(l) + std::abs(r));
  if (det > bound) return 1;
  if (-det > bound) return -1;
  if (l == 0.0 && r == 0.0) return 0;
  ++exact_fallbacks();
  using namespace exact;
  const Expansion e = sum(product(diff(a[0], c[0]), diff(b[1], c[1])),
                          negate(product(diff(a[1], c[1]), diff(b[0], c[0]))));
  return sign(e);
}

// Sign of det[a - d, b - d, c - d] (Shewchuk's orient3d: > 0 when d is below the plane of a, b,
// c seen counter-clockwise from above).
inline int orient3d(const double* a, const double* b, const double* c, const double* d) {
  const double adx = a[0] - d[0], bdx = b[0] - d[0], cdx = c[0] - d[0];
  const double ady = a[1] - d[1], bdy = b[1] - d[1], cdy = c[1] - d[1];
  const double adz = a[2] - d[2], bdz = b[2] - d[2], cdz = c[2] - d[2];
  const double bdxcdy = bdx * cdy, cdxbdy = cdx * bdy, cdxady = cdx * ady, adxcdy = adx * cdy;
  const double adxbdy = adx * bdy, bdxady = bdx * ady;
  const double det = adz * (bdxcdy - cdxbdy) + bdz * (cdxady - adxcdy) + cdz * (adxbdy - bdxady);
  const double permanent = (std::abs(bdxcdy) + std::abs(cdxbdy)) * std::abs(adz) +
                           (std::abs(cdxady) + std::abs(adxcdy)) * std::abs(bdz) +
                           (std::abs(adxbdy) + std::abs(bdxady)) * std::abs(cdz);
  const double eps = 0x1p-53;
  const double bound = (7.0 + 56.0 * eps) * eps * permanent;
  if (det > bound) return 1;
  if (-det > bound) return -1;
  if (permanent == 0.0) return 0;
  ++exact_fallbacks();
  using namespace exact;
  const Expansion ax = diff(a[0], d[0]), bx = diff(b[0], d[0]), cx = diff(c[0], d[0]);
  const Expansion ay = diff(a[1], d[1]), by = diff(b[1], d[1]), cy = diff(c[1], d[1]);
  const Expansion az = diff(a[2], d[2]), bz = diff(b[2], d[2]), cz = diff(c[2], d[2]);
  const Expansion t1 = product(az, sum(product(bx, cy), negate(product(cx, by))));
  const Expansion t2 = product(bz, sum(product(cx, ay), negate(product(ax, cy))));
  const Expansion t3 = product(cz, sum(product(ax, by), negate(product(bx, ay))));
  return sign(sum(sum(t1, t2), t3));
}

// Closed segments pq and rs in 2D intersect.
inline bool segments_intersect_2d(const double* p, const double* q, const double* r, const double* s) {
  const int o1 = orient2d(p, q, r), o2 = orient2d(p, q, s), o3 = orient2d(r, s, p), o4 = orient2d(r, s, q);
  if (o1 * o2 > 0 || o3 * o4 > 0) return false;
  if (o1 != 0 || o2 != 0 || o3 != 0 || o4 != 0) return true;  // proper crossing or an endpoint on the other
  // Collinear: overlap of the projections on an axis along which the line is not constant.
  const int k = p[0] != q[0] || r[0] != s[0] ? 0 : 1;
  const double a0 = std::min(p[k], q[k]), a1 = std::max(p[k], q[k]);
  const double b0 = std::min(r[k], s[k]), b1 = std::max(r[k], s[k]);
  return a0 <= b1 && b0 <= a1;
}

namespace detail {

// Coplanar: closed segment pq meets closed triangle abc (all in one plane), in the projection
// dropping `axis`.
inline bool coplanar_segment_triangle(const double* p, const double* q, const double* a, const double* b,
                                      const double* c, int axis) {
  const int i = axis == 0 ? 1 : 0, j = axis == 2 ? 1 : 2;
  auto proj = [&](const double* v) { return std::array<double, 2>{v[i], v[j]}; };
  const auto P = proj(p), Q = proj(q), A = proj(a), B = proj(b), C = proj(c);
  const int o = orient2d(A.data(), B.data(), C.data());
  auto inside = [&](const std::array<double, 2>& X) {
    const int s0 = orient2d(A.data(), B.data(), X.data()) * o, s1 = orient2d(B.data(), C.data(), X.data()) * o,
              s2 = orient2d(C.data(), A.data(), X.data()) * o;
    return s0 >= 0 && s1 >= 0 && s2 >= 0;
  };
  if (inside(P) || inside(Q)) return true;
  return segments_intersect_2d(P.data(), Q.data(), A.data(), B.data()) ||
         segments_intersect_2d(P.data(), Q.data(), B.data(), C.data()) ||
         segments_intersect_2d(P.data(), Q.data(), C.data(), A.data());
}

}  // namespace detail

// Closed segment pq meets closed triangle abc (non-degenerate triangle).
inline bool segment_triangle_intersect(const double* p, const double* q, const double* a, const double* b,
                                       const double* c) {
  const int op = orient3d(a, b, c, p), oq = orient3d(a, b, c, q);
  if (op * oq > 0) return false;
  if (op == 0 && oq == 0) {
    // Coplanar: project along an axis for which the projected triangle is not degenerate.
    for (int axis = 0; axis < 3; ++axis) {
      const int i = axis == 0 ? 1 : 0, j = axis == 2 ? 1 : 2;
      const double A[2] = {a[i], a[j]}, B[2] = {b[i], b[j]}, C[2] = {c[i], c[j]};
      if (orient2d(A, B, C) != 0) return detail::coplanar_segment_triangle(p, q, a, b, c, axis);
    }
    return false;  // degenerate triangle: its edges are tested as segments by the caller's pair
  }
  // The segment meets the plane in one point: it lies in the triangle iff the line pq passes
  // the three edges on the same side (zero allowed: on an edge or a vertex).
  const int s0 = orient3d(p, q, a, b), s1 = orient3d(p, q, b, c), s2 = orient3d(p, q, c, a);
  return (s0 >= 0 && s1 >= 0 && s2 >= 0) || (s0 <= 0 && s1 <= 0 && s2 <= 0);
}

inline bool triangles_intersect(const double* const t[3], const double* const u[3]) {
  for (int e = 0; e < 3; ++e) {
    if (segment_triangle_intersect(t[e], t[(e + 1) % 3], u[0], u[1], u[2])) return true;
    if (segment_triangle_intersect(u[e], u[(e + 1) % 3], t[0], t[1], t[2])) return true;
  }
  return false;
}

// Candidate pairs (i < j) of primitives whose closed bounding boxes overlap, adjacent pairs
// (sharing a vertex id) excluded. V: vertices as rows; P: primitives as rows of vertex ids.
template <int K>
std::vector<std::pair<int, int>> box_overlap_pairs(const Eigen::MatrixXd& V, const Eigen::MatrixXi& P) {
  const int n = static_cast<int>(P.rows()), dim = static_cast<int>(V.cols());
  std::vector<double> lo(static_cast<std::size_t>(n) * dim), hi(lo.size());
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < dim; ++d) {
      double a = V(P(i, 0), d), b = a;
      for (int k = 1; k < K; ++k) {
        a = std::min(a, V(P(i, k), d));
        b = std::max(b, V(P(i, k), d));
      }
      lo[i * dim + d] = a;
      hi[i * dim + d] = b;
    }
  int axis = 0;
  if (V.rows() > 0) {
    const Eigen::RowVectorXd spread = V.colwise().maxCoeff() - V.colwise().minCoeff();
    spread.maxCoeff(&axis);
  }
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return lo[a * dim + axis] < lo[b * dim + axis] || (lo[a * dim + axis] == lo[b * dim + axis] && a < b);
  });
  std::vector<std::pair<int, int>> pairs;
  for (int s = 0; s < n; ++s) {
    const int i = order[s];
    for (int r = s + 1; r < n; ++r) {
      const int j = order[r];
      if (lo[j * dim + axis] > hi[i * dim + axis]) break;
      bool overlap = true;
      for (int d = 0; d < dim && overlap; ++d) overlap = lo[j * dim + d] <= hi[i * dim + d] && lo[i * dim + d] <= hi[j * dim + d];
      if (!overlap) continue;
      bool adjacent = false;
      for (int a = 0; a < K && !adjacent; ++a)
        for (int b = 0; b < K; ++b)
          if (P(i, a) == P(j, b)) {
            adjacent = true;
            break;
          }
      if (!adjacent) pairs.emplace_back(std::min(i, j), std::max(i, j));
    }
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

// Every intersecting pair (i < j, row indices into F) of non-adjacent triangles. V: n x 3.
inline std::vector<std::pair<int, int>> triangle_intersections(const Eigen::MatrixXd& V, const Eigen::MatrixXi& F) {
  std::vector<std::pair<int, int>> out;
  const Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> R = V;
  for (const auto& [i, j] : box_overlap_pairs<3>(V, F)) {
    const double* t[3] = {R.row(F(i, 0)).data(), R.row(F(i, 1)).data(), R.row(F(i, 2)).data()};
    const double* u[3] = {R.row(F(j, 0)).data(), R.row(F(j, 1)).data(), R.row(F(j, 2)).data()};
    if (triangles_intersect(t, u)) out.emplace_back(i, j);
  }
  return out;
}

// Every intersecting pair (i < j, row indices into E) of non-adjacent segments. V: n x 2.
inline std::vector<std::pair<int, int>> segment_intersections_2d(const Eigen::MatrixXd& V, const Eigen::MatrixXi& E) {
  std::vector<std::pair<int, int>> out;
  const Eigen::Matrix<double, Eigen::Dynamic, 2, Eigen::RowMajor> R = V;
  for (const auto& [i, j] : box_overlap_pairs<2>(V, E))
    if (segments_intersect_2d(R.row(E(i, 0)).data(), R.row(E(i, 1)).data(), R.row(E(j, 0)).data(),
                              R.row(E(j, 1)).data()))
      out.emplace_back(i, j);
  return out;
}

// Points (vertex ids) lying in a closed triangle (2D, rows of T) that does not contain them as
// a corner: (point, triangle) pairs. For point-like bodies (mass-spring nodes) against solids.
inline std::vector<std::pair<int, int>> points_in_triangles_2d(const Eigen::MatrixXd& V, const std::vector<int>& points,
                                                               const Eigen::MatrixXi& T) {
  std::vector<std::pair<int, int>> out;
  const Eigen::Matrix<double, Eigen::Dynamic, 2, Eigen::RowMajor> R = V;
  for (int p : points)
    for (int t = 0; t < T.rows(); ++t) {
      if (T(t, 0) == p || T(t, 1) == p || T(t, 2) == p) continue;
      const double *a = R.row(T(t, 0)).data(), *b = R.row(T(t, 1)).data(), *c = R.row(T(t, 2)).data(),
                   *x = R.row(p).data();
      const int o = orient2d(a, b, c);
      if (o == 0) continue;
      if (orient2d(a, b, x) * o >= 0 && orient2d(b, c, x) * o >= 0 && orient2d(c, a, x) * o >= 0) out.emplace_back(p, t);
    }
  return out;
}

}  // namespace softsim::test
