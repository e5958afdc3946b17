#include "softsim/peer_scenes/prescribed_motion.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <numbers>

#include "softsim/core/errors.hpp"

namespace softsim {
namespace {

const std::vector<Vec3> kFace = {Vec3(0.5, -0.1, -0.2), Vec3(0.5, 0.1, -0.2), Vec3(0.5, 0.1, 0.2), Vec3(0.5, -0.1, 0.2)};

TEST(PrescribedMotion, ConstantVelocity) {
  const nlohmann::json m = fit_prescribed_motion([](const Vec3&, double t) { return Vec3(4 * t, 0, 0); }, kFace, 0.01, 10, "bc");
  EXPECT_EQ(m["velocity"], nlohmann::json({4.0, 0.0, 0.0}));
  EXPECT_FALSE(m.contains("angular_velocity"));
  EXPECT_TRUE(fit_prescribed_motion([](const Vec3&, double) { return Vec3::Zero(); }, kFace, 0.01, 10, "bc").empty());
}

TEST(PrescribedMotion, RampThenHoldBecomesKeyframesAtItsCorners) {
  // sphere-mat's -min(t, 0.28): two corners, every other step time on a line.
  const nlohmann::json m = fit_prescribed_motion(
      [](const Vec3&, double t) { return Vec3(-std::min(t, 0.28), 0, 0); }, kFace, 0.01, 100, "bc");
  ASSERT_TRUE(m.contains("path"));
  const nlohmann::json& path = m["path"];
  ASSERT_EQ(path.size(), 3u);
  EXPECT_DOUBLE_EQ(path[1][0].get<double>(), 0.28);
  EXPECT_DOUBLE_EQ(path[1][1].get<double>(), -0.28);
  EXPECT_DOUBLE_EQ(path[2][0].get<double>(), 1.0);
}

TEST(PrescribedMotion, ConstantRateTwistAboutTheOrigin) {
  // mat-twist: y, z rotated at 0.4 pi rad/s about x, written as displacements R X - X.
  const double w = 0.4 * std::numbers::pi;
  const auto twist = [w](const Vec3& X, double t) {
    return Vec3(0, X.y() * std::cos(w * t) - X.z() * std::sin(w * t) - X.y(),
                X.y() * std::sin(w * t) + X.z() * std::cos(w * t) - X.z());
  };
  const nlohmann::json m = fit_prescribed_motion(twist, kFace, 0.04, 50, "bc");
  ASSERT_TRUE(m.contains("angular_velocity"));
  EXPECT_NEAR(m["angular_velocity"][0].get<double>(), w, 1e-9);
  EXPECT_NEAR(m["angular_velocity"][1].get<double>(), 0.0, 1e-12);
  EXPECT_EQ(m["rotation_center"], nlohmann::json({0.0, 0.0, 0.0}));
  EXPECT_FALSE(m.contains("velocity"));
  EXPECT_FALSE(m.contains("path"));
}

TEST(PrescribedMotion, RefusesDeformationsAndAStartingOffset) {
  EXPECT_THROW(fit_prescribed_motion([](const Vec3& X, double t) { return Vec3(0, t * X.y(), 0); }, kFace, 0.1, 5, "bc"),
               InputError);  // a stretch
  EXPECT_THROW(fit_prescribed_motion([](const Vec3& X, double t) {
                 const double a = t * t;  // accelerating rotation
                 return Vec3(0, X.y() * std::cos(a) - X.z() * std::sin(a) - X.y(), X.y() * std::sin(a) + X.z() * std::cos(a) - X.z());
               }, kFace, 0.1, 20, "bc"),
               InputError);
  EXPECT_THROW(fit_prescribed_motion([](const Vec3&, double) { return Vec3(1, 0, 0); }, kFace, 0.1, 5, "bc"), InputError);
}

}  // namespace
}  // namespace softsim
