// The test-support exact intersection check (tests/support/intersection_check.hpp): predicates
// against exact integer arithmetic, hand-made triangle and segment configurations, and speed on
// a few thousand triangles.
#include <gtest/gtest.h>

#include <chrono>
#include <random>

#include "support/intersection_check.hpp"

namespace softsim::test {
namespace {

using Tri = std::array<Eigen::Vector3d, 3>;

// Two triangles as one mesh (no shared vertex ids unless `share` maps a vertex of u to t's).
std::vector<std::pair<int, int>> check(const Tri& t, const Tri& u) {
  Eigen::MatrixXd V(6, 3);
  for (int k = 0; k < 3; ++k) {
    V.row(k) = t[k].transpose();
    V.row(3 + k) = u[k].transpose();
  }
  Eigen::MatrixXi F(2, 3);
  F << 0, 1, 2, 3, 4, 5;
  return triangle_intersections(V, F);
}

const Tri flat = {Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(1, 0, 0), Eigen::Vector3d(0, 1, 0)};

TEST(IntersectionCheck, Orient3dMatchesExactIntegerArithmeticNearDegeneracy) {
  // Integer coordinates below 2^30 scaled by 2^-30 are exact doubles; the determinant of
  // integer differences (< 2^31) fits in __int128 (< 2^95 per product).
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<long long> coord(-(1LL << 29), 1LL << 29), small(-3, 3), pert(-1, 1);
  const double s = 0x1p-30;
  long mismatches = 0;
  const long before = exact_fallbacks();
  for (int trial = 0; trial < 20000; ++trial) {
    long long a[3], b[3], c[3], d[3];
    for (int k = 0; k < 3; ++k) {
      a[k] = coord(rng) / 8;
      b[k] = coord(rng) / 8;
      c[k] = coord(rng) / 8;
    }
    // d on the plane of a, b, c (integer combination), then nudged by at most one unit.
    const long long i = small(rng), j = small(rng);
    for (int k = 0; k < 3; ++k) d[k] = a[k] + i * (b[k] - a[k]) + j * (c[k] - a[k]) + (trial % 2 ? pert(rng) : 0);
    bool fits = true;
    for (int k = 0; k < 3; ++k) fits = fits && std::llabs(d[k]) < (1LL << 30);
    if (!fits) continue;
    __int128 m[3][3];
    for (int k = 0; k < 3; ++k) {
      m[0][k] = a[k] - d[k];
      m[1][k] = b[k] - d[k];
      m[2][k] = c[k] - d[k];
    }
    const __int128 det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                         m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                         m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    // Shewchuk's orient3d is det[a-d, b-d, c-d] with rows (x, y, z): the transpose, same value.
    const int expected = det > 0 ? 1 : det < 0 ? -1 : 0;
    double A[3], B[3], C[3], D[3];
    for (int k = 0; k < 3; ++k) {
      A[k] = a[k] * s;
      B[k] = b[k] * s;
      C[k] = c[k] * s;
      D[k] = d[k] * s;
    }
    mismatches += orient3d(A, B, C, D) != expected;
  }
  EXPECT_EQ(mismatches, 0);
  EXPECT_GT(exact_fallbacks() - before, 1000) << "the near-degenerate cases should exercise the exact path";
}

TEST(IntersectionCheck, Orient2dMatchesExactIntegerArithmetic) {
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<long long> coord(-(1LL << 40), 1LL << 40), small(-5, 5), pert(-1, 1);
  long mismatches = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    long long a[2], b[2], c[2];
    for (int k = 0; k < 2; ++k) {
      a[k] = coord(rng);
      b[k] = coord(rng) / 16;
    }
    const long long t = small(rng);
    for (int k = 0; k < 2; ++k) c[k] = a[k] + t * (b[k] - a[k]) / 1 + pert(rng);
    const __int128 det = (__int128)(a[0] - c[0]) * (b[1] - c[1]) - (__int128)(a[1] - c[1]) * (b[0] - c[0]);
    const int expected = det > 0 ? 1 : det < 0 ? -1 : 0;
    const double A[2] = {double(a[0]) * 0x1p-40, double(a[1]) * 0x1p-40};
    const double B[2] = {double(b[0]) * 0x1p-40, double(b[1]) * 0x1p-40};
    const double C[2] = {double(c[0]) * 0x1p-40, double(c[1]) * 0x1p-40};
    mismatches += orient2d(A, B, C) != expected;
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(IntersectionCheck, CrossingTriangles) {
  const Tri u = {Eigen::Vector3d(0.2, 0.2, -0.5), Eigen::Vector3d(0.3, 0.2, 0.5), Eigen::Vector3d(0.2, 0.4, 0.5)};
  EXPECT_EQ(check(flat, u).size(), 1u);
  // Interlocked like two chain links: no vertex of either inside the other.
  const Tri v = {Eigen::Vector3d(0.3, -0.5, 0.3), Eigen::Vector3d(0.3, 0.5, 0.3), Eigen::Vector3d(0.3, 0.0, -0.5)};
  EXPECT_EQ(check(flat, v).size(), 1u);
}

TEST(IntersectionCheck, TouchingCountsAsIntersecting) {
  // A vertex on the interior, a vertex on an edge, edge on edge (crossing at a point), vertex on vertex.
  EXPECT_EQ(check(flat, {Eigen::Vector3d(0.25, 0.25, 0), Eigen::Vector3d(0.3, 0.2, 1), Eigen::Vector3d(0.2, 0.4, 1)}).size(), 1u);
  EXPECT_EQ(check(flat, {Eigen::Vector3d(0.5, 0.5, 0), Eigen::Vector3d(1, 1, 1), Eigen::Vector3d(0.8, 1, 1)}).size(), 1u);
  EXPECT_EQ(check(flat, {Eigen::Vector3d(0.5, -0.5, 0), Eigen::Vector3d(0.5, 0.5, 0 + 0.0), Eigen::Vector3d(0.5, 0, 1)})
                .size(),
            1u);
  EXPECT_EQ(check(flat, {Eigen::Vector3d(1, 0, 0), Eigen::Vector3d(2, 0, 1), Eigen::Vector3d(2, 1, 1)}).size(), 1u);
  // Exactly coplanar with a tilted plane through non-trivial coordinates: (0.25, 0.25, 0.5) lies
  // on x + y + z = 1.
  const Tri tilted = {Eigen::Vector3d(1, 0, 0), Eigen::Vector3d(0, 1, 0), Eigen::Vector3d(0, 0, 1)};
  EXPECT_EQ(check(tilted, {Eigen::Vector3d(0.25, 0.25, 0.5), Eigen::Vector3d(1, 1, 1), Eigen::Vector3d(0.9, 1, 1.2)}).size(), 1u);
}

TEST(IntersectionCheck, SeparatedByAPicometreIsNotAnIntersection) {
  EXPECT_TRUE(check(flat, {Eigen::Vector3d(0.25, 0.25, 1e-12), Eigen::Vector3d(0.3, 0.2, 1), Eigen::Vector3d(0.2, 0.4, 1)}).empty());
  EXPECT_TRUE(check(flat, {Eigen::Vector3d(0.25, 0.25, -1e-12), Eigen::Vector3d(0.3, 0.2, -1), Eigen::Vector3d(0.2, 0.4, -1)}).empty());
  // Beside an edge, in the plane: 1e-12 outside the hypotenuse x + y = 1.
  EXPECT_TRUE(check(flat, {Eigen::Vector3d(0.5 + 1e-12, 0.5, 0), Eigen::Vector3d(1, 1, 0.5), Eigen::Vector3d(1, 1, -0.5)}).empty());
  EXPECT_EQ(check(flat, {Eigen::Vector3d(0.5 - 1e-12, 0.5, 0), Eigen::Vector3d(1, 1, 0.5), Eigen::Vector3d(1, 1, -0.5)}).size(), 1u);
  // Edge-edge skew at 1e-12.
  EXPECT_TRUE(check(flat, {Eigen::Vector3d(0.5, -0.5, 1e-12), Eigen::Vector3d(0.5, 0.5, 1e-12), Eigen::Vector3d(0.5, 0, 1)}).empty());
}

TEST(IntersectionCheck, CoplanarOverlapAndContainment) {
  EXPECT_EQ(check(flat, {Eigen::Vector3d(0.5, 0.5, 0), Eigen::Vector3d(-0.5, 0.2, 0), Eigen::Vector3d(0.2, -0.5, 0)}).size(), 1u);
  EXPECT_EQ(check(flat, {Eigen::Vector3d(0.1, 0.1, 0), Eigen::Vector3d(0.2, 0.1, 0), Eigen::Vector3d(0.1, 0.2, 0)}).size(), 1u);
  EXPECT_TRUE(check(flat, {Eigen::Vector3d(1, 1, 0), Eigen::Vector3d(2, 1, 0), Eigen::Vector3d(1, 2, 0)}).empty());
}

TEST(IntersectionCheck, TrianglesSharingAVertexAreExcluded) {
  Eigen::MatrixXd V(5, 3);
  V << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0.5, 0.5, 0, -0.5, 0.2, 0;  // coplanar and overlapping
  Eigen::MatrixXi F(2, 3);
  F << 0, 1, 2, 0, 3, 4;
  EXPECT_TRUE(triangle_intersections(V, F).empty());
  F << 0, 1, 2, 3, 4, 4;  // degenerate second triangle, no shared vertex: segment 3-4 crosses
  EXPECT_EQ(triangle_intersections(V, F).size(), 1u);
}

TEST(IntersectionCheck, Segments2D) {
  Eigen::MatrixXd V(8, 2);
  V << 0, 0, 1, 1, 0, 1, 1, 0,  // an X
      2, 0, 3, 0, 3, 0, 4, 1e-12;
  Eigen::MatrixXi E(2, 2);
  E << 0, 1, 2, 3;
  EXPECT_EQ(segment_intersections_2d(V, E).size(), 1u);
  E << 4, 5, 6, 7;  // touching at an end point, different ids
  EXPECT_EQ(segment_intersections_2d(V, E).size(), 1u);
  E << 4, 5, 5, 7;  // sharing vertex 5: excluded
  EXPECT_TRUE(segment_intersections_2d(V, E).empty());
  V.row(6) << 3 + 1e-12, 0;
  E << 4, 5, 6, 7;  // 1e-12 apart
  EXPECT_TRUE(segment_intersections_2d(V, E).empty());
  V.row(6) << 2.5, 0;  // collinear overlap
  V.row(7) << 3.5, 0;
  EXPECT_EQ(segment_intersections_2d(V, E).size(), 1u);
}

TEST(IntersectionCheck, ThousandsOfTrianglesQuickly) {
  // Two interleaved closed-ish surfaces: a 100 x 100 height field and a copy shifted up by
  // 1e-9 (no intersection), then one vertex pushed through (intersections found).
  const int n = 100;
  Eigen::MatrixXd V(2 * (n + 1) * (n + 1), 3);
  Eigen::MatrixXi F(4 * n * n, 3);
  for (int c = 0; c < 2; ++c)
    for (int i = 0; i <= n; ++i)
      for (int j = 0; j <= n; ++j)
        V.row(c * (n + 1) * (n + 1) + i * (n + 1) + j) << i * 0.01, 0.05 * std::sin(i * 0.1) * std::cos(j * 0.13) + c * 1e-9,
            j * 0.01;
  int f = 0;
  for (int c = 0; c < 2; ++c)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const int o = c * (n + 1) * (n + 1), a = o + i * (n + 1) + j, b = a + 1, d = a + n + 1, e = d + 1;
        F.row(f++) << a, d, b;
        F.row(f++) << b, d, e;
      }
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_TRUE(triangle_intersections(V, F).empty());
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::printf("[ check ] %d triangles: %.1f ms\n", static_cast<int>(F.rows()), ms);
  EXPECT_LT(ms, 5000.0);
  V(50 * (n + 1) + 50, 1) += 1e-8;  // a lower-surface vertex through the upper surface
  EXPECT_FALSE(triangle_intersections(V, F).empty());
}

}  // namespace
}  // namespace softsim::test
