// The model's energy as per-element terms (pbd/energy_elements.hpp): each element's gradient
// against central differences, and the elements summing to the model's elastic energy.
#include "softsim/pbd/energy_elements.hpp"

#include <gtest/gtest.h>

#include "element_checks.hpp"
#include "pbd_scenes.hpp"
#include "softsim/core/errors.hpp"
#include "support/finite_difference.hpp"

namespace softsim {
namespace {

void check_elements(const Model& model, double amplitude, int expected_min_elements) {
  const EnergyElements elements(model);
  ASSERT_GE(elements.size(), expected_min_elements);
  const VecX x = model.rest_positions + test::random_perturbation(model.num_dofs(), amplitude, 7);
  const double sum = test::check_element_gradients(elements, x, model.dim(), amplitude);
  EXPECT_NEAR(sum, test::model_elastic_energy(model, x), 1e-10 * std::max(1.0, sum));
}

TEST(EnergyElements, SimplexElementsMatchFiniteDifferencesAndSumToTheModelEnergy2d) {
  test::PbdRun run(test::pbd_cantilever("xpbd"));
  check_elements(run.model, 1e-3, 40);
}

TEST(EnergyElements, MembraneAndHingeElementsMatchFiniteDifferencesAndSumToTheModelEnergy) {
  test::PbdRun run(test::pbd_hanging_cloth("xpbd", 4));
  // 32 triangles and 40 interior edges.
  check_elements(run.model, 1e-3, 72);
}

TEST(EnergyElements, IsometricBendingElementsMatchFiniteDifferencesAndSumToTheModelEnergy) {
  nlohmann::json j = test::pbd_hanging_cloth("xpbd", 4);
  j["bodies"][0]["material"]["bending"] = "isometric";
  test::PbdRun run(j);
  bool isometric = false;
  for (const auto& term : run.model.energies()) isometric |= term->name() == "isometric_bending";
  ASSERT_TRUE(isometric);
  check_elements(run.model, 1e-3, 72);
}

TEST(EnergyElements, TheEnclosedVolumeIsOneElementOverTheWholeSurface) {
  const auto dir = std::filesystem::temp_directory_path() / "softsim_pbd_elements";
  nlohmann::json j = test::pbd_balloon(dir);
  j.erase("obstacles");
  test::PbdRun run(j, (dir / "balloon.json").string());
  const EnergyElements elements(run.model);
  EXPECT_EQ(elements.max_vertices(), run.model.num_vertices());
  check_elements(run.model, 2e-3, 320 + 480);
}

TEST(EnergyElements, SpringsAndTetrahedraMatchFiniteDifferences) {
  nlohmann::json springs = {{"dim", 2},
                            {"time", {{"dt", 0.01}, {"steps", 1}}},
                            {"bodies",
                             {{{"kind", "mass_spring"},
                               {"generator", {{"type", "spring_grid"}, {"size", {1, 1}}, {"resolution", {3, 3}}}},
                               {"material", {{"stiffness", 1e3}, {"density", 10}}}}}}};
  test::PbdRun a(springs);
  check_elements(a.model, 1e-3, 30);
  nlohmann::json box = {{"dim", 3},
                        {"time", {{"dt", 0.01}, {"steps", 1}}},
                        {"contact", {{"enabled", false}}},
                        {"bodies",
                         {{{"generator", {{"type", "box"}, {"size", {0.2, 0.2, 0.2}}, {"resolution", {2, 2, 2}}}},
                           {"material", {{"model", "neo_hookean"}, {"E", 1e5}, {"nu", 0.4}, {"density", 1000}}}}}}};
  test::PbdRun b(box);
  check_elements(b.model, 1e-3, 40);
}

TEST(EnergyElements, RefusesWhatItCannotProject) {
  nlohmann::json j = test::pbd_cantilever("xpbd");
  j["damping"] = {{"alpha", 0.1}};
  try {
    test::PbdRun run(j);
    FAIL() << "Rayleigh damping accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("integrator.type \"xpbd\""), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("Rayleigh"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace softsim
