// fixed[j].angular_velocity and rotation_center: read per dimension, the centre defaulting to the
// mean of the selected vertices at rest, and every misuse refused with the key named.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <nlohmann/json.hpp>
#include <string>

#include "softsim/core/errors.hpp"
#include "softsim/scene/scene.hpp"

namespace softsim {
namespace {

nlohmann::json strip(const nlohmann::json& fixed) {
  nlohmann::json j = R"json({
    "dim": 2, "time": {"dt": 0.01, "steps": 1},
    "bodies": [{"generator": {"type": "rectangle", "size": [1, 0.2], "resolution": [5, 1]},
                "transform": {"translate": [2, 1]}}]
  })json"_json;
  j["bodies"][0]["fixed"] = nlohmann::json::array({fixed});
  return j;
}

std::string message(const nlohmann::json& j) {
  try {
    build_model(parse_scene(j, "rotation.json"));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(RotatingFixed, CentreDefaultsToTheMeanOfTheSelectedVerticesAtRest) {
  // The right end of a strip centred at (2, 1): the mean of its two vertices is (2.5, 1).
  const Model model = build_model(parse_scene(
      strip(R"json({"box": [[2.49, 0], [2.51, 2]], "angular_velocity": 1.5})json"_json), "rotation.json"));
  ASSERT_EQ(model.boundary.motions().size(), 1u);
  const PrescribedMotion& m = model.boundary.motions()[0];
  ASSERT_TRUE(static_cast<bool>(m.rotation));
  EXPECT_LT((m.center - Vec2(2.5, 1.0)).norm(), 1e-12);
  EXPECT_LT((m.rotation(2.0) - Eigen::Rotation2Dd(3.0).toRotationMatrix()).norm(), 1e-15);
}

TEST(RotatingFixed, AGivenCentreIsUsedAndNoAngularVelocityMeansNoRotation) {
  const Model turning = build_model(parse_scene(
      strip(R"json({"box": [[2.49, 0], [2.51, 2]], "angular_velocity": -1, "rotation_center": [0, 0]})json"_json),
      "rotation.json"));
  EXPECT_EQ(turning.boundary.motions()[0].center, Vec2(0, 0));
  const Model still = build_model(parse_scene(strip(R"json({"box": [[2.49, 0], [2.51, 2]]})json"_json), "rotation.json"));
  EXPECT_FALSE(static_cast<bool>(still.boundary.motions()[0].rotation));
}

TEST(RotatingFixed, MisusesAreRefusedWithTheKeyNamed) {
  EXPECT_NE(message(strip(R"json({"box": [[2.49, 0], [2.51, 2]], "rotation_center": [0, 0]})json"_json))
                .find("bodies[0].fixed[0].rotation_center: applies to a rotating motion"),
            std::string::npos);
  EXPECT_NE(message(strip(R"json({"box": [[2.49, 0], [2.51, 2]], "angular_velocity": 1, "method": "penalty",
                                   "limit": 0.5})json"_json))
                .find("bodies[0].fixed[0].angular_velocity: a rotating motion has no travel \"limit\""),
            std::string::npos);
  EXPECT_NE(message(strip(R"json({"box": [[2.49, 0], [2.51, 2]], "angular_velocity": [0, 0, 1]})json"_json))
                .find("bodies[0].fixed[0].angular_velocity: expected a number"),
            std::string::npos);
  // An analytic obstacle's motion translates its pose only.
  nlohmann::json j = strip(R"json({"box": [[2.49, 0], [2.51, 2]]})json"_json);
  j["obstacles"] = R"json([{"type": "plane", "point": [0, -1], "normal": [0, 1], "velocity": [0, 1],
                            "angular_velocity": 1}])json"_json;
  EXPECT_NE(message(j).find("obstacles[0].angular_velocity: unknown key"), std::string::npos) << message(j);
  // A reduced body holds its fixed vertices where they start.
  nlohmann::json reduced = strip(R"json({"box": [[1.49, 0], [1.51, 2]], "angular_velocity": 1})json"_json);
  reduced["bodies"][0]["reduction"] = R"json({"basis": "modes", "size": 3})json"_json;
  EXPECT_NE(message(reduced).find("cannot move them"), std::string::npos) << message(reduced);
}

}  // namespace
}  // namespace softsim
