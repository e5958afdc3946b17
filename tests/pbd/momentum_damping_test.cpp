// Momentum-conserving damping (pbd/momentum_damping.hpp): the rigid part of the motion is kept,
// the rest reduced by the factor asked for.
#include "softsim/pbd/momentum_damping.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <random>

namespace softsim {
namespace {

TEST(MomentumDamping, KeepsLinearAndAngularMomentumAndRemovesTheRest) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1, 1);
  const int n = 20;
  VecX x(3 * n), v(3 * n);
  std::vector<double> m(n);
  for (int i = 0; i < n; ++i) {
    m[i] = 1.0 + 0.5 * u(rng);
    for (int k = 0; k < 3; ++k) {
      x[3 * i + k] = u(rng);
      v[3 * i + k] = u(rng);
    }
  }
  auto momenta = [&](const VecX& vel, Vec3& p, Vec3& L) {
    p.setZero();
    L.setZero();
    for (int i = 0; i < n; ++i) {
      p += m[i] * vel.segment<3>(3 * i);
      L += m[i] * Vec3(x.segment<3>(3 * i)).cross(Vec3(vel.segment<3>(3 * i)));
    }
  };
  Vec3 p0, L0, p1, L1;
  momenta(v, p0, L0);
  VecX half = v, full = v;
  damp_relative_motion(half, x, m, 3, 0, n, 0.5);
  damp_relative_motion(full, x, m, 3, 0, n, 1.0);
  momenta(half, p1, L1);
  EXPECT_LT((p1 - p0).norm(), 1e-12);
  EXPECT_LT((L1 - L0).norm(), 1e-12);
  // k = 1 leaves the rigid motion: damping it again changes nothing, and k = 1/2 halves the rest.
  VecX again = full;
  damp_relative_motion(again, x, m, 3, 0, n, 1.0);
  EXPECT_LT((again - full).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT((half - 0.5 * (v + full)).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(MomentumDamping, In2dTheRigidMotionIsATranslationAndASpin) {
  // A 2D body spinning about its centre at 2 rad/s and moving at (1, 0): nothing to damp.
  const int n = 4;
  VecX x(2 * n), v(2 * n);
  x << 1, 0, 0, 1, -1, 0, 0, -1;
  for (int i = 0; i < n; ++i) {
    v[2 * i] = 1.0 - 2.0 * x[2 * i + 1];
    v[2 * i + 1] = 2.0 * x[2 * i];
  }
  VecX damped = v;
  damp_relative_motion(damped, x, std::vector<double>(n, 1.0), 2, 0, n, 1.0);
  EXPECT_LT((damped - v).cwiseAbs().maxCoeff(), 1e-12);
}

}  // namespace
}  // namespace softsim
