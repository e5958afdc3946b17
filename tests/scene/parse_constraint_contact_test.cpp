// contact.type "constraint": its keys reach the stepper's options, and what it cannot take is an
// InputError naming the key.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "softsim/contact/constraint/constraint_contact.hpp"
#include "softsim/core/errors.hpp"
#include "softsim/scene/scene.hpp"

namespace softsim {
namespace {

nlohmann::json constraint_scene() {
  return R"json({"bodies": [{"generator": {"type": "box"}}],
                 "obstacles": [{"type": "plane"}],
                 "contact": {"type": "constraint", "detection_distance": 0.02,
                             "constraint": {"newton_iterations": 3, "update": "standard",
                                            "pgs_iterations": 30, "pgs_tolerance": 0},
                             "friction": {"mu": 0.4}}})json"_json;
}

std::string contact_scene_error(const nlohmann::json& j) {
  try {
    parse_scene(j, "s.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ConstraintContactScene, KeysReachTheStepperOptions) {
  const Scene scene = parse_scene(constraint_scene(), "s.json");
  EXPECT_EQ(scene.contact.type, ContactType::constraint);
  EXPECT_DOUBLE_EQ(*scene.contact.detection_distance, 0.02);
  EXPECT_EQ(scene.integrator.constraint.newton_iterations, 3);
  EXPECT_EQ(scene.integrator.constraint.update, ConstraintUpdate::standard);
  EXPECT_EQ(scene.integrator.constraint.pgs.max_iterations, 30);
  EXPECT_EQ(scene.integrator.constraint.pgs.tolerance, 0.0);
  const Model model = build_model(scene);
  ASSERT_TRUE(model.constraint_contact);
  EXPECT_DOUBLE_EQ(model.constraint_contact->options().friction.mu, 0.4);
  EXPECT_TRUE(model.energies().size() == 1);  // elasticity only: no barrier or penalty term
}

TEST(ConstraintContactScene, DefaultsAreFastFiveIterationsAndAConvergedPgs) {
  auto j = constraint_scene();
  j["contact"].erase("constraint");
  const Scene scene = parse_scene(j, "s.json");
  EXPECT_EQ(scene.integrator.constraint.newton_iterations, 5);
  EXPECT_EQ(scene.integrator.constraint.update, ConstraintUpdate::fast);
  EXPECT_GT(scene.integrator.constraint.pgs.tolerance, 0.0);
}

TEST(ConstraintContactScene, RejectsWhatItCannotTakeNamingTheKey) {
  auto with = [](auto edit) {
    auto j = constraint_scene();
    edit(j);
    return contact_scene_error(j);
  };
  EXPECT_NE(with([](auto& j) { j["contact"]["kappa"] = 1e5; }).find("contact.kappa"), std::string::npos);
  EXPECT_NE(with([](auto& j) { j["contact"]["dhat"] = 1e-3; }).find("contact.dhat"), std::string::npos);
  EXPECT_NE(with([](auto& j) { j["contact"]["friction"]["eps_v"] = 1e-3; }).find("contact.friction.eps_v"),
            std::string::npos);
  EXPECT_NE(with([](auto& j) { j["contact"]["constraint"]["update"] = "quick"; }).find("contact.constraint.update"),
            std::string::npos);
  EXPECT_NE(with([](auto& j) { j["contact"]["constraint"]["newton_iterations"] = 0; })
                .find("contact.constraint.newton_iterations"),
            std::string::npos);
  EXPECT_NE(with([](auto& j) { j["integrator"] = {{"type", "bdf2"}}; }).find("integrator.type"), std::string::npos);
  EXPECT_NE(with([](auto& j) {
              j["dim"] = 2;
              j["bodies"][0]["generator"]["type"] = "rectangle";
            }).find("contact.type"), std::string::npos);
  // The constraint section belongs to constraint contact.
  auto barrier = constraint_scene();
  barrier["contact"].erase("detection_distance");
  barrier["contact"]["type"] = "barrier";
  EXPECT_NE(contact_scene_error(barrier).find("contact.constraint"), std::string::npos);
}

}  // namespace
}  // namespace softsim
