// Slip conditions hold for every integrator: an elastic block whose bottom face slides on the
// plane y = const (slip, normal y) falls onto it under gravity with an initial velocity that has
// a normal component. The slip vertices must keep their y (they "stay in the plane through their
// initial position", docs/scene-format.md) with backward Euler and with the explicit steppers.
#include <gtest/gtest.h>

#include <cmath>

#include "support/fem_models.hpp"
#include "softsim/fem/mass.hpp"
#include "softsim/fem/simplex_elasticity.hpp"
#include "softsim/material/material.hpp"
#include "softsim/mesh/generators.hpp"
#include "support/names.hpp"

namespace softsim::test {
namespace {

double max_normal_drift(const std::string& integrator) {
  const Mesh mesh = generate_box(Vec3(1.0, 1.0, 1.0), Eigen::Vector3i(2, 2, 2));
  Model model(3);
  model.gravity = Vec3(0.0, -9.81, 0.0);
  model.add_vertices(mesh.vertices);
  std::shared_ptr<const Material<3>> material = make_material<3>("neo_hookean", LameParameters::from_young_poisson(1e4, 0.3));
  auto term = std::make_unique<SimplexElasticity<3>>(mesh.cells, mesh.vertices, material, "block");
  add_simplex_mass(model, mesh.cells, term->rest_volumes(), 1000.0, true);
  model.add_energy(std::move(term));
  model.finalize();
  model.boundary.set_dimensions(model.num_vertices(), 3);
  SlipCondition bottom;
  bottom.direction = Vec3(0.0, 1.0, 0.0);
  for (int i = 0; i < model.num_vertices(); ++i)
    if (mesh.vertices(i, 1) < -0.5 + 1e-9) bottom.vertices.push_back(i);
  model.boundary.add_slip(bottom);
  StepperOptions options;
  options.type = test::named<IntegratorType>(integrator);
  auto stepper = make_stepper(model, options);
  VecX v0(model.num_dofs());
  for (int i = 0; i < model.num_vertices(); ++i) v0.segment<3>(3 * i) = Vec3(0.3, -0.2, 0.1);
  State state{model.rest_positions, v0, 0.0};
  double drift = 0.0;
  for (int n = 0; n < 100; ++n) {
    const StepResult r = stepper->step(state, 1e-3);
    EXPECT_TRUE(r.converged) << r.failure;
    for (int i : bottom.vertices) drift = std::max(drift, std::abs(state.x[3 * i + 1] - model.rest_positions[3 * i + 1]));
  }
  // The block did move (slides along x and z, the top falls).
  EXPECT_GT(std::abs(state.x[3 * bottom.vertices[0]] - model.rest_positions[3 * bottom.vertices[0]]), 0.01);
  return drift;
}

TEST(SlipConditions, HoldWithBackwardEuler) { EXPECT_LT(max_normal_drift("backward_euler"), 1e-12); }
TEST(SlipConditions, HoldWithSymplecticEuler) { EXPECT_LT(max_normal_drift("symplectic_euler"), 1e-12); }
TEST(SlipConditions, HoldWithForwardEuler) { EXPECT_LT(max_normal_drift("forward_euler"), 1e-12); }

}  // namespace
}  // namespace softsim::test
