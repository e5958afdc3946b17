// Barriers against analytic obstacles (plane, sphere, box): signed distances against their
// definitions, barrier derivatives against finite differences, and the step filter keeps every
// vertex outside however far the step would carry it.
#include <gtest/gtest.h>

#include <random>

#include "softsim/contact/barrier/obstacle_barrier.hpp"
#include "softsim/model/model.hpp"
#include "support/evaluation.hpp"
#include "support/finite_difference.hpp"

namespace softsim {
namespace {

AnalyticObstacle sphere3() { return {AnalyticObstacle::Shape::Sphere, Vec3(0.1, -0.2, 0.3), {}, 0.5, {}}; }
AnalyticObstacle box3() { return {AnalyticObstacle::Shape::Box, Vec3(0, 0, 0), {}, 0.0, Vec3(0.5, 0.3, 0.4)}; }

TEST(ObstacleBarrier, SignedDistances) {
  const ObstacleBarrier sphere(3, sphere3(), {1.0}, 0.1, 1.0);
  EXPECT_NEAR(sphere.signed_distance(Vec3(0.1, 0.8, 0.3), nullptr, nullptr), 0.5, 1e-15);
  const ObstacleBarrier box(3, box3(), {1.0}, 0.1, 1.0);
  EXPECT_NEAR(box.signed_distance(Vec3(0.7, 0.0, 0.0), nullptr, nullptr), 0.2, 1e-15);    // face
  EXPECT_NEAR(box.signed_distance(Vec3(0.8, 0.7, 0.0), nullptr, nullptr), 0.5, 1e-15);    // edge: (0.3, 0.4)
  EXPECT_NEAR(box.signed_distance(Vec3(-0.5, -0.3, 0.6), nullptr, nullptr), 0.2, 1e-15);  // on a face plane
}

// The barrier's gradient and Hessian at x (every DOF of the model) against finite differences.
void expect_derivatives_match(const Model& model, const ObstacleBarrier& barrier, const VecX& x) {
  const test::Evaluation e(model);
  auto energy = [&](const VecX& y) { return barrier.evaluate(e.ctx(), y, AssemblyOutputs{}); };
  auto gradient = [&](const VecX& y) {
    VecX g = VecX::Zero(y.size());
    barrier.evaluate(e.ctx(), y, AssemblyOutputs{&g, nullptr, 1.0, false});
    return g;
  };
  EXPECT_LT(test::relative_error(gradient(x), test::fd_gradient(energy, x, 1e-8)), 1e-5);
  SparseMat H = model.layout().pattern();
  barrier.evaluate(e.ctx(), x, AssemblyOutputs{nullptr, &H, 1.0, false});
  EXPECT_LT(test::relative_error(MatX(H), test::fd_jacobian(gradient, x, 1e-8)), 1e-5);
}

// A model of a few vertices near the obstacle, all within dhat.
void check_derivatives(const AnalyticObstacle& shape, const MatX& V, double dhat) {
  Model model(3);
  model.add_vertices(V);
  for (int i = 0; i < V.rows(); ++i) model.add_lumped_mass(i, 1.0);
  auto term = std::make_unique<ObstacleBarrier>(3, shape, std::vector<double>(V.rows(), 0.3), dhat, 1e3);
  const ObstacleBarrier* barrier = term.get();
  model.add_energy(std::move(term));
  model.finalize();
  const VecX x = model.rest_positions;
  for (int i = 0; i < V.rows(); ++i) {
    const double d = barrier->signed_distance(x.segment<3>(3 * i), nullptr, nullptr);
    ASSERT_GT(d, 0.0);
    ASSERT_LT(d, dhat);
  }
  expect_derivatives_match(model, *barrier, x);
}

TEST(ObstacleBarrier, SphereDerivatives) {
  MatX V(3, 3);
  V << 0.1, 0.35, 0.3, 0.62, -0.2, 0.31, 0.1, -0.2, -0.25;
  check_derivatives(sphere3(), V, 0.1);
}

TEST(ObstacleBarrier, BoxDerivativesAtFacesEdgesAndCorners) {
  MatX V(3, 3);
  V << 0.55, 0.1, 0.0,   // face region
      0.54, 0.33, 0.0,   // edge region
      -0.53, -0.34, 0.42;  // corner region
  check_derivatives(box3(), V, 0.1);
}

TEST(ObstacleBarrier, StepFilterNeverCrossesTheSurface) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const AnalyticObstacle& shape : {sphere3(), box3()}) {
    const ObstacleBarrier barrier(3, shape, {1.0}, 0.1, 1.0);
    for (int trial = 0; trial < 200; ++trial) {
      Vec3 x(u(rng), u(rng), u(rng));
      x *= 1.5;
      if (barrier.signed_distance(x, nullptr, nullptr) <= 0.01) continue;
      const Vec3 p = 3.0 * Vec3(u(rng), u(rng), u(rng));
      const double alpha = barrier.max_step_fraction(test::Evaluation(barrier).ctx(), x, p);
      // Sample the segment: the distance stays positive up to alpha.
      for (int k = 0; k <= 100; ++k)
        EXPECT_GT(barrier.signed_distance(Vec3(x + (alpha * k / 100.0) * p), nullptr, nullptr), 0.0);
    }
  }
}

// A moving obstacle (Li & Jiang 2025, §11.2): its pose is vertex a, the distance that of x_i - x_a
// to the obstacle at rest. The energy depends on relative positions only (the pose's gradient is
// minus the sum of the others'), gradient and Hessian match finite differences over every DOF
// including the pose's, and the step filter uses the relative motion.
TEST(ObstacleBarrier, MovingObstacleCouplesEveryVertexToItsPose) {
  for (const AnalyticObstacle& shape :
       {AnalyticObstacle{AnalyticObstacle::Shape::Plane, Vec3(0, 0.6, 0), Vec3(0, -1, 0), 0.0, {}}, sphere3()}) {
    Model model(3);
    MatX V(4, 3);  // three vertices near the obstacle, the pose (at the obstacle's rest point) last
    if (shape.shape == AnalyticObstacle::Shape::Plane)
      V << 0.1, 0.55, 0.0, -0.3, 0.57, 0.2, 0.4, 0.52, -0.1, 0.0, 0.6, 0.0;
    else
      V << 0.1, 0.35, 0.3, 0.62, -0.2, 0.31, 0.1, -0.2, -0.25, 0.1, -0.2, 0.3;
    model.add_vertices(V);
    for (int i = 0; i < 4; ++i) model.add_lumped_mass(i, 1.0);
    auto term = std::make_unique<ObstacleBarrier>(3, shape, std::vector<double>{0.3, 0.3, 0.3, 0.3}, 0.1, 1e3, 3);
    const ObstacleBarrier* barrier = term.get();
    model.add_energy(std::move(term));
    model.finalize();
    // Move the pose a little: the contacts are measured relative to it.
    VecX x = model.rest_positions;
    x.segment<3>(9) += Vec3(0.01, -0.02, 0.005);
    const test::Evaluation e(model);
    auto energy = [&](const VecX& y) { return barrier->evaluate(e.ctx(), y, AssemblyOutputs{}); };
    ASSERT_GT(energy(x), 0.0);
    VecX shifted = x;  // translating everything, pose included, changes nothing
    for (int i = 0; i < 4; ++i) shifted.segment<3>(3 * i) += Vec3(0.3, -0.7, 0.2);
    EXPECT_NEAR(energy(shifted), energy(x), 1e-9 * energy(x));
    VecX g = VecX::Zero(12);
    barrier->evaluate(e.ctx(), x, AssemblyOutputs{&g, nullptr, 1.0, false});
    EXPECT_LT((g.segment<3>(9) + g.segment<3>(0) + g.segment<3>(3) + g.segment<3>(6)).norm(), 1e-9 * g.norm());
    expect_derivatives_match(model, *barrier, x);
    // The pose vertex itself is no contact: it sits on the surface (distance 0) yet the energy is finite.
    EXPECT_GT(barrier->min_contact_distance(x), 0.0);
    // Step filter: the obstacle moving onto resting vertices is stopped as the vertices moving onto it would be.
    VecX p = VecX::Zero(12);
    const Vec3 towards = shape.shape == AnalyticObstacle::Shape::Plane ? Vec3(0, -1, 0) : Vec3(0, 0.5, 0);
    p.segment<3>(9) = towards;
    VecX q = VecX::Zero(12);
    for (int i = 0; i < 3; ++i) q.segment<3>(3 * i) = -towards;
    const double a_pose = barrier->max_step_fraction(e.ctx(), x, p), a_vertices = barrier->max_step_fraction(e.ctx(), x, q);
    EXPECT_LT(a_pose, 1.0);
    EXPECT_NEAR(a_pose, a_vertices, 1e-14);
    EXPECT_GT(barrier->min_contact_distance(x + a_pose * p), 0.0);
  }
}

}  // namespace
}  // namespace softsim
