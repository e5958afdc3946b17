// Strain-based constraints (pbd/strain_constraints.hpp, integrator.elastic_constraints "strain"):
// every constraint's gradient against central differences; for small strains the constraints'
// energies sum to the material's linear-elastic energy, also after a large rigid rotation (the
// constraints see the strain, not the rotation); nu = 0 adds no volume constraint; and a dragged
// XPBD run of a cantilever with these constraints rests where the static FEM solution of the
// same material does (a small sag, where the two materials agree).
#include "softsim/pbd/strain_constraints.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cstdio>

#include "element_checks.hpp"
#include "pbd_scenes.hpp"
#include "support/finite_difference.hpp"

namespace softsim::test {
namespace {

nlohmann::json tet_box(const std::string& model, double nu) {
  return {{"dim", 3},
          {"time", {{"dt", 0.01}, {"steps", 1}}},
          {"contact", {{"enabled", false}}},
          {"integrator", {{"type", "xpbd"}, {"elastic_constraints", "strain"}}},
          {"bodies",
           {{{"generator", {{"type", "box"}, {"size", {0.2, 0.1, 0.3}}, {"resolution", {2, 1, 3}}}},
             {"material", {{"model", model}, {"E", 1e5}, {"nu", nu}, {"density", 1000}}}}}}};
}

TEST(StrainConstraints, GradientsMatchFiniteDifferences) {
  PbdRun box(tet_box("stvk", 0.3));
  const EnergyElements tets(box.model, true);
  const int num_tets = static_cast<int>(box.model.bodies.front().mesh.cells.rows());
  EXPECT_EQ(tets.size(), 7 * num_tets);  // 3 stretch, 3 shear, 1 volume
  check_element_gradients(tets, box.model.rest_positions + random_perturbation(box.model.num_dofs(), 1e-2, 3), 3, 1e-2);

  PbdRun beam(pbd_cantilever("xpbd"));
  const EnergyElements triangles(beam.model, true);
  EXPECT_EQ(triangles.size(), 4 * 40);  // 2 stretch, 1 shear, 1 area
  check_element_gradients(triangles, beam.model.rest_positions + random_perturbation(beam.model.num_dofs(), 1e-2, 4), 2,
                          1e-2);

  PbdRun cloth(pbd_hanging_cloth("xpbd", 4));
  const EnergyElements shell(cloth.model, true);
  EXPECT_EQ(shell.size(), 4 * 32 + 40);  // 4 per triangle, and the 40 hinges as before
  check_element_gradients(shell, cloth.model.rest_positions + random_perturbation(cloth.model.num_dofs(), 1e-2, 5), 3,
                          1e-2);
}

// neo-Hookean's lambda, read back by differences, is ~1e-10 mu at nu = 0: no volume constraint.
TEST(StrainConstraints, PoissonRatioZeroAddsNoVolumeConstraintAndANegativeOneIsRefused) {
  PbdRun box(tet_box("neo_hookean", 0.0));
  const EnergyElements tets(box.model, true);
  EXPECT_EQ(tets.size(), 6 * static_cast<int>(box.model.bodies.front().mesh.cells.rows()));
  try {
    PbdRun auxetic(tet_box("neo_hookean", -0.2));
    FAIL() << "a negative Poisson ratio was accepted";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("Poisson ratio >= 0"), std::string::npos) << e.what();
  }
}

// For small strains sum k C^2 / 2 = V0 (mu eps:eps + lambda/2 tr^2 eps): the FEM energy of the
// same material, to O(strain) relative. The body is also turned by 50 degrees, which neither sees.
double relative_gap_at_small_strain(const Model& model, const char* what, double rotate_degrees) {
  const EnergyElements strain(model, true);
  const VecX u = random_perturbation(model.num_dofs(), 1e-6, 11);
  VecX x = model.rest_positions + u;
  if (rotate_degrees != 0.0) {
    const Mat3 R = Eigen::AngleAxisd(rotate_degrees * M_PI / 180.0, Vec3(1, 2, 3).normalized()).toRotationMatrix();
    for (int i = 0; i < model.num_vertices(); ++i) x.segment<3>(3 * i) = R * x.segment<3>(3 * i);
  }
  double sum = 0.0;
  for (int e = 0; e < strain.size(); ++e) sum += strain.energy(x, e, nullptr);
  const double fem = model_elastic_energy(model, x);
  EXPECT_GT(fem, 0.0);
  std::printf("%s, turned %.0f deg: strain constraints %.6e J, FEM %.6e J\n", what, rotate_degrees, sum, fem);
  return std::abs(sum / fem - 1.0);
}

TEST(StrainConstraints, SmallStrainsGiveTheMaterialsLinearElasticEnergy) {
  PbdRun box(tet_box("neo_hookean", 0.3));
  EXPECT_LT(relative_gap_at_small_strain(box.model, "tetrahedra", 0.0), 1e-3);
  EXPECT_LT(relative_gap_at_small_strain(box.model, "tetrahedra", 50.0), 1e-3);
  PbdRun beam(pbd_cantilever("xpbd"));
  EXPECT_LT(relative_gap_at_small_strain(beam.model, "2D triangles", 0.0), 1e-3);
  nlohmann::json cloth = pbd_hanging_cloth("xpbd", 4);
  cloth["bodies"][0]["material"]["bending_stiffness"] = 0.0;
  PbdRun shell(cloth);
  EXPECT_LT(relative_gap_at_small_strain(shell.model, "shell", 0.0), 1e-3);
  EXPECT_LT(relative_gap_at_small_strain(shell.model, "shell", 50.0), 1e-3);
}


TEST(StrainConstraints, ADraggedCantileverRestsAtTheStaticFemSag) {
  const double E = 2e5;  // a sag of ~8% of the length: strains of ~1%, where the two materials agree
  PbdRun statics(pbd_cantilever("static", E));
  statics.run(1);
  const double sag = cantilever_tip_sag(statics.model, statics.state.x);
  nlohmann::json j = pbd_cantilever("xpbd", E);
  j["integrator"]["elastic_constraints"] = "strain";
  j["integrator"]["substeps"] = 20;
  j["integrator"]["iterations"] = 4;
  j["integrator"]["velocity_damping"] = 0.01;
  PbdRun run(j);
  run.run(300);
  const double rest = cantilever_tip_sag(run.model, run.state.x);
  std::printf("strain-based XPBD tip sag %.6f m, static FEM %.6f m: %+.2e\n", rest, sag, rest / sag - 1.0);
  EXPECT_LT(sag, -0.05);
  EXPECT_NEAR(rest / sag, 1.0, 0.02);
}

}  // namespace
}  // namespace softsim::test
