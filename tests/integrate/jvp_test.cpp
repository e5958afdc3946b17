// Forward-mode Jacobian-vector products: the matrix-free H p of the incremental potential equals
// the assembled (unprojected) Hessian times p, for elasticity (every material), springs and
// contact terms together; the JVP of springs and elasticity is exercised directly.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "softsim/fem/mass_spring.hpp"
#include "softsim/fem/simplex_elasticity.hpp"
#include "softsim/integrate/incremental_potential.hpp"
#include "softsim/material/material.hpp"
#include "softsim/mesh/generators.hpp"
#include "softsim/scene/scene.hpp"
#include "support/finite_difference.hpp"
#include "fem/fem_test_util.hpp"

namespace softsim {
namespace {

using test::random_perturbation;

// The term's own forward-mode product against its assembled Hessian.
template <class Term>
void check_term(const Model& model, const Term& term, const VecX& x, const VecX& p) {
  VecX jvp = VecX::Zero(x.size());
  ASSERT_TRUE(term.gradient_jvp(x, p, 0.7, jvp));
  SparseMat H = model.layout().pattern();
  term.evaluate(x, AssemblyOutputs{nullptr, &H, 0.7, false});
  EXPECT_LT(test::relative_error(jvp, VecX(H * p)), 1e-12);
}

TEST(ForwardModeJvp, ElasticityAndSpringsMatchAssembledHessian) {
  const Mesh mesh = generate_box(Vec3(1, 0.6, 0.4), Eigen::Vector3i(3, 2, 2));
  for (const std::string& name : material_model_names()) {
    SCOPED_TRACE(name);
    Model model(3);
    model.add_vertices(mesh.vertices);
    for (int i = 0; i < mesh.num_vertices(); ++i) model.add_lumped_mass(i, 1.0);
    std::shared_ptr<const Material<3>> material =
        make_material<3>(name, LameParameters::from_young_poisson(1e4, 0.3));
    auto elastic = std::make_unique<SimplexElasticity<3>>(mesh.cells, mesh.vertices, material, "test");
    const auto* e = elastic.get();
    model.add_energy(std::move(elastic));
    auto springs = std::make_unique<MassSpring<3>>(unique_edges(mesh), mesh.vertices, 50.0);
    const auto* s = springs.get();
    model.add_energy(std::move(springs));
    model.finalize();
    const VecX x = model.rest_positions + random_perturbation(model.num_dofs(), 0.05, 3);
    model.begin_step(x);  // corotated: freeze rotations at a deformed state
    const VecX p = random_perturbation(model.num_dofs(), 1.0, 5);
    check_term(model, *e, x, p);
    check_term(model, *s, x, p);
    // The elasticity JVP keeps its tangents for the point they were computed at: a second
    // product there reuses them, a product at another point must not.
    check_term(model, *e, x, random_perturbation(model.num_dofs(), 1.0, 6));
    check_term(model, *e, VecX(x + random_perturbation(model.num_dofs(), 0.05, 7)), p);
  }
}

// Two boxes inside each other's barrier zone: elasticity, IPC contact (assembled fallback)
// and inertia together.
Model touching_boxes() {
  const nlohmann::json j = R"json({
    "dim": 3, "time": {"dt": 0.01, "steps": 1},
    "bodies": [
      {"generator": {"type": "box", "size": [0.2, 0.2, 0.2], "resolution": [2, 2, 2]}},
      {"generator": {"type": "box", "size": [0.2, 0.2, 0.2], "resolution": [2, 2, 2]},
       "transform": {"translate": [0.203, 0.01, 0.0]}}
    ],
    "contact": {"dhat": 0.01, "kappa": 100.0},
    "damping": {"alpha": 0.5, "beta": 0.01}
  })json"_json;
  return build_model(parse_scene(j, "jvp.json"));
}

// The objective's assembled (unprojected) Hessian times p.
VecX assembled_product(IncrementalPotential& objective, const VecX& x, const VecX& p) {
  SparseMat H = objective.hessian_pattern();
  VecX g(x.size());
  objective.evaluate(x, &g, &H, false);
  return H * p;
}

TEST(ForwardModeJvp, IncrementalPotentialProductMatchesAssembledHessianWithContact) {
  Model model = touching_boxes();
  IncrementalPotential objective(model);
  const VecX x = model.rest_positions;
  model.begin_step(x, 0.0, 0.01);
  objective.freeze_damping_stiffness(x);
  objective.set_step(x + 0.01 * random_perturbation(x.size(), 0.1, 9), 1.0, 1e-4, x, 0.01);
  const VecX p = random_perturbation(x.size(), 1.0, 11);
  VecX hp;
  ASSERT_TRUE(objective.hessian_times(x, p, hp));
  EXPECT_LT(test::relative_error(hp, assembled_product(objective, x, p)), 1e-12);
}

// The contact term has no JVP: its Hessian is assembled once per point and reused by every
// product there (one assembly per Newton iteration, not per Krylov iteration), and rebuilt at a
// new point or after anything that may change the term.
TEST(ForwardModeJvp, AssembledFallbackIsReusedAtTheSamePoint) {
  Model model = touching_boxes();
  IncrementalPotential objective(model);
  const VecX x0 = model.rest_positions;
  model.begin_step(x0, 0.0, 0.01);
  objective.set_step(x0, 1.0, 1e-4, x0, 0.0);
  const long before = model.hessian_product_assemblies();
  VecX hp;
  for (int k = 0; k < 5; ++k) {
    const VecX p = random_perturbation(x0.size(), 1.0, 20 + k);
    ASSERT_TRUE(objective.hessian_times(x0, p, hp));
    EXPECT_LT(test::relative_error(hp, assembled_product(objective, x0, p)), 1e-12) << "product " << k;
  }
  EXPECT_EQ(model.hessian_product_assemblies() - before, 1);

  // Another point (still in contact): one more assembly, and products are right there too.
  const VecX x1 = x0 + random_perturbation(x0.size(), 1e-4, 31);
  for (int k = 0; k < 3; ++k) {
    const VecX p = random_perturbation(x0.size(), 1.0, 40 + k);
    ASSERT_TRUE(objective.hessian_times(x1, p, hp));
    EXPECT_LT(test::relative_error(hp, assembled_product(objective, x1, p)), 1e-12) << "product " << k;
  }
  EXPECT_EQ(model.hessian_product_assemblies() - before, 2);

  // end_iteration may change a term (e.g. the barrier stiffness): the next product reassembles.
  model.end_iteration(x1);
  ASSERT_TRUE(objective.hessian_times(x1, random_perturbation(x0.size(), 1.0, 50), hp));
  EXPECT_EQ(model.hessian_product_assemblies() - before, 3);
  // So may a new stage's velocity map (lagged friction) or stage fraction (penalty targets).
  model.set_stage_velocity(x0, 100.0);
  ASSERT_TRUE(objective.hessian_times(x1, random_perturbation(x0.size(), 1.0, 51), hp));
  model.set_stage_fraction(0.5);
  ASSERT_TRUE(objective.hessian_times(x1, random_perturbation(x0.size(), 1.0, 52), hp));
  EXPECT_EQ(model.hessian_product_assemblies() - before, 5);
}

}  // namespace
}  // namespace softsim
