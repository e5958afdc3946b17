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

// A moving mesh obstacle is kinematic: it rises through a static mesh obstacle at the same height
// (they overlap from the start, which contact would refuse between a body and an obstacle) and
// still lifts the box.
TEST(MeshObstacle, AMovingMeshPassesThroughAStaticOneAndStillLiftsTheBox) {
  auto j = drop_scene();
  j["bodies"][0]["transform"]["translate"][1] = 0.11;
  j["obstacles"][0]["velocity"] = R"json([0, 0.2, 0])json"_json;
  j["obstacles"][0]["limit"] = 0.1;
  j["obstacles"].push_back(j["obstacles"][0]);
  j["obstacles"][1].erase("velocity");
  j["obstacles"][1].erase("limit");
  j["obstacles"][1]["transform"]["rotate"] = R"json([0, 45, 0])json"_json;  // crosses the moving one
  j["time"]["steps"] = 60;
  const std::filesystem::path file = std::filesystem::path(SOFTSIM_TEST_DATA_DIR) / "meshes" / "lift.json";
  Scene scene = parse_scene(j, file);
  Model model = build_model(scene);
  ASSERT_EQ(model.bodies.size(), 2u);
  EXPECT_TRUE(model.bodies[1].kinematic);
  auto stepper = make_stepper(model, scene.integrator);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  for (int n = 0; n < scene.steps; ++n) ASSERT_TRUE(stepper->step(state, scene.dt).converged) << "step " << n;
  const Body& plate = model.bodies[1];
  const auto x = as_rows(state.x, 3);
  EXPECT_NEAR(x.middleRows(plate.first_vertex, plate.mesh.num_vertices()).col(1).mean(), 0.0, 5e-3);  // rose 0.1 m
  EXPECT_GT(x.topRows(plate.first_vertex).col(1).minCoeff(), 0.0);  // with the box on it
}

}  // namespace
}  // namespace softsim

namespace softsim {
namespace {

// A moving mesh obstacle (velocity given) is driven by penalty: a ground plate rising at
// 0.2 m/s lifts a box resting on it, never letting it through.
TEST(MeshObstacle, MovingMeshLiftsABox) {
  auto j = drop_scene();
  j["bodies"][0]["transform"]["translate"][1] = 0.11;  // just above the plate at y = -0.1
  j["obstacles"][0]["velocity"] = R"json([0, 0.2, 0])json"_json;
  j["obstacles"][0]["limit"] = 0.1;
  j["time"]["steps"] = 80;
  const std::filesystem::path file = std::filesystem::path(SOFTSIM_TEST_DATA_DIR) / "meshes" / "lift.json";
  Scene scene = parse_scene(j, file);
  Model model = build_model(scene);
  ASSERT_EQ(model.bodies.size(), 2u);
  const Body& plate = model.bodies[1];
  auto stepper = make_stepper(model, scene.integrator);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  for (int n = 0; n < scene.steps; ++n) {
    ASSERT_TRUE(stepper->step(state, scene.dt).converged) << "step " << n;
    const auto x = as_rows(state.x, 3);
    const double plate_y = x.middleRows(plate.first_vertex, plate.mesh.num_vertices()).col(1).maxCoeff();
    const double box_bottom = x.topRows(plate.first_vertex).col(1).minCoeff();
    ASSERT_GT(box_bottom, plate_y) << "the box went through the moving plate at step " << n;
  }
  const auto x = as_rows(state.x, 3);
  // The plate rose 0.1 m (its limit) and the box rests on it.
  EXPECT_NEAR(x.middleRows(plate.first_vertex, plate.mesh.num_vertices()).col(1).mean(), -0.1 + 0.1, 5e-3);
  EXPECT_GT(x.topRows(plate.first_vertex).col(1).minCoeff(), 0.0);
}

}  // namespace
}  // namespace softsim
