// Steering between steps (sim/steering.hpp) refuses what it cannot honour: a motion that turns
// (only translations are steered), the fixed vertices of a reduced body (its basis holds them);
// and a penalty-driven kinematic affine body is a body, not a moving mesh obstacle.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "softsim/core/errors.hpp"
#include "softsim/scene/scene.hpp"
#include "softsim/sim/steering.hpp"

namespace softsim {
namespace {

std::string steering_error(Model& model, const std::string& label) {
  try {
    steer_motion(model, label, 0.0, 1.0, Vec2(0.1, 0.0));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

nlohmann::json strip_with(const nlohmann::json& body_extra) {
  nlohmann::json j = R"json({
    "dim": 2, "time": {"dt": 0.01, "steps": 1},
    "bodies": [{"generator": {"type": "rectangle", "size": [1, 0.2], "resolution": [5, 1]},
                "fixed": [{"box": [[-0.51, -1], [-0.49, 1]]}]}]
  })json"_json;
  j["bodies"][0].update(body_extra);
  return j;
}

TEST(Steering, TranslationsAreSteeredTurningMotionsAndReducedBodiesAreRefused) {
  Model plain = build_model(parse_scene(strip_with(nlohmann::json::object()), "steer.json"));
  EXPECT_EQ(steering_error(plain, "bodies[0].fixed[0]"), "");

  nlohmann::json turning = strip_with(nlohmann::json::object());
  turning["bodies"][0]["fixed"][0]["angular_velocity"] = 1.0;
  Model turns = build_model(parse_scene(turning, "steer.json"));
  EXPECT_NE(steering_error(turns, "bodies[0].fixed[0]").find("the motion rotates"), std::string::npos);

  Model reduced = build_model(
      parse_scene(strip_with(R"json({"reduction": {"basis": "modes", "size": 3}})json"_json), "steer.json"));
  EXPECT_NE(steering_error(reduced, "bodies[0].fixed[0]").find("belong to a reduced body"), std::string::npos)
      << steering_error(reduced, "bodies[0].fixed[0]");
}

TEST(Steering, APenaltyDrivenAffineBodyIsNotAMovingObstacle) {
  const nlohmann::json j = R"json({
    "dim": 2, "time": {"dt": 0.01, "steps": 1}, "gravity": [0, 0],
    "bodies": [{"name": "paddle", "kind": "affine", "affine": {"rigid": true},
                "generator": {"type": "rectangle", "size": [0.5, 0.05], "resolution": [5, 1]},
                "fixed": [{"box": [[-1, -1], [1, 1]], "angular_velocity": 1.0, "method": "penalty"}]}]
  })json"_json;
  const Model model = build_model(parse_scene(j, "paddle.json"));
  const std::vector<std::string> names = moving_obstacle_names(model);
  EXPECT_EQ(std::find(names.begin(), names.end(), "paddle"), names.end());
}

}  // namespace
}  // namespace softsim
