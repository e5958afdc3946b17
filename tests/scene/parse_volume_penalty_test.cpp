// Scene keys of the volume penalty and the round generators: which volumes the regions select,
// and clear errors (file, JSON path, reason) for bad values.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "mesh/mesh_checks.hpp"
#include "softsim/scene/scene.hpp"
#include "softsim/volume/volume_penalty.hpp"

namespace softsim {
namespace {

constexpr double kPi = 3.14159265358979323846;

nlohmann::json ball_scene(const nlohmann::json& penalty) {
  return {{"dim", 3},
          {"bodies",
           {{{"name", "ball"},
             {"generator", {{"type", "hollow_sphere"}, {"radius", 0.5}, {"inner_radius", 0.4}, {"resolution", 6}, {"layers", 1}}},
             {"volume_penalty", penalty}}}}};
}

std::vector<const VolumePenalty*> penalties(const Model& model) {
  std::vector<const VolumePenalty*> out;
  for (const auto& e : model.energies())
    if (auto* v = dynamic_cast<const VolumePenalty*>(e.get())) out.push_back(v);
  return out;
}

Model build(const nlohmann::json& j) { return build_model(parse_scene(j, "v.json")); }

TEST(VolumeScene, RegionsSelectCavityOuterSurfaceAndTets) {
  const double r3 = 0.4 * 0.4 * 0.4, R3 = 0.5 * 0.5 * 0.5;
  {
    Model m = build(ball_scene({{"region", "cavity"}, {"kappa_v", 0.01}}));
    const auto p = penalties(m);
    ASSERT_EQ(p.size(), 1u);
    EXPECT_NEAR(p[0]->law().rest_volume, 4.0 / 3.0 * kPi * r3, 0.04 * 4.0 / 3.0 * kPi * r3);  // inscribed polyhedron
    EXPECT_NEAR(p[0]->law().compressibility, 0.01 / 101325.0, 1e-20);
    EXPECT_NEAR(p[0]->volume(m.rest_positions), p[0]->law().rest_volume, 1e-15);
  }
  {
    Model m = build(ball_scene({{"model", "ideal_gas"}, {"pressure", 2.0}}));  // region "enclosed"
    const auto p = penalties(m);
    ASSERT_EQ(p.size(), 1u);
    EXPECT_NEAR(p[0]->law().rest_volume, 4.0 / 3.0 * kPi * R3, 0.04 * 4.0 / 3.0 * kPi * R3);
    EXPECT_EQ(p[0]->law().rest_pressure, 2.0 * 101325.0);
  }
  {
    // The material: all tets, or those whose centroid has y > 0 (half of them by symmetry).
    Model all = build(ball_scene(nlohmann::json::array({{{"region", "tets"}}, {{"region", "tets"}, {"box", {{-1, 0, -1}, {1, 1, 1}}}}})));
    const auto p = penalties(all);
    ASSERT_EQ(p.size(), 2u);
    const double shell = 4.0 / 3.0 * kPi * (R3 - r3);
    EXPECT_NEAR(p[0]->law().rest_volume, shell, 0.04 * shell);
    EXPECT_NEAR(p[1]->law().rest_volume, 0.5 * p[0]->law().rest_volume, 1e-9);
  }
  {
    // A closed shell (the cubed-sphere surface of a thin ball's outer layer) encloses its volume.
    const nlohmann::json j = {
        {"dim", 3},
        {"bodies",
         {{{"kind", "solid"}, {"generator", {{"type", "sphere"}, {"radius", 0.3}, {"resolution", 4}}},
           {"volume_penalty", {{"model", "nearly_incompressible"}, {"kappa_v", 4.6e-5}}}}}}};
    Model m = build(j);
    const auto p = penalties(m);
    ASSERT_EQ(p.size(), 1u);
    EXPECT_NEAR(p[0]->law().rest_volume, 4.0 / 3.0 * kPi * 0.027, 0.07 * 4.0 / 3.0 * kPi * 0.027);
  }
}

TEST(VolumeScene, BadKeysNameThePathAndTheReason) {
  auto error = [](const nlohmann::json& j) { build(j); };
  SOFTSIM_EXPECT_INPUT_ERROR(error(ball_scene({{"model", "gas"}})), "v.json", "bodies[0].volume_penalty.model",
                             "expected one of quadratic, ideal_gas, nearly_incompressible");
  SOFTSIM_EXPECT_INPUT_ERROR(error(ball_scene({{"kappa_v", -1}})), "bodies[0].volume_penalty.kappa_v",
                             "expected a positive number");
  SOFTSIM_EXPECT_INPUT_ERROR(error(ball_scene({{"kappa_v", "1"}})), "volume_penalty.kappa_v", "expected a number");
  SOFTSIM_EXPECT_INPUT_ERROR(error(ball_scene({{"model", "ideal_gas"}, {"kappa_v", 1}})), "volume_penalty.kappa_v",
                             "give \"pressure\"");
  SOFTSIM_EXPECT_INPUT_ERROR(error(ball_scene({{"pressure", 2}})), "volume_penalty.pressure", "ideal_gas");
  SOFTSIM_EXPECT_INPUT_ERROR(error(ball_scene({{"region", "inside"}})), "volume_penalty.region", "expected one of");
  SOFTSIM_EXPECT_INPUT_ERROR(error(ball_scene({{"box", {{0, 0, 0}, {1, 1, 1}}}})), "volume_penalty",
                             "applies to \"region\": \"tets\" only");
  SOFTSIM_EXPECT_INPUT_ERROR(error(ball_scene({{"region", "tets"}, {"ids", {1, 2}}})), "volume_penalty.ids",
                             "selected by \"box\"");
  SOFTSIM_EXPECT_INPUT_ERROR(error(ball_scene({{"region", "tets"}, {"box", {{2, 2, 2}, {3, 3, 3}}}})),
                             "bodies[0].volume_penalty.box", "contains the centroid of no tet");
  SOFTSIM_EXPECT_INPUT_ERROR(error(ball_scene({{"direct_jacobian", "dense"}})), "volume_penalty.direct_jacobian");
  SOFTSIM_EXPECT_INPUT_ERROR(error(ball_scene({{"kappa", 1}})), "volume_penalty.kappa: unknown key");
  SOFTSIM_EXPECT_INPUT_ERROR(error(ball_scene(nlohmann::json::array())), "volume_penalty", "non-empty array");
  SOFTSIM_EXPECT_INPUT_ERROR(error(ball_scene(nlohmann::json::array({{{"model", "quadratic"}}, {{"kappa_v", 0}}}))),
                             "bodies[0].volume_penalty[1].kappa_v");
  // A solid ball has no cavity.
  nlohmann::json solid = ball_scene({{"region", "cavity"}});
  solid["bodies"][0]["generator"] = {{"type", "sphere"}, {"resolution", 2}};
  SOFTSIM_EXPECT_INPUT_ERROR(error(solid), "bodies[0].volume_penalty.region", "body \"ball\" has no cavity");
  // Shells enclose their triangles only; 2D scenes and mass-spring bodies have no volume penalty.
  nlohmann::json shell = ball_scene({{"region", "cavity"}});
  shell["bodies"][0]["kind"] = "shell";
  SOFTSIM_EXPECT_INPUT_ERROR(error(shell), "volume_penalty.region", "a shell has triangles only");
  nlohmann::json springs = ball_scene(nlohmann::json::object());
  springs["bodies"][0]["kind"] = "mass_spring";
  SOFTSIM_EXPECT_INPUT_ERROR(error(springs), "bodies[0].volume_penalty", "\"solid\" and \"shell\"");
  const nlohmann::json flat = {{"dim", 2},
                               {"bodies", {{{"generator", {{"type", "rectangle"}}}, {"volume_penalty", nlohmann::json::object()}}}}};
  SOFTSIM_EXPECT_INPUT_ERROR(error(flat), "bodies[0].volume_penalty", "3D scene");
}

TEST(VolumeScene, RoundGeneratorKeysAreValidated) {
  auto gen = [](const nlohmann::json& g) {
    build({{"dim", 3}, {"bodies", {{{"generator", g}}}}});
  };
  SOFTSIM_EXPECT_INPUT_ERROR(gen({{"type", "sphere"}, {"size", {1, 1, 1}}}), "bodies[0].generator.size: unknown key");
  SOFTSIM_EXPECT_INPUT_ERROR(gen({{"type", "sphere"}, {"inner_radius", 0.1}}), "generator.inner_radius: unknown key");
  SOFTSIM_EXPECT_INPUT_ERROR(gen({{"type", "hollow_sphere"}, {"radius", 0.5}, {"inner_radius", 0.5}}),
                             "bodies[0].generator.inner_radius", "less than radius");
  SOFTSIM_EXPECT_INPUT_ERROR(gen({{"type", "bowl"}, {"resolution", 5}}), "bodies[0].generator.resolution", "even");
  SOFTSIM_EXPECT_INPUT_ERROR(gen({{"type", "hollow_sphere"}, {"layers", 0}}), "bodies[0].generator.layers");
  SOFTSIM_EXPECT_INPUT_ERROR(gen({{"type", "sphere"}, {"resolution", {4, 4, 4}}}), "bodies[0].generator.resolution",
                             "expected an integer");
  Model bowl = build({{"dim", 3}, {"bodies", {{{"generator", {{"type", "bowl"}, {"resolution", 4}, {"layers", 1}}}}}}});
  EXPECT_EQ(bowl.bodies[0].mesh.num_cells(), 18 * 16);
}

}  // namespace
}  // namespace softsim
