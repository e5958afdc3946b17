// BoundaryConditions::steer: a motion taken from where it is to a new target, linearly, then held;
// steered again mid-way it continues from where it was, and its earlier path is unchanged.
#include <gtest/gtest.h>

#include "softsim/model/boundary_conditions.hpp"

namespace softsim {
namespace {

BoundaryConditions moving_vertex() {
  BoundaryConditions bc;
  bc.set_dimensions(2, 2);
  PrescribedMotion m;
  m.vertices = {1};
  m.offset = [](double t) -> VecX { return Vec2(t, 0.0); };  // 1 m/s along x
  m.label = "bodies[0].fixed[0]";
  bc.add_motion(m);
  return bc;
}

TEST(BoundarySteer, LinearToTheTargetThenHeld) {
  BoundaryConditions bc = moving_vertex();
  bc.steer(0, 0.5, 1.5, Vec2(0.5, 1.0));
  EXPECT_EQ(bc.offset(0, 0.25), Vec2(0.25, 0.0));  // before: the scene's motion
  EXPECT_EQ(bc.offset(0, 0.5), Vec2(0.5, 0.0));
  EXPECT_LT((bc.offset(0, 1.0) - Vec2(0.5, 0.5)).norm(), 1e-15);
  EXPECT_EQ(bc.offset(0, 1.5), Vec2(0.5, 1.0));
  EXPECT_EQ(bc.offset(0, 7.0), Vec2(0.5, 1.0));
  VecX x = VecX::Zero(4), x0 = VecX::Ones(4);
  bc.apply_positions(x, x0, 1.0);
  EXPECT_LT((x.tail(2) - Vec2(1.5, 1.5)).norm(), 1e-15);
  EXPECT_EQ(x.head(2), Vec2(0.0, 0.0));  // a free vertex is left alone
  VecX v = VecX::Zero(4);
  bc.apply_velocities(v, x0, 1.0);
  EXPECT_LT((v.tail(2) - Vec2(0.0, 1.0)).norm(), 1e-8);
}

TEST(BoundarySteer, SteeredAgainMidWayContinuesFromWhereItIs) {
  BoundaryConditions bc = moving_vertex();
  bc.steer(0, 0.0, 1.0, Vec2(0.0, 1.0));
  bc.steer(0, 0.5, 1.0, Vec2(2.0, 0.5));
  EXPECT_LT((bc.offset(0, 0.25) - Vec2(0.0, 0.25)).norm(), 1e-15);  // the first steering, unchanged
  EXPECT_LT((bc.offset(0, 0.5) - Vec2(0.0, 0.5)).norm(), 1e-15);
  EXPECT_LT((bc.offset(0, 0.75) - Vec2(1.0, 0.5)).norm(), 1e-15);
  EXPECT_EQ(bc.offset(0, 2.0), Vec2(2.0, 0.5));
  // Many steerings keep a bounded history (the last keyframe before each new start).
  for (int k = 1; k <= 1000; ++k) bc.steer(0, 1.0 + k * 0.01, 1.0 + (k + 1) * 0.01, Vec2(k, 0.0));
  EXPECT_LE(bc.motions()[0].steering.size(), 3u);
  EXPECT_EQ(bc.offset(0, 20.0), Vec2(1000.0, 0.0));
}

TEST(BoundarySteer, RefusesBadArguments) {
  BoundaryConditions bc = moving_vertex();
  EXPECT_THROW(bc.steer(0, 1.0, 1.0, Vec2(0, 0)), std::invalid_argument);
  EXPECT_THROW(bc.steer(0, 0.0, 1.0, Vec3(0, 0, 0)), std::invalid_argument);
  EXPECT_THROW(bc.steer(1, 0.0, 1.0, Vec2(0, 0)), std::out_of_range);
}

}  // namespace
}  // namespace softsim
