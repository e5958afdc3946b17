// A rotating prescribed motion: the vertex that started at x0 is at c + R(t) (x0 - c) + offset(t).
// Checked against the rotation written out by hand (2D and 3D), its velocity against omega x r + v,
// and steering, which only translations take, refused.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <stdexcept>

#include "softsim/model/boundary_conditions.hpp"

namespace softsim {
namespace {

TEST(RotatingMotion, TwoDimensionalPositionsAndVelocitiesAreARotationAboutTheCentrePlusTheTranslation) {
  const double omega = 0.7;  // rad/s
  const Vec2 centre(1.0, -0.5), velocity(0.3, 0.1);
  BoundaryConditions bc;
  bc.set_dimensions(3, 2);
  PrescribedMotion m;
  m.vertices = {1, 2};
  m.offset = [velocity](double t) -> VecX { return velocity * t; };
  m.rotation = [omega](double t) -> MatX { return Eigen::Rotation2Dd(omega * t).toRotationMatrix(); };
  m.center = centre;
  bc.add_motion(m);

  VecX x0(6);
  x0 << 5.0, 5.0, 2.0, -0.5, 1.0, 1.5;  // vertex 1 at distance 1 along +x of the centre, vertex 2 at 2 along +y
  const double t = 1.3, angle = omega * t;
  VecX x = x0;
  bc.apply_positions(x, x0, t);
  EXPECT_EQ(x.head(2), x0.head(2));  // a free vertex is left alone
  const Vec2 shift = velocity * t;
  EXPECT_LT((x.segment<2>(2) - (centre + Vec2(std::cos(angle), std::sin(angle)) + shift)).norm(), 1e-14);
  EXPECT_LT((x.segment<2>(4) - (centre + 2.0 * Vec2(-std::sin(angle), std::cos(angle)) + shift)).norm(), 1e-14);

  // Velocity: omega x (x - c_t) + v, with c_t the centre carried by the translation.
  VecX v = VecX::Zero(6);
  bc.apply_velocities(v, x0, t);
  for (int vertex : {1, 2}) {
    const Vec2 r = x.segment<2>(2 * vertex) - (centre + shift);
    const Vec2 expected = omega * Vec2(-r.y(), r.x()) + velocity;
    EXPECT_LT((v.segment<2>(2 * vertex) - expected).norm(), 1e-8) << "vertex " << vertex;
  }
  EXPECT_EQ(v.head(2), Vec2::Zero());
}

TEST(RotatingMotion, ThreeDimensionalRotationAboutAnAxisKeepsTheAxisPointsAndTurnsTheOthers) {
  const Vec3 omega(0.0, 0.0, 2.0);
  BoundaryConditions bc;
  bc.set_dimensions(2, 3);
  PrescribedMotion m;
  m.vertices = {0, 1};
  m.offset = [](double) -> VecX { return Vec3::Zero(); };
  m.rotation = [omega](double t) -> MatX {
    return Eigen::AngleAxisd(omega.norm() * t, omega.normalized()).toRotationMatrix();
  };
  m.center = Vec3::Zero();
  bc.add_motion(m);
  VecX x0(6);
  x0 << 0.0, 0.0, 3.0, 1.0, 0.0, -1.0;  // one point on the axis, one off it
  VecX x = x0;
  const double t = M_PI / 4;  // a quarter turn
  bc.apply_positions(x, x0, t);
  EXPECT_LT((x.head<3>() - Vec3(0, 0, 3)).norm(), 1e-15);
  EXPECT_LT((x.tail<3>() - Vec3(0, 1, -1)).norm(), 1e-15);
  VecX v = VecX::Zero(6);
  bc.apply_velocities(v, x0, t);
  EXPECT_LT(v.head<3>().norm(), 1e-8);
  EXPECT_LT((v.tail<3>() - omega.cross(Vec3(0, 1, -1))).norm(), 1e-7);
}

TEST(RotatingMotion, SteeringIsRefusedForARotatingMotion) {
  BoundaryConditions bc;
  bc.set_dimensions(1, 2);
  PrescribedMotion m;
  m.vertices = {0};
  m.offset = [](double) -> VecX { return Vec2::Zero(); };
  m.rotation = [](double t) -> MatX { return Eigen::Rotation2Dd(t).toRotationMatrix(); };
  m.center = Vec2(1.0, 0.0);
  bc.add_motion(m);
  EXPECT_THROW(bc.steer(0, 0.0, 1.0, Vec2(1.0, 0.0)), std::invalid_argument);
}

}  // namespace
}  // namespace softsim
