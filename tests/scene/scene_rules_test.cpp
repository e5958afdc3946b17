// With friction on, Newton's velocity tolerance defaults to eps_v / 10 (it must resolve the
// stick-slip velocity); a tolerance given in the scene is kept. Body and obstacle names name
// output files: unsafe and repeated names are refused with the key named.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "softsim/core/errors.hpp"
#include "softsim/scene/scene.hpp"
#include "mesh/mesh_checks.hpp"

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

TEST(Names, UnsafeOrRepeatedNamesAreRefusedWithTheirKey) {
  auto scene = [](const std::string& body, const std::string& obstacle) {
    nlohmann::json j = R"json({"bodies": [{"generator": {"type": "box"}}, {"generator": {"type": "box"}}],
                               "obstacles": [{"type": "plane"}]})json"_json;
    j["bodies"][1]["name"] = body;
    j["obstacles"][0]["name"] = obstacle;
    return j;
  };
  EXPECT_NO_THROW(parse_scene(scene("box-2.b", "ground floor"), "s.json"));
  SOFTSIM_EXPECT_INPUT_ERROR(parse_scene(scene("a/b", "ground"), "s.json"), "bodies[1].name");
  SOFTSIM_EXPECT_INPUT_ERROR(parse_scene(scene("..", "ground"), "s.json"), "bodies[1].name");
  SOFTSIM_EXPECT_INPUT_ERROR(parse_scene(scene("box", ""), "s.json"), "obstacles[0].name");
  SOFTSIM_EXPECT_INPUT_ERROR(parse_scene(scene("box", "body0"), "s.json"), "is also the name of bodies[0]");
  SOFTSIM_EXPECT_INPUT_ERROR(parse_scene(scene("body0", "ground"), "s.json"), "bodies[1].name");
}

// The position-based integrators project obstacle contact themselves with contact.friction.mu;
// what they do not project (contact between bodies in 2D, mesh obstacles without the contact
// section, per-pair friction) is refused.
TEST(PositionBased, TakesFrictionFromTheContactSectionAndRefusesWhatItCannotProject) {
  nlohmann::json j = R"json({"integrator": {"type": "xpbd", "substeps": 5, "iterations": 3},
                             "bodies": [{"name": "b", "generator": {"type": "box"}}],
                             "obstacles": [{"name": "o", "type": "plane"}],
                             "contact": {"enabled": false, "friction": {"mu": 0.4}}})json"_json;
  const Scene scene = parse_scene(j, "s.json");
  EXPECT_DOUBLE_EQ(scene.integrator.pbd.friction, 0.4);
  EXPECT_EQ(scene.integrator.pbd.substeps, 5);
  EXPECT_EQ(scene.integrator.pbd.iterations, 3);
  auto refused = [](nlohmann::json bad, const std::string& words) {
    try {
      parse_scene(bad, "s.json");
      ADD_FAILURE() << "accepted: " << bad.dump();
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  // Contact between bodies and with mesh obstacles: projected in 3D, refused in 2D.
  nlohmann::json between = j;
  between["contact"].erase("enabled");
  EXPECT_TRUE(parse_scene(between, "s.json").contact.enabled);
  nlohmann::json flat = between;
  flat["dim"] = 2;
  flat["bodies"][0]["generator"] = {{"type", "rectangle"}};
  refused(flat, "contact.enabled to false");
  nlohmann::json mesh_without_contact = j;
  mesh_without_contact["obstacles"][0] = {{"name", "o"}, {"type", "mesh"}, {"mesh", "floor.obj"}};
  refused(mesh_without_contact, "contact.enabled is false");
  nlohmann::json pairs = j;
  pairs["contact"]["friction"]["pairs"] = R"json([{"bodies": ["b", "o"], "mu": 0.1}])json"_json;
  refused(pairs, "contact.friction.pairs");
  nlohmann::json penalty = j;
  penalty["contact"]["type"] = "penalty";
  refused(penalty, "contact.type");
  nlohmann::json sweeps = j;
  sweeps["integrator"]["iterations"] = 0;
  refused(sweeps, "integrator.iterations");
}

}  // namespace
}  // namespace softsim
