#include "softsim/peer_scenes/rigid_transform.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>

namespace softsim {
namespace {

TEST(RigidTransform, EulerAnglesRebuildAnyRotation) {
  // zyx order (PolyFEM's rotation_mode "zyx"), a general one, and gimbal lock (b = 90 degrees).
  const Mat3 cases[] = {axis_rotation(0, 90) * axis_rotation(1, 0) * axis_rotation(2, 45),
                        Mat3(Eigen::AngleAxisd(1.2, Vec3(1, 2, -0.5).normalized())),
                        axis_rotation(2, 30) * axis_rotation(1, 90) * axis_rotation(0, 10),
                        axis_rotation(1, -90)};
  for (const Mat3& R : cases) {
    Placement p;
    p.rotation = R;
    EXPECT_LT((p.rebuilt_rotation() - R).norm(), 1e-12);
  }
}

TEST(RigidTransform, WritesSoftsimTransformKeys) {
  Placement p;
  p.rotation = axis_rotation(0, -90);
  p.scale = Vec3::Constant(0.05);
  p.translation = Vec3(0, 4.25, 0);
  const nlohmann::json t = p.to_json();
  EXPECT_EQ(t["rotate"], nlohmann::json({-90.0, 0.0, 0.0}));
  EXPECT_EQ(t["scale"], 0.05);
  EXPECT_EQ(t["translate"], nlohmann::json({0.0, 4.25, 0.0}));
  EXPECT_TRUE(Placement().to_json().empty());
  EXPECT_LT((p.apply(Vec3(1, 0, 0)) - Vec3(0.05, 4.25, 0)).norm(), 1e-15);
  EXPECT_LT((p.apply(Vec3(0, 1, 0)) - Vec3(0, 4.25, -0.05)).norm(), 1e-15);
}

}  // namespace
}  // namespace softsim
