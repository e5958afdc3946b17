// Moving analytic obstacles (docs/scene-format.md, obstacles[k]: velocity / path / method): the
// obstacle's pose is one vertex of the model, moved exactly (eliminate) or by penalty, and its
// barrier, step filter and friction act relative to that pose.
//  - A conveyor: a block dropped at rest onto a plane that moves sideways at 1 m/s with mu = 0.5
//    is dragged at a = mu g until it moves with the belt, t* = v / (mu g) = 0.204 s, then rides
//    along (sticks): friction acts on the velocity relative to the obstacle.
//  - A lift: a plane moving up at 0.3 m/s under a block resting on it in gravity carries it up at
//    the plane's speed, never letting it through; keyframes move it as told.
//  - The same conveyor and lift with penalty contact (2D) and with constraint contact (3D, exact
//    Coulomb friction: no creep once stuck).
//  - A sphere pushing the block along a ground with friction, and a box as a lift.
//  - Refusals: `mass` without `method: penalty`, a hold across stages, `kappa` without motion.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <nlohmann/json.hpp>

#include "softsim/core/errors.hpp"
#include "softsim/integrate/stepper.hpp"
#include "softsim/scene/scene.hpp"
#include "support/obstacle_clearance.hpp"

namespace softsim {
namespace {

// A 0.2 m square block (mass-spring grid, 2x2 cells, 40 kg) whose bottom is `gap` above the plane y = 0.
nlohmann::json block_on_plane(double gap, const nlohmann::json& plane) {
  nlohmann::json j = nlohmann::json::parse(R"({
    "dim": 2, "time": {"dt": 0.005, "steps": 1}, "gravity": [0, -9.81],
    "solver": {"tolerance": 1e-5},
    "bodies": [{"name": "block", "kind": "mass_spring",
                "generator": {"type": "spring_grid", "size": [0.2, 0.2], "resolution": [2, 2]},
                "material": {"density": 1000, "stiffness": 1e6}, "contact_area": 0.1}],
    "contact": {"dhat": 0.002, "kappa": 1e6}
  })");
  j["bodies"][0]["transform"] = {{"translate", {0.0, 0.1 + gap}}};
  j["obstacles"] = nlohmann::json::array({plane});
  return j;
}

Vec2 mean_velocity(const Model& model, const State& s) {
  Vec2 v = Vec2::Zero();
  const int n = model.bodies[0].mesh.num_vertices();
  for (int i = 0; i < n; ++i) v += s.v.segment<2>(2 * i);
  return v / n;
}

double lowest_y(const Model& model, const State& s) {
  double y = HUGE_VAL;
  for (int i = 0; i < model.bodies[0].mesh.num_vertices(); ++i) y = std::min(y, s.x[2 * i + 1]);
  return y;
}

TEST(MovingObstacle, ConveyorDragsTheBlockAtMuGUntilItSticks) {
  // Dropped from 1 mm above the barrier's reach, so that it lands under its weight alone.
  nlohmann::json j = block_on_plane(0.003, {{"name", "belt"}, {"type", "plane"}, {"point", {0, 0}},
                                            {"normal", {0, 1}}, {"velocity", {1.0, 0.0}}});
  j["contact"]["friction"] = {{"mu", 0.5}};
  const Scene scene = parse_scene(j, "conveyor");
  Model model = build_model(scene);
  ASSERT_EQ(model.num_vertices(), 10);  // 9 block vertices and the belt's pose
  auto stepper = make_stepper(model, scene.integrator);
  State s{model.rest_positions, model.initial_velocity, 0.0};
  const double g = 9.81, mu = 0.5, t_stick = 1.0 / (mu * g);
  double v_05 = 0.0, v_15 = 0.0;
  for (int n = 0; n < 100; ++n) {  // 0.5 s
    ASSERT_TRUE(stepper->step(s, scene.dt).converged) << "step " << n;
    EXPECT_GT(lowest_y(model, s) - s.x[2 * 9 + 1], 0.0) << "through the belt at step " << n;
    if (n == 9) v_05 = mean_velocity(model, s).x();   // t = 0.05 s: landed, sliding
    if (n == 29) v_15 = mean_velocity(model, s).x();  // t = 0.15 s: still sliding
  }
  // The belt's pose moved exactly at 1 m/s.
  EXPECT_NEAR(s.x[2 * 9], 0.5, 1e-12);
  EXPECT_NEAR(s.x[2 * 9 + 1], 0.0, 1e-12);
  // Sliding: dragged at a = mu g.
  std::printf("[ scene ] conveyor: v(0.05 s) %.4f, v(0.15 s) %.4f m/s, a = %.4f m/s^2 (mu g = %.4f)\n", v_05, v_15,
              (v_15 - v_05) / 0.1, mu * g);
  EXPECT_NEAR((v_15 - v_05) / 0.1, mu * g, 0.03 * mu * g);
  EXPECT_LT(v_15, 1.0);
  // Stuck on the belt after t* = 0.204 s: it moves with it (creep below eps_v = 1e-3 m/s).
  EXPECT_GT(0.5, t_stick + 0.1);
  EXPECT_NEAR(mean_velocity(model, s).x(), 1.0, 2e-3);
}

TEST(MovingObstacle, LiftCarriesTheBlockAtItsSpeedAndKeyframesMoveItAsTold) {
  for (const bool keyframes : {false, true}) {
    SCOPED_TRACE(keyframes ? "path" : "velocity");
    nlohmann::json plane = {{"name", "lift"}, {"type", "plane"}, {"point", {0, 0}}, {"normal", {0, 1}}};
    if (keyframes)
      plane["path"] = {{0.0, 0.0, 0.0}, {1.0, 0.0, 0.3}};
    else
      plane["velocity"] = {0.0, 0.3};
    const Scene scene = parse_scene(block_on_plane(0.001, plane), "lift");
    Model model = build_model(scene);
    auto stepper = make_stepper(model, scene.integrator);
    State s{model.rest_positions, model.initial_velocity, 0.0};
    for (int n = 0; n < 100; ++n) {  // 0.5 s
      ASSERT_TRUE(stepper->step(s, scene.dt).converged) << "step " << n;
      EXPECT_GT(lowest_y(model, s) - s.x[2 * 9 + 1], 0.0) << "through the lift at step " << n;
    }
    EXPECT_NEAR(s.x[2 * 9 + 1], 0.15, 1e-12);  // 0.3 m/s for 0.5 s
    EXPECT_NEAR(mean_velocity(model, s).y(), 0.3, 0.01);
    // Riding on the lift: the block's bottom stays within the barrier's reach of it.
    EXPECT_LT(lowest_y(model, s) - s.x[2 * 9 + 1], 0.002);
  }
}

// Smallest gap between the block's vertices and a disc of radius r centred at the model's
// vertex `pose`.
// The smallest distance from the block's springs (segments, vertices included) to the disc.
double gap_to_disc(const Model& model, const State& s, int pose, double r) {
  const int n = model.bodies[0].mesh.num_vertices();
  const MatX V = s.x.head(2 * n).reshaped<Eigen::RowMajor>(n, 2);
  return test::disk_clearance(V, model.bodies[0].mesh.cells, s.x.segment<2>(2 * pose), r);
}

// A disc (a sphere in 2D) moving at 0.5 m/s pushes the block along the ground. The push starts
// with a bounce: the disc acts as an infinitely heavy wall, so the block leaves faster than it
// (at most twice its speed). Without friction it keeps that speed and the gap grows; with
// friction mu = 0.3 between block and ground (none with the disc) the block slows back to the
// disc, which then pushes it at its own speed against the friction force mu m g. No spring ever
// enters the disc.
struct PushRun {
  double closest = HUGE_VAL, fastest = 0.0, late_slowest = HUGE_VAL, late_fastest = 0.0, final_gap = 0.0;
  double disc_x = 0.0, final_vy = 0.0;
};
PushRun push_block_with_a_disc(double mu, double r, double speed, double start_x, int steps, bool penalty) {
  nlohmann::json j = block_on_plane(0.001, {{"name", "ground"}, {"type", "plane"}, {"point", {0, 0}}, {"normal", {0, 1}}});
  j["obstacles"].push_back({{"name", "pusher"}, {"type", "sphere"}, {"center", {start_x, 0.101}}, {"radius", r},
                            {"velocity", {speed, 0.0}}});
  if (penalty) j["contact"] = {{"type", "penalty"}, {"delta", 0.002}};
  j["contact"]["friction"] = {{"mu", 0.0}, {"pairs", {{{"bodies", {"block", "ground"}}, {"mu", mu}}}}};
  const Scene scene = parse_scene(j, "pusher");
  Model model = build_model(scene);
  EXPECT_EQ(model.num_vertices(), 10);  // 9 block vertices and the disc's centre
  auto stepper = make_stepper(model, scene.integrator);
  State s{model.rest_positions, model.initial_velocity, 0.0};
  PushRun run;
  for (int n = 0; n < steps; ++n) {
    EXPECT_TRUE(stepper->step(s, scene.dt).converged) << "step " << n;
    run.closest = std::min(run.closest, gap_to_disc(model, s, 9, r));
    const double vx = mean_velocity(model, s).x();
    run.fastest = std::max(run.fastest, vx);
    if (n >= steps - 60) {  // the last 0.3 s
      run.late_slowest = std::min(run.late_slowest, vx);
      run.late_fastest = std::max(run.late_fastest, vx);
    }
  }
  run.final_gap = gap_to_disc(model, s, 9, r);
  run.disc_x = s.x[2 * 9];
  run.final_vy = mean_velocity(model, s).y();
  std::printf("pusher, %s, mu %g: closest %.3g m, fastest %.4f m/s, last 0.3 s %.4f-%.4f m/s, final gap %.3g m\n",
              penalty ? "penalty" : "IPC", mu, run.closest, run.fastest, run.late_slowest, run.late_fastest, run.final_gap);
  return run;
}

TEST(MovingObstacle, SpherePushesTheBlockAtItsSpeedAgainstGroundFriction) {
  const double r = 0.1, speed = 0.5, start_x = -0.1 - r - 0.02;
  const int steps = 400;  // 2 s
  for (const bool penalty : {false, true})
    for (const double mu : {0.0, 0.3}) {
      SCOPED_TRACE(std::string(penalty ? "penalty" : "IPC") + ", mu " + std::to_string(mu));
      const PushRun run = push_block_with_a_disc(mu, r, speed, start_x, steps, penalty);
      EXPECT_NEAR(run.disc_x, start_x + speed * 2.0, 1e-12);  // the disc went as told
      // IPC: never inside; penalty (delta 2 mm): a shallow penetration at most.
      EXPECT_GT(run.closest, penalty ? -0.5 * 0.002 : 0.0);
      EXPECT_GT(run.fastest, 1.05 * speed);  // the bounce
      EXPECT_LT(run.fastest, 2.0 * speed + 1e-3);
      EXPECT_LT(std::abs(run.final_vy), 1e-3);  // on the ground, not climbing the disc
      if (mu == 0.0) {  // nothing slows it: it keeps the bounce's speed and leaves the disc behind
        EXPECT_NEAR(run.late_slowest, run.fastest, 1e-3);
        EXPECT_GT(run.final_gap, 0.05);
      } else {  // pushed at the disc's speed, in contact (within the contact's reach)
        EXPECT_NEAR(run.late_slowest, speed, 0.02 * speed);
        EXPECT_NEAR(run.late_fastest, speed, 0.02 * speed);
        EXPECT_LT(run.final_gap, 0.002);
      }
    }
}

// A box obstacle as a lift: its top at y = 0 moves up at 0.3 m/s under the block resting on it;
// it carries the block at its speed and the block never goes below its top.
TEST(MovingObstacle, BoxLiftCarriesTheBlockAtItsSpeed) {
  nlohmann::json box = {{"name", "lift"}, {"type", "box"}, {"center", {0.0, -0.25}}, {"size", {1.0, 0.5}},
                        {"velocity", {0.0, 0.3}}};
  const Scene scene = parse_scene(block_on_plane(0.001, box), "box lift");
  Model model = build_model(scene);
  ASSERT_EQ(model.num_vertices(), 10);
  auto stepper = make_stepper(model, scene.integrator);
  State s{model.rest_positions, model.initial_velocity, 0.0};
  for (int n = 0; n < 100; ++n) {  // 0.5 s
    ASSERT_TRUE(stepper->step(s, scene.dt).converged) << "step " << n;
    EXPECT_GT(lowest_y(model, s) - (s.x[2 * 9 + 1] + 0.25), 0.0) << "through the lift's top at step " << n;
  }
  EXPECT_NEAR(s.x[2 * 9 + 1], -0.25 + 0.15, 1e-12);  // 0.3 m/s for 0.5 s
  EXPECT_NEAR(mean_velocity(model, s).y(), 0.3, 0.01);
  EXPECT_LT(lowest_y(model, s) - (s.x[2 * 9 + 1] + 0.25), 0.002);
}

// Penalty contact (2D, the block's vertices against the plane): the same conveyor and lift.
TEST(MovingObstacle, PenaltyContactConveyorAndLift) {
  const double delta = 0.002;
  {
    // Starts resting within delta of the belt (a drop onto the penalty's spring would bounce).
    nlohmann::json j = block_on_plane(0.001, {{"name", "belt"}, {"type", "plane"}, {"point", {0, 0}},
                                              {"normal", {0, 1}}, {"velocity", {1.0, 0.0}}});
    j["contact"] = {{"type", "penalty"}, {"delta", delta}, {"friction", {{"mu", 0.5}}}};
    const Scene scene = parse_scene(j, "penalty conveyor");
    Model model = build_model(scene);
    auto stepper = make_stepper(model, scene.integrator);
    State s{model.rest_positions, model.initial_velocity, 0.0};
    const double g = 9.81, mu = 0.5;
    double v_05 = 0.0, v_15 = 0.0, deepest = HUGE_VAL;
    for (int n = 0; n < 100; ++n) {  // 0.5 s
      ASSERT_TRUE(stepper->step(s, scene.dt).converged) << "step " << n;
      deepest = std::min(deepest, lowest_y(model, s) - s.x[2 * 9 + 1]);
      if (n == 19) v_05 = mean_velocity(model, s).x();   // t = 0.1 s
      if (n == 35) v_15 = mean_velocity(model, s).x();   // t = 0.18 s, before t* = 0.204 s
    }
    std::printf("[ scene ] penalty conveyor: a = %.4f m/s^2 (mu g = %.4f), deepest %.2e m, v(0.5 s) %.5f\n",
                (v_15 - v_05) / 0.08, mu * g, deepest, mean_velocity(model, s).x());
    EXPECT_NEAR(s.x[2 * 9], 0.5, 1e-12);
    EXPECT_NEAR((v_15 - v_05) / 0.08, mu * g, 0.03 * mu * g);
    EXPECT_NEAR(mean_velocity(model, s).x(), 1.0, 2e-3);
    EXPECT_GT(deepest, -0.5 * delta);  // penalty: a shallow penetration at most, never through
  }
  {
    nlohmann::json j = block_on_plane(0.001, {{"name", "lift"}, {"type", "plane"}, {"point", {0, 0}},
                                              {"normal", {0, 1}}, {"velocity", {0.0, 0.3}}});
    j["contact"] = {{"type", "penalty"}, {"delta", delta}};
    const Scene scene = parse_scene(j, "penalty lift");
    Model model = build_model(scene);
    auto stepper = make_stepper(model, scene.integrator);
    State s{model.rest_positions, model.initial_velocity, 0.0};
    double deepest = HUGE_VAL;
    for (int n = 0; n < 100; ++n) {
      ASSERT_TRUE(stepper->step(s, scene.dt).converged) << "step " << n;
      deepest = std::min(deepest, lowest_y(model, s) - s.x[2 * 9 + 1]);
    }
    std::printf("[ scene ] penalty lift: deepest %.2e m, v %.5f m/s\n", deepest, mean_velocity(model, s).y());
    EXPECT_NEAR(s.x[2 * 9 + 1], 0.15, 1e-12);
    EXPECT_NEAR(mean_velocity(model, s).y(), 0.3, 0.01);
    EXPECT_GT(deepest, -0.5 * delta);
    EXPECT_LT(lowest_y(model, s) - s.x[2 * 9 + 1], delta);
  }
}

// Constraint contact (3D box): a belt moving at 1 m/s with mu = 0.5 drags the box at mu g, then
// carries it exactly (Coulomb friction solved exactly: no creep); a lift carries it up with no
// penetration beyond the solver's tolerance.
TEST(MovingObstacle, ConstraintContactConveyorAndLift) {
  auto scene_json = [](const nlohmann::json& velocity, double mu) {
    return nlohmann::json{
        {"dim", 3},
        {"time", {{"dt", 0.005}, {"steps", 1}}},
        {"gravity", {0.0, -9.81, 0.0}},
        {"bodies",
         {{{"name", "box"},
           {"generator", {{"type", "box"}, {"size", {0.2, 0.2, 0.2}}, {"resolution", {1, 1, 1}}}},
           {"transform", {{"translate", {0.0, 0.1, 0.0}}}},
           {"material", {{"E", 1e7}, {"nu", 0.3}, {"density", 1000}}}}}},
        {"obstacles",
         {{{"name", "belt"}, {"type", "plane"}, {"point", {0, 0, 0}}, {"normal", {0, 1, 0}}, {"velocity", velocity}}}},
        {"contact", {{"type", "constraint"}, {"friction", {{"mu", mu}}}}}};
  };
  auto box_velocity = [](const Model& model, const State& s) {
    Vec3 v = Vec3::Zero();
    for (int i = 0; i < 8; ++i) v += s.v.segment<3>(3 * i);
    return Vec3(v / 8.0);
  };
  auto box_bottom = [](const State& s) {
    double y = HUGE_VAL;
    for (int i = 0; i < 8; ++i) y = std::min(y, s.x[3 * i + 1]);
    return y;
  };
  {
    const Scene scene = parse_scene(scene_json({1.0, 0.0, 0.0}, 0.5), "constraint conveyor");
    Model model = build_model(scene);
    ASSERT_EQ(model.num_vertices(), 9);  // 8 box corners and the belt's pose
    auto stepper = make_stepper(model, scene.integrator);
    State s{model.rest_positions, model.initial_velocity, 0.0};
    double v_05 = 0.0, v_15 = 0.0, deepest = HUGE_VAL;
    for (int n = 0; n < 80; ++n) {  // 0.4 s: sticks at t* = 0.204 s
      ASSERT_TRUE(stepper->step(s, scene.dt).converged) << "step " << n;
      deepest = std::min(deepest, box_bottom(s) - s.x[3 * 8 + 1]);
      if (n == 9) v_05 = box_velocity(model, s).x();
      if (n == 29) v_15 = box_velocity(model, s).x();
    }
    std::printf("[ scene ] constraint conveyor: a = %.4f m/s^2 (mu g = 4.905), v(0.4 s) %.9f m/s, deepest %.2e m\n",
                (v_15 - v_05) / 0.1, box_velocity(model, s).x(), deepest);
    EXPECT_NEAR(s.x[3 * 8], 0.4, 1e-12);
    EXPECT_NEAR((v_15 - v_05) / 0.1, 0.5 * 9.81, 0.03 * 0.5 * 9.81);
    EXPECT_NEAR(box_velocity(model, s).x(), 1.0, 1e-6);  // stuck: moves with the belt
    EXPECT_GT(deepest, -1e-5);
  }
  {
    const Scene scene = parse_scene(scene_json({0.0, 0.3, 0.0}, 0.0), "constraint lift");
    Model model = build_model(scene);
    auto stepper = make_stepper(model, scene.integrator);
    State s{model.rest_positions, model.initial_velocity, 0.0};
    double deepest = HUGE_VAL;
    for (int n = 0; n < 60; ++n) {
      ASSERT_TRUE(stepper->step(s, scene.dt).converged) << "step " << n;
      deepest = std::min(deepest, box_bottom(s) - s.x[3 * 8 + 1]);
    }
    std::printf("[ scene ] constraint lift: v %.6f m/s, deepest %.2e m\n", box_velocity(model, s).y(), deepest);
    EXPECT_NEAR(s.x[3 * 8 + 1], 0.09, 1e-12);
    EXPECT_NEAR(box_velocity(model, s).y(), 0.3, 1e-3);
    EXPECT_GT(deepest, -1e-5);
  }
}

TEST(MovingObstacle, RefusedWhereItCannotWork) {
  const nlohmann::json plane = {{"type", "plane"}, {"velocity", {0, 1}}};
  nlohmann::json with_mass = plane;
  with_mass["mass"] = 2.0;  // mass without method penalty
  EXPECT_THROW(parse_scene(block_on_plane(0.01, with_mass), "s"), InputError);
  nlohmann::json held = {{"type", "plane"}, {"velocity", {0, 1}}, {"method", "penalty"}, {"hold_when_met", true}};
  nlohmann::json bdf2 = block_on_plane(0.01, held);
  EXPECT_NO_THROW(parse_scene(bdf2, "s"));
  bdf2["integrator"] = {{"type", "tr_bdf2"}};  // a hold carried across stages: refused
  EXPECT_THROW(parse_scene(bdf2, "s"), InputError);
  nlohmann::json mesh = {{"type", "sphere"}, {"center", {0, -1}}, {"radius", 0.5}, {"kappa", 10}};
  EXPECT_THROW(parse_scene(block_on_plane(0.01, mesh), "s"), InputError);  // kappa without motion
}

}  // namespace
}  // namespace softsim
