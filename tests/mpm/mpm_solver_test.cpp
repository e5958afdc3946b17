// The MPM step (mpm/mpm_solver.hpp): free fall against symplectic Euler's closed form; APIC
// conserving linear and angular momentum of a spinning elastic body to round-off while PIC loses
// angular momentum; the same particles for any thread count; the book's two colliding elastic
// blocks (mirror symmetry, rebound, shape recovery); sand poured on a sphere collider stays out
// of it and deforms plastically; a particle leaving the grid is a clear error.
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <cmath>
#include <Eigen/Dense>

#include "softsim/mpm/mpm_solver.hpp"


namespace softsim {
namespace {

MpmOptions<2> unit_square_grid(int cells) {
  MpmOptions<2> o;
  o.dx = 1.0 / cells;
  o.cells = {cells, cells};
  return o;
}

MpmParticles<2> block(const VecD<2>& lo, const VecD<2>& hi, double dx, double per_cell, const VecD<2>& v,
                      MpmParticles<2> into = {}) {
  const std::vector<VecD<2>> x = sample_box_regular<2>(lo, hi, dx, per_cell);
  const double volume = (hi - lo).prod() / x.size();
  for (const VecD<2>& p : x) into.add(p, v, volume, 0);
  return into;
}

TEST(MpmSolver, FreeFallFollowsSymplecticEuler) {
  MpmOptions<2> o = unit_square_grid(32);
  o.gravity = {0.0, -9.81};
  o.wall_nodes = 0;
  MpmSolver<2> solver(o, block({0.4, 0.6}, {0.6, 0.8}, o.dx, 4, {1.0, 0.0}));
  const std::vector<VecD<2>> x0 = solver.particles().x;
  const double dt = 1e-3;
  const int n = 100;
  for (int s = 0; s < n; ++s) solver.step(dt);
  // x_n = x_0 + n dt v_0 + g dt^2 n (n + 1) / 2; the block is stress-free throughout.
  for (std::size_t p = 0; p < x0.size(); ++p) {
    const VecD<2> expected = x0[p] + VecD<2>(n * dt * 1.0, -9.81 * dt * dt * n * (n + 1) / 2.0);
    ASSERT_LT((solver.particles().x[p] - expected).norm(), 1e-12) << "particle " << p;
  }
}

// A square of elastic material spinning about its centre with no gravity and no walls.
MpmSolver<2> spinning_square(MpmTransfer transfer, MpmKernel kernel = MpmKernel::quadratic) {
  MpmOptions<2> o = unit_square_grid(64);
  o.transfer = transfer;
  o.kernel = kernel;
  o.wall_nodes = 0;
  o.materials[0].youngs_modulus = 1e4;
  const VecD<2> c(0.5, 0.5);
  MpmParticles<2> p = block({0.4, 0.4}, {0.6, 0.6}, o.dx, 4, VecD<2>::Zero());
  for (std::size_t i = 0; i < p.size(); ++i) {
    const VecD<2> r = p.x[i] - c;
    p.v[i] = 2.0 * VecD<2>(-r[1], r[0]) + VecD<2>(0.3, -0.2);  // omega = 2 rad/s, drifting
    if (transfer == MpmTransfer::apic) p.C[i] << 0.0, -2.0, 2.0, 0.0;  // the rotation's gradient
  }
  return MpmSolver<2>(o, std::move(p));
}

// Angular momentum about the centre of mass (2D).
double spin(const MpmSolver<2>& solver) {
  const MpmParticles<2>& p = solver.particles();
  double mass = 0.0;
  VecD<2> centre = VecD<2>::Zero();
  for (std::size_t i = 0; i < p.size(); ++i) {
    mass += p.mass[i];
    centre += p.mass[i] * p.x[i];
  }
  centre /= mass;
  const VecD<2> P = solver.linear_momentum();
  return solver.angular_momentum()[2] - (centre[0] * P[1] - centre[1] * P[0]);
}

TEST(MpmSolver, ApicConservesMomentaAndPicLosesAngularMomentum) {
  MpmSolver<2> apic = spinning_square(MpmTransfer::apic), pic = spinning_square(MpmTransfer::pic);
  const VecD<2> P0 = apic.linear_momentum();
  const double L0 = apic.angular_momentum()[2], L0_pic = spin(pic);
  for (int s = 0; s < 100; ++s) {
    apic.step(1e-3);
    pic.step(1e-3);
  }
  const double L = apic.angular_momentum()[2];
  EXPECT_LT((apic.linear_momentum() - P0).norm(), 1e-12 * P0.norm());
  EXPECT_NEAR(L, L0, 1e-10 * std::abs(L0));
  // PIC's transfer is a projection that filters out the rotation inside each cell: the spin
  // (angular momentum about the centre of mass) decays.
  const double lost = 1.0 - spin(pic) / L0_pic;
  EXPECT_GT(lost, 0.05);
  EXPECT_LT((pic.linear_momentum() - P0).norm(), 1e-12 * P0.norm());
  std::printf("angular momentum after 100 steps: APIC %.3e relative change, PIC %.1f%% lost\n", L / L0 - 1.0,
              100 * lost);
}

TEST(MpmSolver, ApicConservesMomentaWithTheCubicKernelAndFlipConservesLinearMomentum) {
  MpmSolver<2> apic = spinning_square(MpmTransfer::apic, MpmKernel::cubic);
  MpmSolver<2> flip = spinning_square(MpmTransfer::flip, MpmKernel::cubic);
  const VecD<2> P0 = apic.linear_momentum();
  const double L0 = apic.angular_momentum()[2];
  for (int s = 0; s < 50; ++s) {
    apic.step(1e-3);
    flip.step(1e-3);
  }
  EXPECT_LT((apic.linear_momentum() - P0).norm(), 1e-12 * P0.norm());
  EXPECT_NEAR(apic.angular_momentum()[2], L0, 1e-10 * std::abs(L0));
  // FLIP adds each particle its share of the grid's velocity change: sum_i m_i dv_i = 0 without
  // external forces.
  EXPECT_LT((flip.linear_momentum() - P0).norm(), 1e-12 * P0.norm());
}

TEST(MpmSolver, ApicConservesMomentaIn3D) {
  MpmOptions<3> o;
  o.dx = 1.0 / 24;
  o.cells = {24, 24, 24};
  o.wall_nodes = 0;
  o.materials[0].elasticity = MpmElasticity::stvk_hencky;
  const VecD<3> c(0.5, 0.5, 0.5), omega(1.0, -2.0, 0.5);
  const Mat3 W = (Mat3() << 0, -omega[2], omega[1], omega[2], 0, -omega[0], -omega[1], omega[0], 0).finished();
  MpmParticles<3> p;
  const std::vector<VecD<3>> x = sample_box_regular<3>({0.4, 0.42, 0.38}, {0.6, 0.58, 0.62}, o.dx, 8);
  for (const VecD<3>& xi : x) {
    p.add(xi, omega.cross(xi - c) + VecD<3>(0.2, 0.1, -0.3), 0.2 * 0.16 * 0.24 / x.size(), 0);
    p.C.back() = W;
  }
  MpmSolver<3> solver(o, std::move(p));
  const VecD<3> P0 = solver.linear_momentum();
  const Vec3 L0 = solver.angular_momentum();
  for (int s = 0; s < 30; ++s) solver.step(1e-3);
  EXPECT_LT((solver.linear_momentum() - P0).norm(), 1e-12 * P0.norm());
  EXPECT_LT((solver.angular_momentum() - L0).norm(), 1e-10 * L0.norm());
}

// Enough particles (about 11K in 2D, 10K in 3D) for every colour to have many blocks, the cubic
// kernel (the colouring's tightest margin), gravity and walls; FLIP in 2D, APIC in 3D.
TEST(MpmSolver, TheSameResultForAnyThreadCount) {
  auto run2 = [](int threads) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
    MpmOptions<2> o = unit_square_grid(128);
    o.kernel = MpmKernel::cubic;
    o.transfer = MpmTransfer::flip;
    o.gravity = {0.0, -9.81};
    MpmSolver<2> s(o, block({0.35, 0.1}, {0.65, 0.4}, o.dx, 8, {0.5, -1.0}));
    for (int k = 0; k < 20; ++k) s.step(2e-4);
    return s.particles().x;
  };
  auto run3 = [](int threads) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
    MpmOptions<3> o;
    o.dx = 1.0 / 40;
    o.cells = {40, 40, 40};
    o.kernel = MpmKernel::cubic;
    o.gravity = {0.0, -9.81, 0.0};
    MpmParticles<3> p;
    const std::vector<VecD<3>> x = sample_box_regular<3>({0.3, 0.1, 0.3}, {0.7, 0.3, 0.7}, o.dx, 8);
    for (const VecD<3>& xi : x) p.add(xi, VecD<3>(0.3, -1.0, 0.2), 0.032 / x.size(), 0);
    MpmSolver<3> s(o, std::move(p));
    for (int k = 0; k < 10; ++k) s.step(2e-4);
    return s.particles().x;
  };
  const auto one = run2(1), two = run2(2);
  ASSERT_GT(one.size(), 10000u);
  for (std::size_t p = 0; p < one.size(); ++p) ASSERT_EQ(one[p], two[p]) << "particle " << p;
  const auto one3 = run3(1), two3 = run3(2);
  ASSERT_GT(one3.size(), 10000u);
  for (std::size_t p = 0; p < one3.size(); ++p) ASSERT_EQ(one3[p], two3[p]) << "particle " << p;
}

// An elastic block dropped on a plane collider (separate) lands on it, bounces, and gains no
// energy: kinetic plus gravitational energy never exceeds what it started with.
TEST(MpmSolver, ABlockBouncesOnAPlaneColliderWithoutPassingOrGainingEnergy) {
  MpmOptions<2> o = unit_square_grid(64);
  o.gravity = {0.0, -9.81};
  o.materials[0].youngs_modulus = 5e4;
  MpmCollider<2> ground;
  ground.point = {0.0, 0.3};
  ground.normal = {0.0, 2.0};  // not unit: normalised by the collider
  o.colliders = {ground};
  MpmSolver<2> solver(o, block({0.4, 0.4}, {0.6, 0.5}, o.dx, 4, VecD<2>::Zero()));
  auto energy = [&] {
    double e = solver.kinetic_energy();
    for (std::size_t p = 0; p < solver.particles().size(); ++p)
      e += solver.particles().mass[p] * 9.81 * solver.particles().x[p][1];
    return e;
  };
  const double E0 = energy();
  double lowest = 1.0, highest_energy = 0.0;
  for (int s = 0; s < 3000; ++s) {
    solver.step(2e-4);
    for (const VecD<2>& x : solver.particles().x) lowest = std::min(lowest, x[1]);
    highest_energy = std::max(highest_energy, energy());
  }
  // It reached the plane and stopped within a cell of it (the condition acts on the nodes).
  EXPECT_GT(lowest, 0.3 - o.dx);
  EXPECT_LT(lowest, 0.3 + o.dx);
  EXPECT_LT(highest_energy, E0 * (1.0 + 1e-6));
  // And it fell: the energy it keeps is less than it had (the drop is 0.1 m).
  EXPECT_LT(energy(), E0);
}

// Aspect ratio and size of a particle cloud: the square root of its covariance's eigenvalue
// ratio, and sqrt(12 sqrt(det cov)) (a square's side).
std::pair<double, double> cloud_shape(const std::vector<VecD<2>>& x, std::size_t begin, std::size_t end) {
  const double n = static_cast<double>(end - begin);
  VecD<2> c = VecD<2>::Zero();
  for (std::size_t i = begin; i < end; ++i) c += x[i] / n;
  MatD<2> cov = MatD<2>::Zero();
  for (std::size_t i = begin; i < end; ++i) cov += (x[i] - c) * (x[i] - c).transpose() / n;
  Eigen::SelfAdjointEigenSolver<MatD<2>> eig(cov);
  return {std::sqrt(eig.eigenvalues()[1] / eig.eigenvalues()[0]), std::sqrt(12.0 * std::sqrt(eig.eigenvalues().prod()))};
}

// Li & Jiang 2025, ch. 31 (the book's colliding elastic blocks): 128^2 grid on [0, 1]^2,
// dt = 2e-4, 8 particles per cell, rho 1000, E 1e4, nu 0.3, StVK-Hencky, PIC, no gravity, blocks
// of 0.2 m at +-10 m/s (almost three times the material's wave speed, 3.7 m/s).
TEST(MpmSolver, TheBooksCollidingBlocksRecoilSymmetrically) {
  MpmOptions<2> o = unit_square_grid(128);
  o.transfer = MpmTransfer::pic;
  o.wall_nodes = 3;
  o.materials[0].elasticity = MpmElasticity::stvk_hencky;
  MpmParticles<2> p = block({0.2, 0.4}, {0.4, 0.6}, o.dx, 8, {10.0, 0.0});
  const std::size_t half = p.size();
  p = block({0.6, 0.4}, {0.8, 0.6}, o.dx, 8, {-10.0, 0.0}, std::move(p));
  // The particle of the right block at the mirror image of each of the left block's.
  std::vector<std::size_t> mirror(half);
  for (std::size_t i = 0; i < half; ++i) {
    const VecD<2> image(1.0 - p.x[i][0], p.x[i][1]);
    for (std::size_t j = half; j < p.size(); ++j)
      if ((p.x[j] - image).norm() < 1e-9) mirror[i] = j;
    ASSERT_LT((p.x[mirror[i]] - image).norm(), 1e-9);
  }
  const double rest_size = cloud_shape(p.x, 0, half).second;
  MpmSolver<2> solver(o, std::move(p));
  double symmetry = 0.0, closest = 1.0, squeezed = 1e9, nearest_rest = 1e9, rebound = 0.0;
  for (int s = 1; s <= 800; ++s) {
    solver.step(2e-4);
    const auto& x = solver.particles().x;
    double front = 0.0;
    for (std::size_t i = 0; i < half; ++i) {
      symmetry = std::max(symmetry, std::abs(x[i][0] + x[mirror[i]][0] - 1.0) + std::abs(x[i][1] - x[mirror[i]][1]));
      front = std::max(front, x[i][0]);
    }
    closest = std::min(closest, 0.5 - front);
    if (s % 10 == 0) {
      double mean_v = 0.0;
      for (std::size_t i = 0; i < half; ++i) mean_v += solver.particles().v[i][0] / half;
      rebound = std::max(rebound, -mean_v);
      const auto [aspect, size] = cloud_shape(x, 0, half);
      squeezed = std::min(squeezed, size / rest_size);
      // After the impact (it is over by step 450), in free flight towards the wall.
      if (s >= 450) nearest_rest = std::min(nearest_rest, std::abs(aspect - 1.0) + std::abs(size / rest_size - 1.0));
    }
  }
  // Mirror symmetry to round-off: the sampling is symmetric, and so are PIC and the grid.
  EXPECT_LT(symmetry, 1e-10);
  // They met (the left block's front reached the middle, to within a cell), were squeezed ...
  EXPECT_LT(closest, 1.0 / 128);
  EXPECT_LT(squeezed, 0.6);
  // ... and recoil: the left block moves left at a fair share of its impact speed ...
  EXPECT_GT(rebound, 2.5);
  // ... ringing about its rest shape, through which it passes (within 3%).
  EXPECT_LT(nearest_rest, 0.03);
  std::printf("colliding blocks: symmetry %.2e, closest %.4f m, squeezed to %.2f of its size, rebound at %.2f m/s, "
              "nearest its rest shape %.3f\n", symmetry, closest, squeezed, rebound, nearest_rest);
}

TEST(MpmSolver, SandPouredOnASphereStaysOutAndDeformsPlastically) {
  MpmOptions<2> o = unit_square_grid(64);
  o.gravity = {0.0, -9.81};
  o.transfer = MpmTransfer::apic;
  MpmMaterial sand;
  sand.elasticity = MpmElasticity::stvk_hencky;
  sand.plasticity = MpmPlasticity::drucker_prager;
  sand.youngs_modulus = 3.537e5;
  sand.density = 400;
  sand.friction_angle = 25;
  o.materials = {sand};
  MpmCollider<2> sphere;
  sphere.shape = MpmCollider<2>::Shape::sphere;
  sphere.point = {0.5, 0.5};
  sphere.radius = 0.1 + o.dx;  // as the book: the grid's collider is a cell larger
  sphere.boundary = MpmBoundary::friction;
  sphere.friction = 0.5;
  o.colliders = {sphere};
  const std::vector<VecD<2>> x = sample_box_poisson<2>({0.45, 0.65}, {0.55, 0.85}, o.dx, 4, 1);
  MpmParticles<2> p;
  for (const VecD<2>& xi : x) p.add(xi, VecD<2>::Zero(), 0.02 / x.size(), 0);
  MpmSolver<2> solver(o, std::move(p));
  const double dt = 2e-4;
  double deepest = 1.0;
  for (int s = 0; s < 1500; ++s) {
    solver.step(dt);
    for (const VecD<2>& xi : solver.particles().x) deepest = std::min(deepest, (xi - sphere.point).norm() - 0.1);
  }
  EXPECT_GT(deepest, 0.0);  // no particle inside the sphere itself
  double plastic = 0.0;
  for (double e : solver.particles().plastic_strain) plastic = std::max(plastic, e);
  EXPECT_GT(plastic, 0.01);
  std::printf("sand on a sphere: %zu particles, closest %.4f m outside, largest plastic strain %.3f\n", x.size(),
              deepest, plastic);
}

TEST(MpmSolver, AParticleLeavingTheGridIsAClearErrorAndTheStateStays) {
  MpmOptions<2> o = unit_square_grid(16);
  o.wall_nodes = 0;
  MpmParticles<2> p;
  p.add({0.5, 0.5}, {500.0, 0.0}, 1e-4, 0);
  MpmSolver<2> solver(o, p);
  solver.step(1e-3);  // carries the particle to x = 1, outside the grid's interior
  const VecD<2> where = solver.particles().x[0];
  const double t = solver.time();
  try {
    solver.step(1e-3);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("particle 0"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("outside the grid"), std::string::npos) << e.what();
  }
  EXPECT_EQ(solver.particles().x[0], where);
  EXPECT_EQ(solver.time(), t);
  // A non-finite position is the same error, without converting it to a grid index.
  solver.particles().x[0] = VecD<2>(std::nan(""), 0.5);
  EXPECT_THROW(solver.step(1e-3), std::runtime_error);
  // Refused when made: a material that does not exist, a particle outside, arrays that disagree.
  MpmParticles<2> wrong;
  wrong.add({0.5, 0.5}, {0.0, 0.0}, 1e-4, 3);
  EXPECT_THROW(MpmSolver<2>(o, wrong), std::invalid_argument);
  MpmParticles<2> outside;
  outside.add({0.01, 0.5}, {0.0, 0.0}, 1e-4, 0);
  EXPECT_THROW(MpmSolver<2>(o, outside), std::invalid_argument);
  MpmParticles<2> short_arrays = p;
  short_arrays.F.pop_back();
  EXPECT_THROW(MpmSolver<2>(o, short_arrays), std::invalid_argument);
}

}  // namespace
}  // namespace softsim
