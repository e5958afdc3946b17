// The analytic obstacles' barrier on the body's faces and edges (obstacle_barrier.hpp,
// set_surface): a sphere's centre, a box's corners and edges against triangles and edges whose
// vertices are all beyond the barrier's reach, so that only the new pairs act. Gradients and
// Hessians against finite differences (static and moving obstacles, 2D and 3D), and the step
// filter stops a face that would pass through the obstacle between its vertices, checked by the
// independent clearance of support/obstacle_clearance.hpp.
#include <gtest/gtest.h>

#include "softsim/contact/barrier/obstacle_barrier.hpp"
#include "softsim/mesh/surface.hpp"
#include "softsim/model/model.hpp"
#include "support/evaluation.hpp"
#include "support/finite_difference.hpp"
#include "support/obstacle_clearance.hpp"

namespace softsim {
namespace obstacle_barrier_surface {
namespace {

AnalyticObstacle sphere_at_origin(double r) { return {AnalyticObstacle::Shape::Sphere, Vec3(0, 0, 0), {}, r, {}}; }
AnalyticObstacle box_at_origin() { return {AnalyticObstacle::Shape::Box, Vec3(0, 0, 0), {}, 0.0, Vec3(0.5, 0.3, 0.4)}; }

// A model of the given vertices (the obstacle's pose last when `pose`), one term: the barrier
// with the surface `cells` (triangles in 3D, edges in 2D).
struct SurfaceCase {
  Model model;
  const ObstacleBarrier* barrier = nullptr;
  SurfaceCase(int dim, const AnalyticObstacle& shape, const MatX& V, const MatXi& cells, double dhat, bool pose)
      : model(dim) {
    model.add_vertices(V);
    for (int i = 0; i < V.rows(); ++i) model.add_lumped_mass(i, 1.0);
    std::vector<double> weights(static_cast<std::size_t>(V.rows()), 0.3);
    auto term = std::make_unique<ObstacleBarrier>(dim, shape, weights, dhat, 1e3,
                                                  pose ? static_cast<int>(V.rows()) - 1 : -1);
    const MatXi faces = dim == 3 ? cells : MatXi(0, 3);
    const MatXi edges = dim == 3 ? unique_edges(cells) : cells;
    term->set_surface(faces, edges, model.rest_positions);
    barrier = term.get();
    model.add_energy(std::move(term));
    model.finalize();
  }
};

// Gradient and Hessian (fixed pattern plus the contact triplets) against finite differences.
void expect_derivatives_match(const SurfaceCase& c, const VecX& x) {
  const test::Evaluation e(c.model);
  auto energy = [&](const VecX& y) { return c.barrier->evaluate(e.ctx(), y, AssemblyOutputs{}); };
  auto gradient = [&](const VecX& y) {
    VecX g = VecX::Zero(y.size());
    c.barrier->evaluate(e.ctx(), y, AssemblyOutputs{&g, nullptr, 1.0, false});
    return g;
  };
  ASSERT_GT(energy(x), 0.0);
  ASSERT_TRUE(std::isfinite(energy(x)));
  EXPECT_LT(test::relative_error(gradient(x), test::fd_gradient(energy, x, 1e-8)), 1e-5);
  SparseMat H = c.model.layout().pattern();
  std::vector<Triplet> dynamic;
  c.barrier->evaluate(e.ctx(), x, AssemblyOutputs{nullptr, &H, 1.0, false, &dynamic});
  SparseMat D(H.rows(), H.cols());
  D.setFromTriplets(dynamic.begin(), dynamic.end());
  EXPECT_LT(test::relative_error(MatX(H) + MatX(D), test::fd_jacobian(gradient, x, 1e-8)), 1e-5);
}

MatXi one_triangle() { return (MatXi(1, 3) << 0, 1, 2).finished(); }

TEST(ObstacleSurfaceBarrier, SphereAgainstAFaceWhoseVerticesAreOutOfReach) {
  // A triangle 0.52 from the centre of a sphere of radius 0.5, its vertices ~0.6 away: only the
  // face's distance (the centre's projection inside it) is within dhat = 0.05.
  MatX V(3, 3);
  V << -0.3, 0.52, -0.2, 0.3, 0.52, -0.2, 0.0, 0.52, 0.35;
  const SurfaceCase c(3, sphere_at_origin(0.5), V, one_triangle(), 0.05, false);
  const VecX x = c.model.rest_positions;
  for (int i = 0; i < 3; ++i) ASSERT_GT(x.segment<3>(3 * i).norm() - 0.5, 0.05);
  EXPECT_NEAR(c.barrier->min_contact_distance(x), 0.02, 1e-12);
  expect_derivatives_match(c, x);
}

// Every vertex of V beyond the barrier's reach from the obstacle.
void expect_vertices_out_of_reach(const SurfaceCase& c, const VecX& x, double dhat) {
  for (int i = 0; i < c.model.num_vertices(); ++i)
    ASSERT_GT(c.barrier->signed_distance(x.segment<3>(3 * i), nullptr, nullptr), dhat) << "vertex " << i;
}

// One triangle V against box_at_origin() with dhat 0.1, its vertices beyond reach: the independent
// clearance is `expected`, the barrier's distance equals it, and its derivatives match.
void expect_box_contact(const MatX& V, double expected) {
  const SurfaceCase c(3, box_at_origin(), V, one_triangle(), 0.1, false);
  const VecX x = c.model.rest_positions;
  expect_vertices_out_of_reach(c, x, 0.1);
  const double clearance =
      test::box_clearance(x.reshaped<Eigen::RowMajor>(3, 3), one_triangle(), Vec3(0, 0, 0), Vec3(0.5, 0.3, 0.4));
  EXPECT_NEAR(clearance, expected, 1e-12);
  EXPECT_NEAR(c.barrier->min_contact_distance(x), clearance, 1e-12);
  expect_derivatives_match(c, x);
}

TEST(ObstacleSurfaceBarrier, BoxCornerAgainstAFace) {
  // A triangle in the plane 0.03 beyond the box's corner (0.5, 0.3, 0.4) along (1, 1, 1), at
  // right angles to it, its vertices 0.6 from the foot point: the corner is its nearest feature.
  const Vec3 corner(0.5, 0.3, 0.4), n = Vec3(1, 1, 1).normalized();
  const Vec3 u1 = Vec3(1, -1, 0).normalized(), u2 = Vec3(1, 1, -2).normalized();
  MatX V(3, 3);
  for (int k = 0; k < 3; ++k) {
    const double theta = M_PI / 2 + k * 2 * M_PI / 3;
    V.row(k) = (corner + 0.03 * n + 0.6 * (std::cos(theta) * u1 + std::sin(theta) * u2)).transpose();
  }
  expect_box_contact(V, 0.03);
}

TEST(ObstacleSurfaceBarrier, BoxEdgeAgainstAnEdge) {
  // The triangle's edge (v0, v1) crosses over the box's edge x = 0.5, y = 0.3 (along z) at an
  // angle, 0.02 from it at z = 0; the face extends away from the box; every vertex 0.6 off it.
  const Vec3 d(1, -1, 0.5), q = Vec3(0.5, 0.3, 0.0) + 0.02 * Vec3(1, 1, 0).normalized();
  MatX V(3, 3);
  V.row(0) = (q - 0.6 * d).transpose();
  V.row(1) = (q + 0.6 * d).transpose();
  V.row(2) = Vec3(1.3, 1.3, 0.0).transpose();
  expect_box_contact(V, 0.02);
}

TEST(ObstacleSurfaceBarrier, MovingSphereActsOnItsPoseVertex) {
  // The face case with the sphere's pose as a fourth vertex, moved: the energy depends on the
  // positions relative to the pose, and the derivatives cover the pose's DOFs.
  MatX V(4, 3);
  V << -0.3, 0.52, -0.2, 0.3, 0.52, -0.2, 0.0, 0.52, 0.35, 0.0, 0.0, 0.0;
  const SurfaceCase c(3, sphere_at_origin(0.5), V, one_triangle(), 0.05, true);
  VecX x = c.model.rest_positions;
  x.segment<3>(9) = Vec3(0.01, 0.005, -0.02);
  const test::Evaluation e(c.model);
  VecX shifted = x;
  for (int i = 0; i < 4; ++i) shifted.segment<3>(3 * i) += Vec3(0.3, -0.7, 0.2);
  const double E = c.barrier->evaluate(e.ctx(), x, AssemblyOutputs{});
  EXPECT_NEAR(c.barrier->evaluate(e.ctx(), shifted, AssemblyOutputs{}), E, 1e-9 * E);
  expect_derivatives_match(c, x);
}

TEST(ObstacleSurfaceBarrier, TwoDimensionalDiskAndRectangleAgainstAnEdge) {
  MatXi edge(1, 2);
  edge << 0, 1;
  {
    MatX V(2, 2);  // a segment 0.03 above a disk of radius 0.5, its ends ~0.35 off it
    V << -0.6, 0.53, 0.6, 0.53;
    const SurfaceCase c(2, {AnalyticObstacle::Shape::Sphere, Vec2(0, 0), {}, 0.5, {}}, V, edge, 0.05, false);
    EXPECT_NEAR(c.barrier->min_contact_distance(c.model.rest_positions), 0.03, 1e-12);
    expect_derivatives_match(c, c.model.rest_positions);
  }
  {
    // A tilted segment 0.03 from the rectangle's corner (0.5, 0.3), its ends far from it.
    const Vec2 d = Vec2(1.0, -0.6).normalized(), q = Vec2(0.5, 0.3) + 0.03 * Vec2(0.6, 1.0).normalized();
    MatX V(2, 2);
    V.row(0) = (q - 0.5 * d).transpose();
    V.row(1) = (q + 0.5 * d).transpose();
    const SurfaceCase c(2, {AnalyticObstacle::Shape::Box, Vec2(0, 0), {}, 0.0, Vec2(0.5, 0.3)}, V, edge, 0.1, false);
    const double clearance =
        test::rectangle_clearance(c.model.rest_positions.reshaped<Eigen::RowMajor>(2, 2), edge, Vec2(0, 0), Vec2(0.5, 0.3));
    ASSERT_GT(clearance, 0.0);
    EXPECT_NEAR(c.barrier->min_contact_distance(c.model.rest_positions), clearance, 1e-12);
    expect_derivatives_match(c, c.model.rest_positions);
  }
}

// A large triangle moved down through the obstacle: its vertices pass beside it (the vertex
// filter alone lets the whole step through), its face does not.
TEST(ObstacleSurfaceBarrier, StepFilterStopsAFaceBetweenItsVertices) {
  for (const AnalyticObstacle& shape : {sphere_at_origin(0.3), box_at_origin()}) {
    MatX V(3, 3);
    V << -1.5, 1.0, -1.0, 1.5, 1.0, -1.0, 0.0, 1.0, 1.6;
    const SurfaceCase c(3, shape, V, one_triangle(), 0.01, false);
    const VecX x = c.model.rest_positions;
    VecX p = VecX::Zero(9);
    for (int i = 0; i < 3; ++i) p[3 * i + 1] = -2.0;  // to y = -1: through the obstacle
    const test::Evaluation e(c.model);
    const double alpha = c.barrier->max_step_fraction(e.ctx(), x, p);
    EXPECT_LT(alpha, 1.0);
    for (int k = 0; k <= 200; ++k) {
      const VecX y = x + (alpha * k / 200.0) * p;
      const MatX rows = y.reshaped<Eigen::RowMajor>(3, 3);
      const double clearance = shape.shape == AnalyticObstacle::Shape::Sphere
                                   ? test::sphere_clearance(rows, one_triangle(), Vec3(0, 0, 0), 0.3)
                                   : test::box_clearance(rows, one_triangle(), Vec3(0, 0, 0), Vec3(0.5, 0.3, 0.4));
      EXPECT_GT(clearance, 0.0) << "at " << k << " / 200 of alpha = " << alpha;
    }
    // The step goes most of the way there: additive CCD stops the face at a tenth of its initial
    // gap from the obstacle's top (y = 0.3 for both), not earlier.
    const MatX end = VecX(x + alpha * p).reshaped<Eigen::RowMajor>(3, 3);
    EXPECT_LE(end(0, 1) - 0.3, 0.1 * (1.0 - 0.3) + 1e-12);
  }
}

}  // namespace
}  // namespace obstacle_barrier_surface
}  // namespace softsim
