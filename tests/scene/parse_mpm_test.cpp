// MPM scene files (scene/mpm_scene.hpp): what is read and defaulted, the particles built from
// boxes, and one clear message naming the key or the body for each kind of bad input.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "softsim/core/errors.hpp"
#include "softsim/scene/mpm_scene.hpp"
#include "softsim/scene/scene.hpp"

namespace softsim {
namespace {

nlohmann::json sand_scene() {
  return R"json({
    "dim": 2, "gravity": [0, -9.81], "time": {"dt": 2e-4, "steps": 10}, "output": {"every": 5},
    "mpm": {
      "grid": {"origin": [0, 0], "cells": [32, 32], "spacing": 0.03125},
      "transfer": "apic", "kernel": "cubic",
      "walls": {"nodes": 4, "condition": "friction", "friction": 0.3},
      "materials": [{"name": "sand", "elasticity": "stvk_hencky", "plasticity": "drucker_prager",
                     "E": 3.5e5, "nu": 0.3, "density": 400, "friction_angle": 30}],
      "bodies": [{"name": "column", "box": {"min": [0.4, 0.4], "max": [0.6, 0.8]}, "velocity": [1, 0],
                  "particles_per_cell": 4, "material": "sand"}],
      "colliders": [{"type": "sphere", "center": [0.5, 0.3], "radius": 0.1, "condition": "friction", "friction": 0.5},
                    {"type": "plane", "point": [0, 0.2], "normal": [0, 3]}]
    }
  })json"_json;
}

std::string error_of(const nlohmann::json& j) {
  try {
    const MpmScene scene = parse_mpm_scene(j, "sand.json");
    if (scene.dim == 2) build_mpm_solver<2>(scene);
    else build_mpm_solver<3>(scene);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(MpmScene, ReadsEveryKeyAndBuildsTheParticles) {
  const nlohmann::json j = sand_scene();
  ASSERT_TRUE(is_mpm_scene(j));
  const MpmScene s = parse_mpm_scene(j, "sand.json");
  EXPECT_EQ(s.dim, 2);
  EXPECT_EQ(s.steps, 10);
  EXPECT_EQ(s.output_every, 5);
  EXPECT_EQ(s.kernel, MpmKernel::cubic);
  EXPECT_EQ(s.walls, MpmBoundary::friction);
  EXPECT_DOUBLE_EQ(s.wall_friction, 0.3);
  EXPECT_EQ(s.wall_nodes, 4);
  ASSERT_EQ(s.materials.size(), 1u);
  EXPECT_EQ(s.materials[0].plasticity, MpmPlasticity::drucker_prager);
  EXPECT_DOUBLE_EQ(s.materials[0].friction_angle, 30.0);
  ASSERT_EQ(s.colliders.size(), 2u);
  EXPECT_NEAR(s.colliders[1].normal.norm(), 1.0, 1e-15);
  const MpmSolver<2> solver = build_mpm_solver<2>(s);
  // 4 per cell of 1/32 m over 0.2 x 0.4 m: a lattice of 12 x 25.
  EXPECT_EQ(solver.particles().size(), 12u * 25u);
  double mass = 0.0;
  for (double m : solver.particles().mass) mass += m;
  EXPECT_NEAR(mass, 400 * 0.2 * 0.4, 1e-12);  // the box's volume times the material's density
  EXPECT_EQ(solver.particles().v[0], VecD<2>(1.0, 0.0));
}

TEST(MpmScene, BadInputIsOneMessageNamingTheKey) {
  auto with = [](const std::function<void(nlohmann::json&)>& change) {
    nlohmann::json j = sand_scene();
    change(j);
    return error_of(j);
  };
  auto expect_mentions = [](const std::string& message, const std::vector<std::string>& parts) {
    ASSERT_FALSE(message.empty());
    EXPECT_NE(message.find("sand.json"), std::string::npos) << message;
    for (const std::string& part : parts) EXPECT_NE(message.find(part), std::string::npos) << message;
  };
  expect_mentions(with([](auto& j) { j["mpm"]["kernel"] = "quartic"; }), {"mpm.kernel", "quadratic"});
  expect_mentions(with([](auto& j) { j["mpm"]["grids"] = 1; }), {"grids"});
  expect_mentions(with([](auto& j) { j["mpm"]["bodies"][0]["material"] = "mud"; }), {"material", "sand"});
  expect_mentions(with([](auto& j) { j["mpm"]["materials"][0].erase("plasticity"); }), {"friction_angle", "drucker_prager"});
  expect_mentions(with([](auto& j) { j["mpm"]["grid"]["cells"] = {32}; }), {"cells", "2 numbers"});
  expect_mentions(with([](auto& j) { j["mpm"]["bodies"][0]["box"]["max"] = {0.3, 0.8}; }), {"max"});
  expect_mentions(with([](auto& j) { j["mpm"]["flip_ratio"] = 0.9; }), {"flip_ratio", "flip"});
  expect_mentions(with([](auto& j) { j["bodies"] = nlohmann::json::array(); }), {"bodies", "MPM"});
  expect_mentions(with([](auto& j) { j["mpm"]["colliders"][0]["type"] = "cone"; }), {"type"});
  // A body outside the grid's interior: named, with the grid's extent.
  expect_mentions(with([](auto& j) { j["mpm"]["bodies"][0]["box"] = {{"min", {0.9, 0.4}}, {"max", {1.2, 0.8}}}; }),
                  {"body \"column\"", "outside the grid", "32 x 32"});
  // A FEM reading of an MPM scene says what it is.
  try {
    parse_scene(sand_scene(), "sand.json");
    FAIL() << "parsed as a FEM scene";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("MPM"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace softsim
