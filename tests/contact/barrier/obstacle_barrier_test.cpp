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
  const test::Evaluation e(model);
  auto energy = [&](const VecX& y) { return barrier->evaluate(e.ctx(), y, AssemblyOutputs{}); };
  auto gradient = [&](const VecX& y) {
    VecX g = VecX::Zero(y.size());
    barrier->evaluate(e.ctx(), y, AssemblyOutputs{&g, nullptr, 1.0, false});
    return g;
  };
  EXPECT_LT(test::relative_error(gradient(x), test::fd_gradient(energy, x, 1e-8)), 1e-5);
  SparseMat H = model.layout().pattern();
  barrier->evaluate(e.ctx(), x, AssemblyOutputs{nullptr, &H, 1.0, false});
  EXPECT_LT(test::relative_error(MatX(H), test::fd_jacobian(gradient, x, 1e-8)), 1e-5);
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

}  // namespace
}  // namespace softsim
