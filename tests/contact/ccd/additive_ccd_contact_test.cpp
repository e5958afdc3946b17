// Additive CCD on pairs that touch at t = 0 and on degenerate motions: exact contact at the start
// is a collision at t = 0 whatever the motion (approaching, separating, sliding, still), whether
// the coordinates make the computed distance exactly 0 or leave a rounding residue of 1e-17; and
// a degenerate query (sliding at a tiny distance, collapsing primitives) stops within the
// iteration cap with a conservative answer.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "softsim/contact/ccd/additive_ccd.hpp"
#include "softsim/contact/distance/edge_edge.hpp"
#include "softsim/contact/distance/point_triangle.hpp"

namespace softsim {
namespace {

using V3 = Eigen::Vector3d;

struct Motion {
  std::string name;
  std::array<V3, 4> d;  // displacement of each of the 4 vertices over the step
};

// Motions of a stencil whose first vertex (or edge: first two) touches the rest at t = 0.
std::vector<Motion> motions(const V3& normal, const V3& tangent, bool edge_edge) {
  const V3 z = V3::Zero();
  const auto first = [&](const V3& v) { return edge_edge ? std::array<V3, 4>{v, v, z, z} : std::array<V3, 4>{v, z, z, z}; };
  return {{"through", first(-normal)},
          {"apart", first(normal)},
          {"sliding", first(tangent)},
          {"still", first(z)},
          {"other_moves_through", {z, z, normal, normal}},
          {"both_slide_opposite", edge_edge ? std::array<V3, 4>{tangent, tangent, -tangent, -tangent}
                                            : std::array<V3, 4>{tangent, -tangent, -tangent, -tangent}}};
}

struct Touching {
  std::string name;
  std::array<V3, 4> x;  // the stencil at t = 0
  V3 normal, tangent;
};

// A point touching a triangle: interior, on an edge, at a vertex; with coordinates exact in
// binary (distance 0 exactly) and decimal ones (a rounding residue).
std::vector<Touching> point_on_triangle() {
  std::vector<Touching> cases;
  const V3 n(0, 0, 1), s(1, 0.5, 0);
  for (const double scale : {1.0, 0.1, 1e-3, 37.3}) {
    const V3 t0 = scale * V3(0, 0, 0), t1 = scale * V3(1, 0, 0), t2 = scale * V3(0, 1, 0);
    cases.push_back({"interior_" + std::to_string(scale), {scale * V3(0.25, 0.25, 0), t0, t1, t2}, scale * n, scale * s});
    cases.push_back({"edge_" + std::to_string(scale), {scale * V3(0.5, 0.5, 0), t0, t1, t2}, scale * n, scale * s});
    cases.push_back({"vertex_" + std::to_string(scale), {t1, t0, t1, t2}, scale * n, scale * s});
  }
  // A tilted triangle in general position, the point at decimal barycentric coordinates: the
  // computed distance is a rounding residue, not 0.
  const V3 a(0.1, 0.2, 0.3), b(1.1, -0.3, 0.7), c(-0.2, 0.9, 0.4);
  const V3 n2 = (b - a).cross(c - a).normalized();
  cases.push_back({"tilted_interior", {a + 0.3 * (b - a) + 0.3 * (c - a), a, b, c}, n2, (b - a).normalized()});
  cases.push_back({"tilted_edge", {a + 0.7 * (b - a), a, b, c}, n2, (c - a).normalized()});
  return cases;
}

// Two edges touching: crossing at interior points, an end on the other edge, end to end, and
// parallel edges overlapping along a segment (collinear).
std::vector<Touching> touching_edges() {
  std::vector<Touching> cases;
  for (const double scale : {1.0, 1e-3, 37.3}) {
    const V3 n = scale * V3(0, 0, 1);
    cases.push_back({"crossing_" + std::to_string(scale),
                     {scale * V3(-1, 0, 0), scale * V3(1, 0, 0), scale * V3(0.25, -1, 0), scale * V3(0.25, 1, 0)},
                     n, scale * V3(0.3, 1, 0)});
    cases.push_back({"end_on_edge_" + std::to_string(scale),
                     {scale * V3(0.5, 0, 0), scale * V3(0.5, 1, 1), scale * V3(0, 0, 0), scale * V3(1, 0, 0)},
                     scale * V3(0, 1, 1), scale * V3(1, 0, 0)});
    cases.push_back({"end_to_end_" + std::to_string(scale),
                     {scale * V3(1, 0, 0), scale * V3(2, 1, 0), scale * V3(1, 0, 0), scale * V3(1, -1, 1)},
                     n, scale * V3(0, 1, 0)});
    cases.push_back({"collinear_overlap_" + std::to_string(scale),
                     {scale * V3(0, 0, 0), scale * V3(1, 0, 0), scale * V3(0.5, 0, 0), scale * V3(1.5, 0, 0)},
                     n, scale * V3(1, 0, 0)});
  }
  // Decimal coordinates: a residue, not 0.
  const V3 p(0.1, 0.2, 0.3), q(0.7, -0.1, 0.9), dir(0.3, 0.8, -0.1);
  const V3 hit = p + 0.3 * (q - p);
  cases.push_back({"decimal_crossing", {p, q, hit - 0.7 * dir, hit + 0.3 * dir}, (q - p).cross(dir).normalized(), dir});
  return cases;
}

TEST(AdditiveCcdAtContact, APointTouchingATriangleAtTheStartCollidesAtZero) {
  for (const Touching& c : point_on_triangle())
    for (const Motion& m : motions(c.normal, c.tangent, false)) {
      std::array<V3, 4> e;
      for (int i = 0; i < 4; ++i) e[i] = c.x[i] + m.d[i];
      const CcdResult r = additive_ccd_point_triangle(c.x[0], c.x[1], c.x[2], c.x[3], e[0], e[1], e[2], e[3]);
      EXPECT_TRUE(r.collides && r.toi == 0.0)
          << c.name << " / " << m.name << ": collides " << r.collides << " at " << r.toi << " (distance at t = 0: "
          << std::sqrt(point_triangle_distance_squared(c.x[0], c.x[1], c.x[2], c.x[3])) << ")";
    }
}

TEST(AdditiveCcdAtContact, TouchingEdgesAtTheStartCollideAtZero) {
  for (const Touching& c : touching_edges())
    for (const Motion& m : motions(c.normal, c.tangent, true)) {
      std::array<V3, 4> e;
      for (int i = 0; i < 4; ++i) e[i] = c.x[i] + m.d[i];
      const CcdResult r = additive_ccd_edge_edge(c.x[0], c.x[1], c.x[2], c.x[3], e[0], e[1], e[2], e[3]);
      EXPECT_TRUE(r.collides && r.toi == 0.0)
          << c.name << " / " << m.name << ": collides " << r.collides << " at " << r.toi << " (distance at t = 0: "
          << std::sqrt(edge_edge_distance_squared(c.x[0], c.x[1], c.x[2], c.x[3])) << ")";
    }
}

TEST(AdditiveCcdAtContact, AZeroLengthEdgeOnTheOtherEdgeCollidesAtZero) {
  const V3 p(0.5, 0, 0), a(0, 0, 0), b(1, 0, 0), up(0, 1, 0);
  const CcdResult r = additive_ccd_edge_edge(p, p, a, b, p + up, p + up, a, b);
  EXPECT_TRUE(r.collides);
  EXPECT_EQ(r.toi, 0.0);
}

TEST(AdditiveCcdAtContact, ASeparatedPairIsNotMistakenForContact) {
  // 1e-9 of the extent apart is well above rounding: the tolerance does not swallow real gaps.
  const V3 t0(0, 0, 0), t1(1, 0, 0), t2(0, 1, 0), p(0.25, 0.25, 1e-9), up(0, 0, 1);
  const CcdResult r = additive_ccd_point_triangle(p, t0, t1, t2, p + up, t0, t1, t2);
  EXPECT_FALSE(r.collides);
  const CcdResult slide = additive_ccd_point_triangle(p, t0, t1, t2, p + V3(0.1, 0.1, 0), t0, t1, t2);
  // Sliding at 1e-9: ACCD creeps (each step 0.9 d / l_p) and stops at the cap, conservatively.
  EXPECT_LE(slide.iterations, kAccdMaxIterations);
  if (slide.collides) EXPECT_GT(slide.toi, 0.0);
}

// Degenerate queries stop within the iteration cap, and what they report is conservative: no
// collision only when there is none, a collision no later than the true one.
TEST(AdditiveCcdAtContact, DegenerateQueriesAreBoundedAndConservative) {
  const V3 t0(0, 0, 0), t1(1, 0, 0), t2(0, 1, 0);
  const V3 z = V3::Zero();
  // Sliding in-plane at a tiny height, parallel edges sliding along each other at a tiny
  // offset, a triangle collapsing onto a segment near the point, an edge shrinking to a point.
  for (const double h : {1e-6, 1e-10, 1e-14}) {
    const V3 p(0.1, 0.1, h), slide(0.5, 0.3, 0);
    CcdResult r = additive_ccd_point_triangle(p, t0, t1, t2, p + slide, t0, t1, t2);
    EXPECT_LE(r.iterations, kAccdMaxIterations) << h;
    if (r.collides) EXPECT_GT(r.toi, 0.0) << h;  // they never touch: any reported time is an early stop
    const V3 a0(0, 0, h), a1(1, 0, h), along(0.7, 0, 0);
    r = additive_ccd_edge_edge(a0, a1, t0, t1, a0 + along, a1 + along, t0, t1);
    EXPECT_LE(r.iterations, kAccdMaxIterations) << h;
    // The triangle's third vertex moves onto the first edge: the triangle degenerates under a
    // point at height h above (0.1, 0.1); they touch only if the point reaches the segment.
    r = additive_ccd_point_triangle(p, t0, t1, t2, p, t0, t1, V3(0.5, 0, 0));
    EXPECT_LE(r.iterations, kAccdMaxIterations) << h;
    r = additive_ccd_edge_edge(a0, a1, t0, t1, V3(0.5, 0, h), V3(0.5, 0, h), t0, t1);
    EXPECT_LE(r.iterations, kAccdMaxIterations) << h;
  }
  // A point crossing a collapsing triangle is still caught.
  const V3 p(0.2, 0.2, 1);
  const CcdResult r = additive_ccd_point_triangle(p, t0, t1, t2, V3(0.2, 0.2, -1), t0, t1, V3(0.5, 0.5, 0));
  EXPECT_TRUE(r.collides);
  EXPECT_LE(r.toi, 0.5);
  (void)z;
}

// Random pairs touching at t = 0 with random motions: every one is a collision at t = 0.
TEST(AdditiveCcdAtContact, RandomTouchingPairsNeverMiss) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1), w(0, 1);
  const auto v = [&] { return V3(u(rng), u(rng), u(rng)); };
  int missed_vf = 0, missed_ee = 0;
  long iterations = 0;
  for (int k = 0; k < 2000; ++k) {
    const V3 a = v(), b = v(), c = v();
    double wa = w(rng), wb = w(rng);
    if (wa + wb > 1) wa = 1 - wa, wb = 1 - wb;
    const V3 p = a + wa * (b - a) + wb * (c - a);
    const CcdResult r = additive_ccd_point_triangle(p, a, b, c, p + v(), a + v(), b + v(), c + v());
    missed_vf += !(r.collides && r.toi == 0.0);
    iterations += r.iterations;
    const V3 e0 = v(), e1 = v(), f0 = v();
    const V3 hit = e0 + w(rng) * (e1 - e0);
    const V3 f1 = f0 + (hit - f0) / (0.1 + 0.9 * w(rng));  // hit lies on [f0, f1]
    const CcdResult s = additive_ccd_edge_edge(e0, e1, f0, f1, e0 + v(), e1 + v(), f0 + v(), f1 + v());
    missed_ee += !(s.collides && s.toi == 0.0);
    iterations += s.iterations;
  }
  EXPECT_EQ(missed_vf, 0);
  EXPECT_EQ(missed_ee, 0);
  EXPECT_EQ(iterations, 0);  // decided at t = 0, with no stepping
}

}  // namespace
}  // namespace softsim
