// Position-based fluid dam breaks (pbf/pbf_solver.hpp), checked against what a column of water
// must do: its surge front does not reach 1.2 m sooner than Ritter's shallow-water front speed
// 2 sqrt(g H) (the frictionless upper bound) would take it, no particle leaves the tank (nor comes
// closer than half a spacing to its walls, where they clamp), and once settled the water is nearly
// still, compressed by under 1% on average and 3% at most, and its layer as thick as
// incompressibility makes it (centre of mass within 3% of the uniform layer's in 2D, 5% in the
// coarse 3D tank with five particle rows). Measured figures are in docs/pbf.md.
#include <gtest/gtest.h>

#include <cmath>

#include "pbf_scenes.hpp"

namespace softsim {
namespace {

template <int D>
double mean_height(const PbfSolver<D>& s) {
  double y = 0.0;
  for (const VecD<D>& x : s.positions()) y += x[1];
  return y / static_cast<double>(s.size());
}

template <int D>
void expect_inside_tank(const PbfSolver<D>& s, int step) {
  const double margin = 0.5 * s.options().spacing * (1.0 - 1e-12);
  const VecD<D> lo = s.options().domain_lo.array() + margin, hi = s.options().domain_hi.array() - margin;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const VecD<D>& x = s.positions()[i];
    ASSERT_TRUE(x.allFinite() && (x.array() >= lo.array()).all() && (x.array() <= hi.array()).all())
        << "particle " << i << " at step " << step << ": " << x.transpose();
  }
}

TEST(PbfDamBreak, TwoDimensionalColumnSurgesAndSettles) {
  const double g = 9.81, width = 0.4, height = 0.6, tank = 1.6, dt = 1.0 / 200;
  PbfSolver<2> s = pbf_test::dam_break_2d(0.02, width, height, tank, 1.0);
  double arrival = -1.0, peak_kinetic = 0.0;
  for (int step = 1; step <= 800; ++step) {
    s.step(dt);
    expect_inside_tank(s, step);
    peak_kinetic = std::max(peak_kinetic, s.kinetic_energy());
    double front = 0.0;
    for (const Vec2& x : s.positions()) front = std::max(front, x[0]);
    if (arrival < 0.0 && front >= 1.2) arrival = s.time();
  }
  // Ritter: the front moves at 2 sqrt(g H) from the start.
  const double ritter = (1.2 - width) / (2.0 * std::sqrt(g * height));
  EXPECT_GT(arrival, ritter);
  EXPECT_LT(arrival, 2.5 * ritter);
  const auto error = s.density_error();
  EXPECT_LT(s.kinetic_energy(), 0.03 * peak_kinetic);  // PBF keeps a little jitter (measured 1%)
  EXPECT_LT(error.mean, 0.01);
  EXPECT_LT(error.max, 0.03);
  const double layer = width * height / tank;  // the incompressible layer's thickness
  EXPECT_NEAR(mean_height(s), 0.5 * layer, 0.03 * 0.5 * layer);
  RecordProperty("arrival_over_ritter", std::to_string(arrival / ritter));
  std::printf("arrival / Ritter %.3f; density error mean %.2e max %.2e; centre height / layer's %.4f; kinetic %.3g of peak\n",
              arrival / ritter, error.mean, error.max, mean_height(s) / (0.5 * layer), s.kinetic_energy() / peak_kinetic);
}

TEST(PbfDamBreak, ThreeDimensionalColumnStaysInTheTankAndSettles) {
  PbfOptions<3> o;
  o.spacing = 0.04;
  o.gravity = Vec3(0, -9.81, 0);
  o.domain_lo = Vec3::Zero();
  o.domain_hi = Vec3(0.8, 0.8, 0.4);
  std::vector<Vec3> x = sample_box_regular<3>(Vec3::Zero(), Vec3(0.32, 0.48, 0.4), 0.04, 1.0);
  const std::size_t n = x.size();
  PbfSolver<3> s(o, std::move(x), std::vector<Vec3>(n, Vec3::Zero()));
  double peak_kinetic = 0.0;
  for (int step = 1; step <= 500; ++step) {
    s.step(1.0 / 200);
    expect_inside_tank(s, step);
    peak_kinetic = std::max(peak_kinetic, s.kinetic_energy());
  }
  const auto error = s.density_error();
  EXPECT_LT(s.kinetic_energy(), 1e-2 * peak_kinetic);
  EXPECT_LT(error.mean, 0.01);
  EXPECT_LT(error.max, 0.03);
  const double layer = 0.32 * 0.48 / 0.8;
  EXPECT_NEAR(mean_height(s), 0.5 * layer, 0.05 * 0.5 * layer);
  std::printf("3D (%zu particles): density error mean %.2e max %.2e; centre height / layer's %.4f; kinetic %.3g of peak\n",
              n, error.mean, error.max, mean_height(s) / (0.5 * layer), s.kinetic_energy() / peak_kinetic);
}

}  // namespace
}  // namespace softsim
