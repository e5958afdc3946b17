// Plasticity inside the MPM step (mpm/mpm_solver.hpp with mpm/mpm_material.hpp's return
// mappings): a von Mises bar pulled far past yield by two grips holds every particle's stress on
// or inside the yield cylinder and deforms plastically, where the same elastic bar's stress
// leaves it; 3D sand dropped on the floor spreads into a heap, deforms plastically, stays above
// the floor and keeps its centre over where it fell; a snowball dropped on the floor compacts
// where it lands, hardens there (which shortens the stable step) and stays flattened.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "softsim/mpm/mpm_solver.hpp"

namespace softsim {
namespace {

struct Pull {
  double largest_deviatoric = 0.0;  // max over particles and steps of |dev tau| (Pa)
  double largest_plastic_strain = 0.0;
  double length = 0.0;  // of the particle cloud at the end
};

// A bar 0.4 x 0.1 m gripped 0.05 m deep at each end by sticky boxes moving apart at 0.2 m/s.
Pull pull(const MpmMaterial& material) {
  MpmOptions<2> o;
  o.dx = 1.0 / 64;
  o.cells = {64, 32};
  o.wall_nodes = 0;
  o.materials = {material};
  for (double side : {-1.0, 1.0}) {
    MpmCollider<2> grip;
    grip.shape = MpmCollider<2>::Shape::box;
    grip.boundary = MpmBoundary::sticky;
    grip.point = {0.5 + side * 0.2, 0.25};
    grip.half_size = {0.05, 0.1};
    grip.velocity = {side * 0.2, 0.0};
    o.colliders.push_back(grip);
  }
  const VecD<2> lo(0.3, 0.2), hi(0.7, 0.3);
  const std::vector<VecD<2>> x = sample_box_regular<2>(lo, hi, o.dx, 4);
  MpmParticles<2> p;
  for (const VecD<2>& xi : x) p.add(xi, VecD<2>::Zero(), (hi - lo).prod() / x.size(), 0);
  MpmSolver<2> solver(o, p);
  Pull result;
  for (int s = 0; s < 500; ++s) {  // 0.1 s: the grips move 0.04 m apart, a 13% stretch of the 0.3 m between them
    solver.step(2e-4);
    const MpmParticles<2>& q = solver.particles();
    for (std::size_t i = 0; i < q.size(); ++i) {
      const MatD<2> tau = mpm_stress<2>(material, q.F[i]) * q.F[i].transpose();  // Kirchhoff stress
      const MatD<2> dev = tau - tau.trace() / 2.0 * MatD<2>::Identity();
      result.largest_deviatoric = std::max(result.largest_deviatoric, dev.norm());
    }
  }
  double left = 1.0, right = 0.0;
  for (std::size_t i = 0; i < solver.particles().size(); ++i) {
    left = std::min(left, solver.particles().x[i][0]);
    right = std::max(right, solver.particles().x[i][0]);
    result.largest_plastic_strain = std::max(result.largest_plastic_strain, solver.particles().plastic_strain[i]);
  }
  result.length = right - left;
  return result;
}

TEST(MpmPlasticity, AVonMisesBarPulledPastYieldStaysOnTheYieldSurface) {
  MpmMaterial metal;
  metal.elasticity = MpmElasticity::stvk_hencky;  // Hencky: the return mapping is exact in dev tau
  metal.youngs_modulus = 1e5;
  metal.density = 1000;
  MpmMaterial elastic = metal;
  metal.plasticity = MpmPlasticity::von_mises;
  metal.yield_stress = 1000.0;  // yield strain about 1%
  const Pull plastic = pull(metal), reference = pull(elastic);
  const double radius = std::sqrt(2.0 / 3.0) * metal.yield_stress;
  std::printf("pulled bar: |dev tau| up to %.1f Pa (yield radius %.1f), elastic %.1f Pa; plastic strain %.3f; "
              "lengths %.4f / %.4f m\n",
              plastic.largest_deviatoric, radius, reference.largest_deviatoric, plastic.largest_plastic_strain,
              plastic.length, reference.length);
  EXPECT_LT(plastic.largest_deviatoric, radius * (1.0 + 1e-9));
  EXPECT_GT(reference.largest_deviatoric, 3.0 * radius);  // the pull goes far past yield ...
  EXPECT_GT(plastic.largest_plastic_strain, 0.05);        // ... and the metal flowed
  EXPECT_GT(plastic.length, 0.43);  // both bars were stretched by the grips
  EXPECT_GT(reference.length, 0.43);
}

TEST(MpmPlasticity, SandDroppedIn3DSpreadsIntoAHeapAboveTheFloor) {
  MpmOptions<3> o;
  o.dx = 1.0 / 24;
  o.cells = {24, 16, 24};
  o.gravity = {0.0, -9.81, 0.0};
  o.walls = MpmBoundary::sticky;
  MpmMaterial sand;
  sand.elasticity = MpmElasticity::stvk_hencky;
  sand.plasticity = MpmPlasticity::drucker_prager;
  sand.youngs_modulus = 3.537e5;
  sand.density = 1600;
  sand.friction_angle = 30;
  o.materials = {sand};
  const double floor = 2 * o.dx;  // the top layer of the floor's wall nodes
  const VecD<3> lo(0.4, floor + 0.05, 0.4), hi(0.6, floor + 0.25, 0.6);
  const std::vector<VecD<3>> x = sample_box_regular<3>(lo, hi, o.dx, 8);
  MpmParticles<3> p;
  for (const VecD<3>& xi : x) p.add(xi, VecD<3>::Zero(), (hi - lo).prod() / x.size(), 0);
  MpmSolver<3> solver(o, p);
  double lowest = 1.0;
  for (int s = 0; s < 1500; ++s) {  // 0.6 s
    solver.step(4e-4);
    for (const VecD<3>& xi : solver.particles().x) lowest = std::min(lowest, xi[1] - floor);
  }
  const MpmParticles<3>& q = solver.particles();
  VecD<3> centre = VecD<3>::Zero();
  double spread = 0.0, top = 0.0, plastic = 0.0;
  for (std::size_t i = 0; i < q.size(); ++i) {
    centre += q.x[i] / static_cast<double>(q.size());
    spread = std::max(spread, std::max(std::abs(q.x[i][0] - 0.5), std::abs(q.x[i][2] - 0.5)));
    top = std::max(top, q.x[i][1] - floor);
    plastic = std::max(plastic, q.plastic_strain[i]);
  }
  std::printf("3D sand: %zu particles, lowest %.4f m from the floor, half-width %.3f m (was 0.1), top %.3f m (was 0.25 + 0.05 above the floor), "
              "plastic strain %.3f, centre (%.2e, %.2e) off\n",
              q.size(), lowest, spread, top, plastic, centre[0] - 0.5, centre[2] - 0.5);
  EXPECT_GT(lowest, 0.0);            // on the floor, not in it
  EXPECT_GT(spread, 0.13);           // it spread sideways ...
  EXPECT_LT(top, 0.2);               // ... and slumped
  EXPECT_GT(plastic, 0.05);          // irreversibly
  EXPECT_LT(std::abs(centre[0] - 0.5), 1e-3);  // and symmetrically
  EXPECT_LT(std::abs(centre[2] - 0.5), 1e-3);
}

TEST(MpmPlasticity, ASnowballCompactsAndHardensWhereItLands) {
  MpmOptions<2> o;
  o.dx = 1.0 / 64;
  o.cells = {64, 64};
  o.gravity = {0.0, -9.81};
  MpmMaterial snow;  // Stomakhin et al. 2013's reference snow, lighter
  snow.plasticity = MpmPlasticity::snow;
  snow.youngs_modulus = 1.4e5;
  snow.poisson_ratio = 0.2;
  snow.density = 400;
  o.materials = {snow};
  MpmParticles<2> p;
  const VecD<2> centre(0.5, 0.4);
  const std::vector<VecD<2>> lattice = sample_box_regular<2>(centre.array() - 0.1, centre.array() + 0.1, o.dx, 4);
  std::vector<VecD<2>> x;
  for (const VecD<2>& xi : lattice)
    if ((xi - centre).norm() <= 0.1) x.push_back(xi);
  for (const VecD<2>& xi : x) p.add(xi, {0.0, -3.0}, M_PI * 0.01 / x.size(), 0);
  MpmSolver<2> solver(o, p);
  const double first_step = solver.stable_time_step(0.4);
  double smallest_step = first_step, t = 0.0;
  while (t < 0.4) {
    const double dt = solver.stable_time_step(0.4);
    smallest_step = std::min(smallest_step, dt);
    solver.step(dt);
    t += dt;
  }
  const MpmParticles<2>& q = solver.particles();
  double compaction = 0.0, hardest = 1.0, plastic = 0.0;
  VecD<2> lo = VecD<2>::Constant(1.0), hi = VecD<2>::Zero();
  for (std::size_t i = 0; i < q.size(); ++i) {
    compaction = std::min(compaction, q.log_volume_correction[i]);
    hardest = std::max(hardest, snow.hardening_scale(q.log_volume_correction[i]));
    plastic = std::max(plastic, q.plastic_strain[i]);
    lo = lo.cwiseMin(q.x[i]);
    hi = hi.cwiseMax(q.x[i]);
  }
  const double aspect = (hi[0] - lo[0]) / (hi[1] - lo[1]);
  std::printf("snowball: ln J_P down to %.3f, hardened up to %.2fx, stable step %.3g -> %.3g s, plastic strain %.3f, "
              "width / height %.2f\n",
              compaction, hardest, first_step, smallest_step, plastic, aspect);
  EXPECT_LT(compaction, -0.02);                 // compacted where it hit ...
  EXPECT_GT(hardest, 1.2);                      // ... and harder there
  EXPECT_LT(smallest_step, 0.3 * first_step);   // the CFL limit follows the hardening
  EXPECT_GT(plastic, 0.05);
  EXPECT_GT(aspect, 1.2);                       // flattened, not bounced back round
}

}  // namespace
}  // namespace softsim
