// Reading a position-based fluid scene (scene/pbf_scene.hpp): every key lands in the solver's
// options, fluids are sampled on the spacing's lattice in their region, obstacles keep their
// shape, and bad input gets one message naming the key (a fluid outside the tank, a missing
// spacing, an unknown key, sections that belong to other scenes, a kernel radius below 1.5
// spacings, overlapping fluids, more particles than the limits, counted as they are sampled).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "softsim/core/errors.hpp"
#include "softsim/mpm/mpm_particles.hpp"
#include "softsim/scene/pbf_scene.hpp"

namespace softsim {
namespace {

nlohmann::json tank() {
  return R"json({
    "dim": 2, "gravity": [0, -5], "time": {"dt": 0.01, "steps": 7}, "output": {"every": 2},
    "pbf": {
      "tank": {"min": [0, 0], "max": [1, 0.5]},
      "spacing": 0.05, "rest_density": 800, "kernel_radius": 0.12, "substeps": 3, "iterations": 5,
      "relaxation": 0.1, "tensile": {"k": 0.05, "n": 3, "distance": 0.2}, "xsph": 0.02, "vorticity": 0.3,
      "unilateral": false,
      "fluids": [{"name": "left", "box": {"min": [0, 0], "max": [0.2, 0.3]}, "velocity": [1, 0]},
                 {"sphere": {"center": [0.7, 0.25], "radius": 0.1}}],
      "obstacles": [{"type": "sphere", "center": [0.5, 0], "radius": 0.05, "velocity": [0, 0.1]}]
    }
  })json"_json;
}

std::string pbf_scene_error(const nlohmann::json& j) {
  try {
    const PbfScene scene = parse_pbf_scene(j, "tank.json");
    if (scene.dim == 2) build_pbf_solver<2>(scene);
    else build_pbf_solver<3>(scene);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ParsePbf, ReadsEveryKeyAndSamplesTheFluids) {
  const nlohmann::json j = tank();
  ASSERT_TRUE(is_pbf_scene(j));
  const PbfScene s = parse_pbf_scene(j, "tank.json");
  EXPECT_EQ(s.dim, 2);
  EXPECT_EQ(s.steps, 7);
  EXPECT_EQ(s.output_every, 2);
  const PbfOptions<3>& o = s.options;
  EXPECT_EQ(o.rest_density, 800);
  EXPECT_EQ(o.kernel_radius, 0.12);
  EXPECT_EQ(o.substeps, 3);
  EXPECT_EQ(o.iterations, 5);
  EXPECT_EQ(o.relaxation, 0.1);
  EXPECT_EQ(o.tensile_k, 0.05);
  EXPECT_EQ(o.tensile_n, 3);
  EXPECT_EQ(o.tensile_distance, 0.2);
  EXPECT_EQ(o.xsph, 0.02);
  EXPECT_EQ(o.vorticity, 0.3);
  EXPECT_FALSE(o.unilateral);
  ASSERT_EQ(o.obstacles.size(), 1u);
  EXPECT_EQ(o.obstacles[0].shape, MovingShape<3>::Shape::sphere);
  EXPECT_EQ(o.obstacles[0].velocity[1], 0.1);
  const PbfSolver<2> solver = build_pbf_solver<2>(s);
  // 4 x 6 particles in the box, and the lattice points of the ball's 4 x 4 square within its radius.
  int ball = 0;
  for (const Vec2& p : sample_box_regular<2>(Vec2(0.6, 0.15), Vec2(0.8, 0.35), 0.05, 1.0))
    ball += (p - Vec2(0.7, 0.25)).norm() <= 0.1;
  EXPECT_EQ(solver.size(), 24u + ball);
  EXPECT_EQ(solver.velocities().front(), Vec2(1, 0));
  EXPECT_EQ(solver.velocities().back(), Vec2(0, 0));
  EXPECT_EQ(solver.options().gravity, Vec2(0, -5));
}

TEST(ParsePbf, BadInputNamesTheKey) {
  auto with = [](auto edit) {
    nlohmann::json j = tank();
    edit(j);
    return pbf_scene_error(j);
  };
  auto expect_mentions = [](const std::string& message, const std::string& what) {
    EXPECT_NE(message.find(what), std::string::npos) << what << " not in: " << message;
    EXPECT_NE(message.find("tank.json"), std::string::npos) << message;
  };
  expect_mentions(with([](nlohmann::json& j) { j["pbf"]["fluids"][0]["box"]["max"] = {1.2, 0.3}; }),
                  "pbf.fluids[0].box");
  expect_mentions(with([](nlohmann::json& j) { j["pbf"].erase("spacing"); }), "pbf.spacing");
  expect_mentions(with([](nlohmann::json& j) { j["pbf"]["viscosity"] = 1; }), "pbf.viscosity");
  expect_mentions(with([](nlohmann::json& j) { j["bodies"] = nlohmann::json::array(); }), "bodies");
  expect_mentions(with([](nlohmann::json& j) { j["pbf"]["kernel_radius"] = 0.01; }), "pbf.kernel_radius");
  expect_mentions(with([](nlohmann::json& j) { j["pbf"]["fluids"] = nlohmann::json::array(); }), "pbf.fluids");
  expect_mentions(with([](nlohmann::json& j) { j["pbf"]["obstacles"][0]["type"] = "cone"; }), "pbf.obstacles[0].type");
  expect_mentions(with([](nlohmann::json& j) { j["pbf"]["tensile"]["distance"] = 1.0; }), "pbf.tensile.distance");
  expect_mentions(with([](nlohmann::json& j) {
                    j["pbf"]["spacing"] = 1e-6;
                    j["pbf"].erase("kernel_radius");
                  }),
                  "pbf.spacing");
  expect_mentions(with([](nlohmann::json& j) { j["pbf"]["kernel_radius"] = 0.05; }), "pbf.kernel_radius");  // 1 spacing
  expect_mentions(with([](nlohmann::json& j) { j["pbf"]["fluids"][1]["sphere"]["center"] = {0.25, 0.25}; }),
                  "overlaps pbf.fluids[0]");
  expect_mentions(with([](nlohmann::json& j) {  // a thin box in a long tank: counted as sampled
                    j["pbf"]["tank"]["max"] = {2e6, 0.5};
                    j["pbf"]["fluids"][0]["box"] = {{"min", {0, 0}}, {"max", {2e6, 1e-9}}};
                  }),
                  "particles");
}

}  // namespace
}  // namespace softsim
