// Neumann data from the scene: nodal loads and surface tractions. The total force equals the
// traction times the loaded area, and a linear bar pulled by a traction on one end (the other
// end on slip planes) stretches by sigma L / E.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "softsim/core/errors.hpp"
#include "softsim/integrate/stepper.hpp"
#include "softsim/scene/scene.hpp"

namespace softsim {
namespace {

nlohmann::json bar_scene() {
  return R"json({
    "dim": 3, "time": {"dt": 1, "steps": 1}, "integrator": {"type": "static"}, "gravity": [0, 0, 0],
    "solver": {"tolerance": 1e-6},
    "bodies": [{
      "generator": {"type": "box", "size": [2, 1, 1], "resolution": [4, 2, 2]},
      "material": {"model": "linear", "E": 1e6, "nu": 0.0},
      "slip": [
        {"box": [[-1.01, -1, -1], [-0.99, 1, 1]], "normal": [1, 0, 0]}
      ],
      "fixed": [{"box": [[-1.01, -0.51, -0.51], [-0.99, -0.49, -0.49]]},
                {"box": [[-1.01, 0.49, -0.51], [-0.99, 0.51, -0.49]]}],
      "tractions": [{"box": [[0.99, -1, -1], [1.01, 1, 1]], "traction": [1000, 0, 0]}]
    }]
  })json"_json;
}

TEST(Loads, TractionTotalEqualsTractionTimesArea) {
  const Model model = build_model(parse_scene(bar_scene(), "bar.json"));
  const auto F = as_rows(model.nodal_forces, 3);
  EXPECT_NEAR(F.col(0).sum(), 1000.0 * 1.0 * 1.0, 1e-9);
  EXPECT_NEAR(F.col(1).cwiseAbs().sum(), 0.0, 1e-12);
}

TEST(Loads, NodalLoadsAddPerSelectedVertex) {
  auto json = bar_scene();
  json["bodies"][0].erase("tractions");
  json["bodies"][0]["loads"] = R"json([{"ids": [3, 5], "force": [0, -2, 0]}])json"_json;
  const Model model = build_model(parse_scene(json, "bar.json"));
  EXPECT_DOUBLE_EQ(model.nodal_forces[3 * 3 + 1], -2.0);
  EXPECT_DOUBLE_EQ(model.nodal_forces[5 * 3 + 1], -2.0);
  EXPECT_DOUBLE_EQ(as_rows(model.nodal_forces, 3).col(1).sum(), -4.0);
}

TEST(Loads, TractionStretchesALinearBarBySigmaLOverE) {
  // Two corners of the slip end are fixed (no rigid motion left); with nu = 0 that blocks no
  // lateral contraction, slip keeps the end face plane and the lateral faces are free:
  // uniaxial stress, which linear elements reproduce exactly.
  Scene scene = parse_scene(bar_scene(), "bar.json");
  Model model = build_model(scene);
  auto stepper = make_stepper(model, scene.integrator);
  State state{model.rest_positions, VecX::Zero(model.num_dofs()), 0.0};
  const StepResult r = stepper->step(state, 1.0);
  ASSERT_TRUE(r.converged) << r.failure << " after " << r.newton_iterations;
  const auto X = as_rows(model.rest_positions, 3);
  const auto x = as_rows(state.x, 3);
  const double expected = 1000.0 / 1e6 * 2.0;  // sigma L / E
  for (int v = 0; v < model.num_vertices(); ++v)
    if (X(v, 0) > 0.99) EXPECT_NEAR(x(v, 0) - X(v, 0), expected, 1e-9 * 2.0) << "vertex " << v;
}

TEST(Loads, TractionBoxSelectingNoFaceIsAnError) {
  auto json = bar_scene();
  json["bodies"][0]["tractions"][0]["box"] = R"json([[5, 5, 5], [6, 6, 6]])json"_json;
  try {
    build_model(parse_scene(json, "bar.json"));
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bodies[0].tractions[0].box"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace softsim
