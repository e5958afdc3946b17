// initial_angular_velocity: a rigid spin about the body's centre of mass, added to
// initial_velocity: the momentum is M v0 and the angular momentum about the centre I w.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <nlohmann/json.hpp>

#include "softsim/scene/scene.hpp"

namespace softsim {
namespace {

TEST(InitialSpin, RigidVelocityFieldAboutTheCentreOfMass) {
  const nlohmann::json j = R"json({
    "dim": 3, "time": {"dt": 0.01, "steps": 1}, "gravity": [0, 0, 0],
    "bodies": [{"generator": {"type": "box", "size": [0.4, 0.2, 0.2], "resolution": [4, 2, 2]},
                "transform": {"translate": [1, 2, 3]},
                "initial_velocity": [0.5, 0, 0], "initial_angular_velocity": [0, 0, 10]}]
  })json"_json;
  Model model = build_model(parse_scene(j, "spin.json"));
  const std::vector<double> m = model.vertex_masses();
  Vec3 c = Vec3::Zero(), p = Vec3::Zero(), L = Vec3::Zero();
  double M = 0;
  for (int i = 0; i < model.num_vertices(); ++i) {
    c += m[i] * model.rest_positions.segment<3>(3 * i);
    M += m[i];
  }
  c /= M;
  Mat3 I = Mat3::Zero();
  for (int i = 0; i < model.num_vertices(); ++i) {
    const Vec3 r = model.rest_positions.segment<3>(3 * i) - c, v = model.initial_velocity.segment<3>(3 * i);
    p += m[i] * v;
    L += m[i] * r.cross(v);
    I += m[i] * (r.squaredNorm() * Mat3::Identity() - r * r.transpose());
    // Each vertex moves as the rigid field v0 + w x r.
    EXPECT_LT((v - (Vec3(0.5, 0, 0) + Vec3(0, 0, 10).cross(r))).norm(), 1e-12);
  }
  EXPECT_NEAR(c.x(), 1.0, 1e-12);
  EXPECT_LT((p - M * Vec3(0.5, 0, 0)).norm(), 1e-12 * M);
  EXPECT_LT((L - I * Vec3(0, 0, 10)).norm(), 1e-12 * L.norm());
}

TEST(InitialSpin, TwoDimensionalSpinIsAScalar) {
  const nlohmann::json j = R"json({
    "dim": 2, "time": {"dt": 0.01, "steps": 1}, "gravity": [0, 0],
    "bodies": [{"generator": {"type": "rectangle", "size": [0.2, 0.2], "resolution": [2, 2]},
                "initial_angular_velocity": 3}]
  })json"_json;
  Model model = build_model(parse_scene(j, "spin2d.json"));
  // The corner (0.1, 0.1) moves at w x r = 3 (-0.1, 0.1).
  for (int i = 0; i < model.num_vertices(); ++i) {
    const Eigen::Vector2d r = model.rest_positions.segment<2>(2 * i), v = model.initial_velocity.segment<2>(2 * i);
    EXPECT_NEAR(v.x(), -3 * r.y(), 1e-12);
    EXPECT_NEAR(v.y(), 3 * r.x(), 1e-12);
  }
}

}  // namespace
}  // namespace softsim
