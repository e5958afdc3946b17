// Elastic MPM against FEM (mpm/mpm_solver.hpp): a 2D cantilever under its own weight, clamped
// by a sticky box collider and settled with grid damping, deflects as much as the static FEM
// solution of the same beam and material (fixed corotated, plane strain) on a fine mesh.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "softsim/integrate/stepper.hpp"
#include "softsim/mpm/mpm_solver.hpp"
#include "softsim/scene/scene.hpp"

namespace softsim {
namespace {

constexpr double kLength = 1.0, kHeight = 0.2, kDensity = 1000.0, kYoungs = 7.5e6, kPoisson = 0.3;

// The static FEM tip deflection: the mean vertical displacement of the vertices of the last
// 5% of the beam (the same material slice the MPM test averages over).
double fem_tip_deflection(int cells_along) {
  nlohmann::json scene = {
      {"dim", 2},
      {"time", {{"dt", 1}, {"steps", 1}}},
      {"integrator", {{"type", "static"}}},
      {"gravity", {0, -9.81}},
      {"solver", {{"tolerance", 1e-9}}},
      {"bodies",
       {{{"generator",
          {{"type", "rectangle"}, {"size", {kLength, kHeight}}, {"resolution", {cells_along, cells_along / 5}}}},
         {"material", {{"model", "fixed_corotated"}, {"E", kYoungs}, {"nu", kPoisson}, {"density", kDensity}}},
         {"fixed", {{{"box", {{-kLength / 2 - 1e-6, -1}, {-kLength / 2 + 1e-6, 1}}}}}}}}}};
  Scene parsed = parse_scene(scene, "cantilever.json");
  Model model = build_model(parsed);
  auto stepper = make_stepper(model, parsed.integrator);
  State state{model.rest_positions, VecX::Zero(model.num_dofs()), 0.0};
  const StepResult r = stepper->step(state, 1.0);
  EXPECT_TRUE(r.converged) << r.failure;
  const auto X = as_rows(model.rest_positions, 2);
  const auto x = as_rows(state.x, 2);
  double sum = 0.0;
  int count = 0;
  for (int v = 0; v < model.num_vertices(); ++v)
    if (X(v, 0) >= kLength / 2 - 0.05 * kLength - 1e-9) {
      sum += x(v, 1) - X(v, 1);
      ++count;
    }
  return sum / count;
}

// The MPM tip deflection after settling: the beam's particles run from 2 cells inside the
// clamp (a sticky box whose face is a grid line) to kLength past it.
double mpm_tip_deflection(int cells_per_length, double per_cell, double& residual_speed) {
  MpmOptions<2> o;
  o.dx = kLength / cells_per_length;
  o.cells = {cells_per_length * 2, cells_per_length};
  o.gravity = {0.0, -9.81};
  o.transfer = MpmTransfer::apic;
  o.materials[0] = MpmMaterial{};
  o.materials[0].youngs_modulus = kYoungs;
  o.materials[0].poisson_ratio = kPoisson;
  o.materials[0].density = kDensity;
  const double clamp = 5 * o.dx;  // the clamp's face
  MpmCollider<2> c;
  c.shape = MpmCollider<2>::Shape::box;
  c.boundary = MpmBoundary::sticky;
  c.point = {clamp / 2, 0.5};
  c.half_size = {clamp / 2, 0.5};
  o.colliders.push_back(c);
  // Critical damping of the first bending mode (omega = 1.875^2 sqrt(E h^2 / (12 rho L^4))).
  const double omega = 1.875 * 1.875 * std::sqrt(kYoungs * kHeight * kHeight / (12.0 * kDensity));
  o.damping = 2.0 * omega;
  const VecD<2> lo(clamp - 2 * o.dx, 0.6), hi(clamp + kLength, 0.6 + kHeight);
  const std::vector<VecD<2>> x = sample_box_regular<2>(lo, hi, o.dx, per_cell);
  MpmParticles<2> p;
  for (const VecD<2>& xi : x) p.add(xi, VecD<2>::Zero(), (hi - lo).prod() / x.size(), 0);
  MpmSolver<2> solver(o, p);
  const double dt = solver.stable_time_step(0.4);
  const int steps = static_cast<int>(std::ceil(12.0 / omega / dt));
  for (int s = 0; s < steps; ++s) solver.step(dt);
  double sum = 0.0, speed = 0.0;
  int count = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    speed = std::max(speed, solver.particles().v[i].norm());
    if (x[i][0] >= clamp + 0.95 * kLength) {
      sum += solver.particles().x[i][1] - x[i][1];
      ++count;
    }
  }
  residual_speed = speed;
  return sum / count;
}

TEST(MpmCantilever, SettlesWithinTenPercentOfTheStaticFemDeflectionAndConverges) {
  // FEM converges from below (linear triangles are stiff in bending): 40, 80 and 160 cells
  // along give 0.04307, 0.04427 and 0.04460 m; MPM from above: 32, 64 and 128 cells per length
  // 0.0525, 0.0477 and 0.0454 m (docs/mpm.md, "Verification").
  const double fem = fem_tip_deflection(160);
  double coarse_speed = 0.0, fine_speed = 0.0;
  const double coarse = mpm_tip_deflection(32, 4, coarse_speed);
  const double fine = mpm_tip_deflection(64, 4, fine_speed);
  std::printf("tip deflection: FEM %.5f m; MPM %.5f m (%+.1f%%) at 32 cells per length, %.5f m (%+.1f%%) at 64\n",
              fem, coarse, 100.0 * (coarse - fem) / fem, fine, 100.0 * (fine - fem) / fem);
  EXPECT_LT(fem, -0.04);  // the beam sags under its weight (about 4.5 cm)
  EXPECT_LT(std::abs(fine - fem), 0.1 * std::abs(fem));
  EXPECT_LT(std::abs(fine - fem), std::abs(coarse - fem));  // refinement brings MPM closer
  EXPECT_LT(fine_speed, 2e-3);  // settled: the damped beam has come to rest
  EXPECT_LT(coarse_speed, 2e-3);
}

}  // namespace
}  // namespace softsim
