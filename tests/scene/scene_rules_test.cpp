// With friction on, Newton's velocity tolerance defaults to eps_v / 10 (it must resolve the
// stick-slip velocity); a tolerance given in the scene is kept.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "softsim/scene/scene.hpp"

namespace softsim {
namespace {

nlohmann::json scene_with_friction() {
  return R"json({"bodies": [{"generator": {"type": "box"}}],
                 "contact": {"friction": {"mu": 0.3, "eps_v": 2e-3}}})json"_json;
}

TEST(FrictionTolerance, DefaultsToATenthOfTheStickSlipVelocity) {
  EXPECT_DOUBLE_EQ(parse_scene(scene_with_friction(), "s.json").integrator.newton.tolerance, 2e-4);
}

TEST(FrictionTolerance, AGivenToleranceIsKept) {
  auto j = scene_with_friction();
  j["solver"] = R"json({"tolerance": 0.05})json"_json;
  EXPECT_DOUBLE_EQ(parse_scene(j, "s.json").integrator.newton.tolerance, 0.05);
}

TEST(FrictionTolerance, NoFrictionKeepsTheDefault) {
  auto j = scene_with_friction();
  j["contact"]["friction"]["mu"] = 0.0;
  EXPECT_DOUBLE_EQ(parse_scene(j, "s.json").integrator.newton.tolerance, 1e-2);
}

}  // namespace
}  // namespace softsim
