// A static triangle-mesh obstacle in the IPC collision mesh: a box dropped on a two-triangle
// ground lands and rests on it, never below it (its vertices and the obstacle's edges and faces
// are contact primitives like any body's).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "softsim/core/errors.hpp"
#include "softsim/integrate/stepper.hpp"
#include "softsim/scene/scene.hpp"

namespace softsim {
namespace {

nlohmann::json drop_scene() {
  nlohmann::json j = R"json({
    "dim": 3, "time": {"dt": 0.01, "steps": 60},
    "bodies": [{
      "generator": {"type": "box", "size": [0.4, 0.4, 0.4], "resolution": [2, 2, 2]},
      "transform": {"translate": [0.1, 0.35, 0.05], "rotate": [0, 15, 0]},
      "material": {"model": "neo_hookean", "E": 1e5, "nu": 0.3, "density": 500}
    }],
    "contact": {"dhat": 0.005},
    "obstacles": [{"type": "mesh", "mesh": "ground_quad.obj", "transform": {"translate": [0, -0.1, 0]}}]
  })json"_json;
  return j;
}

TEST(MeshObstacle, BoxLandsAndRestsOnTheGround) {
  const std::filesystem::path file = std::filesystem::path(SOFTSIM_TEST_DATA_DIR) / "meshes" / "drop.json";
  Scene scene = parse_scene(drop_scene(), file);
  Model model = build_model(scene);
  auto stepper = make_stepper(model, scene.integrator);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  double lowest = HUGE_VAL;
  for (int n = 0; n < scene.steps; ++n) {
    ASSERT_TRUE(stepper->step(state, scene.dt).converged) << "step " << n;
    const auto x = as_rows(state.x, 3);
    lowest = std::min(lowest, x.col(1).minCoeff());
    ASSERT_GT(x.col(1).minCoeff(), -0.1) << "a vertex went through the ground at step " << n;
  }
  // It fell 0.15 m onto the ground and stays within a few dhat of it.
  EXPECT_LT(lowest, -0.1 + 0.02);
  EXPECT_LT(state.v.lpNorm<Eigen::Infinity>(), 0.5);
}

TEST(MeshObstacle, MissingMeshFileIsAnInputError) {
  auto j = drop_scene();
  j["obstacles"][0]["mesh"] = "no_such_ground.obj";
  const std::filesystem::path file = std::filesystem::path(SOFTSIM_TEST_DATA_DIR) / "meshes" / "drop.json";
  EXPECT_THROW(build_model(parse_scene(j, file)), InputError);
}

}  // namespace
}  // namespace softsim
