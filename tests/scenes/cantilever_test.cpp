// Cantilever under its own weight, static, linear elasticity with nu = 0 (no Poisson stiffening
// at the clamp, so the 1D Euler-Bernoulli model is the right limit): tip deflection vs
// delta = w L^4 / (8 E I), w = rho g A, I = h^4 / 12, for a 10 x 1 x 1 beam at 10x1x1, 20x2x2,
// 40x4x4 and 80x8x8 cells (5 tets per cube). Measured: 67%, 35%, 11.6% error for the first three,
// so the 10% bound is checked on 80x8x8 (about 20k DOFs, direct solve, well under a second).
// Shear deformation (Timoshenko) adds about 4EI/(kappa G A L^2) ~ 0.8% for L/h = 10, so the
// converged 3D answer sits slightly above delta; linear tets lock in bending, so the coarse
// meshes are far too stiff. Checks: the error shrinks with refinement and the finest is within 10%.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>

#include "support/fem_models.hpp"
#include "softsim/fem/mass.hpp"
#include "softsim/fem/simplex_elasticity.hpp"
#include "softsim/material/material.hpp"
#include "softsim/mesh/generators.hpp"

namespace softsim::test {
namespace {

constexpr double kLength = 10.0, kHeight = 1.0, kE = 1e9, kRho = 1000.0, kG = 9.81;

double euler_bernoulli_tip() {
  const double w = kRho * kG * kHeight * kHeight;
  const double I = std::pow(kHeight, 4) / 12.0;
  return w * std::pow(kLength, 4) / (8.0 * kE * I);
}

// Mean downward displacement of the free end face.
double tip_deflection(int refinement, double* seconds) {
  const auto start = std::chrono::steady_clock::now();
  const Mesh mesh = generate_box(Vec3(kLength, kHeight, kHeight), Eigen::Vector3i(10 * refinement, refinement, refinement));
  const int n = mesh.num_vertices();
  Model model(3);
  model.gravity = Vec3(0.0, -kG, 0.0);
  model.add_vertices(mesh.vertices);
  std::shared_ptr<const Material<3>> material = make_material<3>("linear", LameParameters::from_young_poisson(kE, 0.0));
  auto term = std::make_unique<SimplexElasticity<3>>(mesh.cells, mesh.vertices, material, "beam");
  add_simplex_mass(model, mesh.cells, term->rest_volumes(), kRho, true);
  model.add_energy(std::move(term));
  model.finalize();
  model.boundary.set_dimensions(n, 3);
  PrescribedMotion clamp;
  clamp.offset = [](double) -> VecX { return VecX::Zero(3); };
  std::vector<int> tip;
  for (int i = 0; i < n; ++i) {
    if (mesh.vertices(i, 0) < -kLength / 2 + 1e-9) clamp.vertices.push_back(i);
    if (mesh.vertices(i, 0) > kLength / 2 - 1e-9) tip.push_back(i);
  }
  model.boundary.add_motion(clamp);
  EXPECT_NEAR(model.total_mass(), kRho * kLength * kHeight * kHeight, 1e-9 * kRho * kLength);
  const VecX x = static_equilibrium(model, model.rest_positions);
  double sum = 0.0;
  for (int i : tip) sum += model.rest_positions[3 * i + 1] - x[3 * i + 1];
  *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return sum / tip.size();
}

TEST(Cantilever, TipDeflectionConvergesToEulerBernoulli) {
  const double reference = euler_bernoulli_tip();
  double previous_error = HUGE_VAL;
  for (int refinement : {1, 2, 4, 8}) {
    double seconds = 0.0;
    const double tip = tip_deflection(refinement, &seconds);
    const double error = std::abs(tip - reference) / reference;
    std::printf("[ cantilever ] %dx%dx%d cells: tip %.6e m, Euler-Bernoulli %.6e m, rel error %.4f (%.2f s)\n",
                10 * refinement, refinement, refinement, tip, reference, error, seconds);
    EXPECT_LT(error, previous_error) << "error must shrink with refinement";
    previous_error = error;
  }
  EXPECT_LT(previous_error, 0.10);
}

}  // namespace
}  // namespace softsim::test
