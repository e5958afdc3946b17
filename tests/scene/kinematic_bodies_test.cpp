// Kinematic bodies (Body::kinematic: every vertex prescribed, by elimination or by a penalty):
// scripted colliders that may cross each other, as IPC's moving walls do (its DCOSquash6 script),
// while they still push the free bodies they meet. Contact skips the pairs of two kinematic
// bodies, so two walls that cross at the start are accepted; a wall that leaves one vertex free
// is an ordinary body, and the crossing is refused as before.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "softsim/core/errors.hpp"
#include "softsim/integrate/stepper.hpp"
#include "softsim/scene/scene.hpp"
#include "support/contact_scene.hpp"

namespace softsim {
namespace {

// Wall A (x in [-0.35, -0.25]) moves along +x at 1 m/s for 0.2 s and back out at the same speed
// (a penalty-driven path), through wall B (y in [-0.35, -0.25], held), which it crosses from the
// start; a free cube (side 0.2, at the origin) is in wall A's way. No gravity.
nlohmann::json walls_scene() {
  return R"json({
    "dim": 3, "time": {"dt": 0.01, "steps": 40}, "gravity": [0, 0, 0],
    "bodies": [
      {"name": "wall_a", "generator": {"type": "box", "size": [0.1, 1.0, 1.0], "resolution": [1, 2, 2]},
       "transform": {"translate": [-0.3, 0, 0]}, "material": {"E": 1e6, "nu": 0.3, "density": 1000},
       "fixed": [{"box": [[-1, -1, -1], [1, 1, 1]], "method": "penalty",
                  "path": [[0, 0, 0, 0], [0.2, 0.2, 0, 0], [0.4, 0, 0, 0]]}]},
      {"name": "wall_b", "generator": {"type": "box", "size": [1.0, 0.1, 1.0], "resolution": [2, 1, 2]},
       "transform": {"translate": [0, -0.3, 0]}, "material": {"E": 1e6, "nu": 0.3, "density": 1000},
       "fixed": [{"box": [[-1, -1, -1], [1, 1, 1]]}]},
      {"name": "cube", "generator": {"type": "box", "size": [0.2, 0.2, 0.2], "resolution": [2, 2, 2]},
       "material": {"E": 1e5, "nu": 0.3, "density": 100}}
    ],
    "contact": {"dhat": 0.005}
  })json"_json;
}

TEST(KinematicBodies, CrossingWallsAreAcceptedAndPushTheFreeCube) {
  const Scene scene = parse_scene(walls_scene(), "walls.json");
  Model model = build_model(scene);
  ASSERT_TRUE(model.bodies[0].kinematic);
  ASSERT_TRUE(model.bodies[1].kinematic);
  ASSERT_FALSE(model.bodies[2].kinematic);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  const Eigen::MatrixXd wall0 = test::body_rows(model, state.x, 0);
  double wall_error = 0.0, cube_min_x = HUGE_VAL;
  const test::RunStats stats = test::run_scene(scene, model, state, 20, [&](int n, const StepResult&, const Stepper&) {
    // Wall A follows its path (the penalty's tolerance): in along +x by (n + 1) h.
    const Eigen::MatrixXd wall = test::body_rows(model, state.x, 0);
    const double shift = (n + 1) * 0.01;
    wall_error = std::max(wall_error, (wall - (wall0.rowwise() + Eigen::RowVector3d(shift, 0, 0))).cwiseAbs().maxCoeff());
    cube_min_x = test::body_rows(model, state.x, 2).col(0).minCoeff();
  });
  EXPECT_EQ(stats.failed_steps, 0);
  EXPECT_EQ(stats.max_intersections, 0u);  // the cube crosses no wall (the walls cross each other)
  EXPECT_LT(wall_error, 2e-3);
  // After 0.2 s wall A's face is near x = -0.05: the cube, 0.15 m from it at the start, was
  // pushed 5 cm ahead of it (its left face from -0.1 to past -0.06), not crossed.
  const double wall_face = test::body_rows(model, state.x, 0).col(0).maxCoeff();
  EXPECT_NEAR(wall_face, -0.05, 2e-3);
  EXPECT_GT(cube_min_x, wall_face);
  EXPECT_GT(cube_min_x, -0.06);
  const Eigen::MatrixXd wall_b = test::body_rows(model, state.x, 1);
  EXPECT_LT((wall_b - test::body_rows(model, model.rest_positions, 1)).cwiseAbs().maxCoeff(), 1e-12);  // held
}

TEST(KinematicBodies, AWallWithAFreeVertexIsAnOrdinaryBodyAndMayNotCross) {
  nlohmann::json json = walls_scene();
  // Wall A's fixed box misses its vertices at y = 0.5: not kinematic any more.
  json["bodies"][0]["fixed"][0]["box"] = R"json([[-1, -1, -1], [1, 0.4, 1]])json"_json;
  const Scene scene = parse_scene(json, "walls.json");
  try {
    build_model(scene);
    FAIL() << "expected the crossing walls to be refused";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("touching or intersecting"), std::string::npos) << e.what();
  }
}

TEST(KinematicBodies, APenaltyPathRefusesALimitAndARotation) {
  nlohmann::json json = walls_scene();
  json["bodies"][0]["fixed"][0]["limit"] = 0.1;
  EXPECT_THROW(parse_scene(json, "walls.json"), InputError);
  json = walls_scene();
  json["bodies"][0]["fixed"][0]["angular_velocity"] = R"json([0, 1, 0])json"_json;
  EXPECT_THROW(parse_scene(json, "walls.json"), InputError);
}

}  // namespace
}  // namespace softsim
