// The position-based fluid solver (pbf/pbf_solver.hpp) on cases with known answers: the rest
// lattice has exactly the rest density, also against the tank's walls and in its corners (within
// 1%), and the walls' density gradient equals central differences; the density corrections and
// XSPH are pairwise and antisymmetric, so a free blob keeps its linear momentum to round-off; vorticity confinement spins a rotating
// disk up (its sign); bad options are refused; a step is bitwise the same on 1 and 2 threads;
// save/load resumes bit for bit.
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "pbf_scenes.hpp"
#include "softsim/core/binary_archive.hpp"

namespace softsim {
namespace {

TEST(PbfSolver, TheRestLatticeHasTheRestDensityInside) {
  PbfOptions<3> o;
  o.spacing = 0.05;
  o.rest_density = 870.0;
  o.domain_lo = Vec3::Constant(-1);
  o.domain_hi = Vec3::Constant(1);
  std::vector<Vec3> x = sample_box_regular<3>(Vec3::Constant(-0.25), Vec3::Constant(0.25), 0.05, 1.0);
  const std::size_t n = x.size();
  PbfSolver<3> s(o, std::move(x), std::vector<Vec3>(n, Vec3::Zero()));
  EXPECT_NEAR(s.particle_mass(), 870.0 * std::pow(0.05, 3), 0.1 * 870.0 * std::pow(0.05, 3));
  const std::vector<double> rho = s.densities();
  int inside = 0;
  for (std::size_t i = 0; i < n; ++i) {
    // The outermost lattice rows are at +-0.225. With h = 2 spacings (neighbours strictly closer
    // than h) only they miss neighbours.
    if ((s.positions()[i].array().abs() < 0.225 - 1e-9).all()) {
      EXPECT_NEAR(rho[i], 870.0, 1e-9);
      ++inside;
    } else {
      EXPECT_LT(rho[i], 870.0);  // a surface particle misses neighbours
    }
  }
  EXPECT_GT(inside, 0);
}

template <int D>
void expect_rest_density_at_the_walls() {
  // A block of the rest lattice filling the tank's low corner, a kernel radius away from the high walls.
  PbfOptions<D> o;
  o.spacing = 0.02;
  o.domain_lo = VecD<D>::Zero();
  o.domain_hi = VecD<D>::Ones();
  const VecD<D> block = VecD<D>::Constant(D == 2 ? 0.3 : 0.2);
  std::vector<VecD<D>> x = sample_box_regular<D>(VecD<D>::Zero(), block, 0.02, 1.0);
  const std::size_t n = x.size();
  PbfSolver<D> s(o, std::move(x), std::vector<VecD<D>>(n, VecD<D>::Zero()));
  const std::vector<double> rho = s.densities();
  double worst = 0.0;
  int checked = 0;
  for (std::size_t i = 0; i < n; ++i) {
    // Particles whose kernel does not reach the block's free faces: their neighbourhood is rest
    // fluid and walls only.
    if (((block - s.positions()[i]).array() < s.kernel_radius()).any()) continue;
    worst = std::max(worst, std::abs(rho[i] / o.rest_density - 1.0));
    ++checked;
  }
  EXPECT_GT(checked, 0);
  EXPECT_LT(worst, 1e-2) << D << "D";  // measured 0.47% (2D) and 0.89% (3D), in the corners
  std::printf("%dD: rest lattice against the walls and corners: worst density error %.2e\n", D, worst);
  // The walls' density gradient against central differences, near a corner.
  const VecD<D> p = VecD<D>::Constant(0.017) + 0.003 * VecD<D>::LinSpaced(0.0, 1.0);
  VecD<D> g, unused;
  s.wall_density(p, g);
  for (int a = 0; a < D; ++a) {
    VecD<D> e = VecD<D>::Zero();
    e[a] = 1e-7;
    const double fd = (s.wall_density(p + e, unused) - s.wall_density(p - e, unused)) / 2e-7;
    EXPECT_NEAR(g[a], fd, 1e-6 * g.norm()) << D << "D, axis " << a;
  }
  EXPECT_TRUE((g.array() < 0.0).all());  // the walls push away: their density falls inwards
}

TEST(PbfSolver, TheRestLatticeHasTheRestDensityAgainstTheWallsAndInTheCorners) {
  expect_rest_density_at_the_walls<2>();
  expect_rest_density_at_the_walls<3>();
}

TEST(PbfSolver, AFreeBlobKeepsItsLinearMomentum) {
  PbfOptions<2> o;
  o.spacing = 0.02;
  o.xsph = 0.1;  // XSPH exchanges velocity pairwise with the pair's volume: momentum is kept
  o.vorticity = 0.0;
  o.domain_lo = Vec2(-2, -2);
  o.domain_hi = Vec2(2, 2);
  // Compressed to 0.9 of the rest spacing, so that every constraint pushes.
  std::vector<Vec2> x = sample_box_regular<2>(Vec2(-0.18, -0.18), Vec2(0.18, 0.18), 0.018, 1.0);
  std::vector<Vec2> v(x.size());
  std::mt19937 rng(2);
  std::normal_distribution<double> noise(0.0, 0.3);
  for (Vec2& vi : v) vi = Vec2(1.0 + noise(rng), noise(rng));
  PbfSolver<2> s(o, std::move(x), std::move(v));
  const Vec2 p0 = s.linear_momentum();
  double scale = 0.0;
  for (const Vec2& vi : s.velocities()) scale += s.particle_mass() * vi.norm();
  const double e0 = s.kinetic_energy();
  for (int step = 0; step < 20; ++step) s.step(1e-3);
  for (const Vec2& x : s.positions()) ASSERT_LT(x.cwiseAbs().maxCoeff(), 1.9);  // no wall was touched
  EXPECT_LT((s.linear_momentum() - p0).norm(), 1e-12 * scale);
  EXPECT_GT(s.kinetic_energy(), 1.2 * e0);  // the compressed blob was pushed apart (the corrections acted)
}

// Angular momentum of a disk spinning at omega after `steps`, with vorticity confinement eps.
double spun_angular_momentum(double eps) {
  PbfOptions<2> o;
  o.spacing = 0.02;
  o.xsph = 0.05;
  o.vorticity = eps;
  o.domain_lo = Vec2(-2, -2);
  o.domain_hi = Vec2(2, 2);
  std::vector<Vec2> x = sample_box_regular<2>(Vec2(-0.3, -0.3), Vec2(0.3, 0.3), 0.02, 1.0);
  std::erase_if(x, [](const Vec2& p) { return p.norm() > 0.3; });
  std::vector<Vec2> v;
  for (const Vec2& p : x) v.push_back(5.0 * Vec2(-p[1], p[0]));
  PbfSolver<2> s(o, std::move(x), std::move(v));
  for (int step = 0; step < 30; ++step) s.step(2e-3);
  return s.angular_momentum()[2];
}

TEST(PbfSolver, VorticityConfinementSpinsARotatingDiskUp) {
  const double without = spun_angular_momentum(0.0), with = spun_angular_momentum(0.5);
  EXPECT_GT(without, 0.0);
  EXPECT_GT(with, 1.01 * without);
}

TEST(PbfSolver, RefusesBadOptionsAndParticles) {
  auto make = [](PbfOptions<2> o, Vec2 x = Vec2(0.5, 0.5)) {
    return PbfSolver<2>(o, std::vector<Vec2>{x}, std::vector<Vec2>{Vec2::Zero()});
  };
  PbfOptions<2> o;
  EXPECT_NO_THROW(make(o));
  auto bad = o;
  bad.rest_density = 0.0;
  EXPECT_THROW(make(bad), std::invalid_argument);
  bad = o;
  bad.kernel_radius = 0.5 * o.spacing;
  EXPECT_THROW(make(bad), std::invalid_argument);
  bad = o;
  bad.iterations = 0;
  EXPECT_THROW(make(bad), std::invalid_argument);
  bad = o;
  bad.tensile_distance = 1.5;
  EXPECT_THROW(make(bad), std::invalid_argument);
  bad = o;
  bad.domain_hi = Vec2(0.01, 1);
  EXPECT_THROW(make(bad), std::invalid_argument);
  EXPECT_THROW(make(o, Vec2(1.5, 0.5)), std::invalid_argument);
  EXPECT_THROW(make(o, Vec2(NAN, 0.5)), std::invalid_argument);
  PbfSolver<2> s = make(o);
  EXPECT_THROW(s.step(0.0), std::invalid_argument);
}

std::vector<Vec2> dam_break_positions(int threads, int steps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
  PbfOptions<2> o;
  o.vorticity = 0.2;
  PbfSolver<2> s = pbf_test::dam_break_2d(0.02, 0.4, 0.6, 1.6, 1.0, o);
  for (int step = 0; step < steps; ++step) s.step(5e-3);
  return s.positions();
}

TEST(PbfSolver, OneAndTwoThreadsGiveTheSameBits) {
  const std::vector<Vec2> one = dam_break_positions(1, 60), two = dam_break_positions(2, 60);
  ASSERT_EQ(one.size(), two.size());
  for (std::size_t i = 0; i < one.size(); ++i) ASSERT_EQ(one[i], two[i]) << "particle " << i;
}

TEST(PbfSolver, SaveAndLoadResumeBitForBit) {
  PbfSolver<2> straight = pbf_test::dam_break_2d(0.02, 0.4, 0.6, 1.6, 1.0);
  PbfSolver<2> resumed = pbf_test::dam_break_2d(0.02, 0.4, 0.6, 1.6, 1.0);
  for (int step = 0; step < 20; ++step) straight.step(5e-3);
  ArchiveWriter out;
  straight.save(out);
  ArchiveReader in(out.bytes());
  resumed.load(in);
  EXPECT_TRUE(in.at_end());
  for (int step = 0; step < 20; ++step) straight.step(5e-3), resumed.step(5e-3);
  EXPECT_EQ(straight.time(), resumed.time());
  for (std::size_t i = 0; i < straight.size(); ++i) {
    ASSERT_EQ(straight.positions()[i], resumed.positions()[i]);
    ASSERT_EQ(straight.velocities()[i], resumed.velocities()[i]);
  }
  // A state of another particle count is refused and leaves the solver as it was.
  PbfSolver<2> other = pbf_test::dam_break_2d(0.02, 0.2, 0.2, 1.6, 1.0);
  const std::vector<Vec2> before = other.positions();
  ArchiveReader again(out.bytes());
  EXPECT_THROW(other.load(again), ArchiveError);
  EXPECT_EQ(other.positions(), before);
}

}  // namespace
}  // namespace softsim
