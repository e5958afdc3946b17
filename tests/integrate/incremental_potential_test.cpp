// Hessian operators (forward-mode products): the matrix-free H p of the incremental potential
// equals the assembled (unprojected) Hessian times p, for elasticity (every material), springs and
// contact terms together; the operators of springs and elasticity are exercised directly.
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "softsim/fem/mass_spring.hpp"
#include "softsim/fem/simplex_elasticity.hpp"
#include "softsim/integrate/incremental_potential.hpp"
#include "softsim/integrate/rayleigh_damping.hpp"
#include "softsim/material/material.hpp"
#include "softsim/mesh/generators.hpp"
#include "softsim/scene/scene.hpp"
#include "support/evaluation.hpp"
#include "support/finite_difference.hpp"
#include "support/fem_models.hpp"

namespace softsim {
namespace {

using test::random_perturbation;

// The term's own operator against its assembled Hessian.
template <class Term>
void check_term(const EvalContext& ctx, const Model& model, const Term& term, const VecX& x, const VecX& p) {
  VecX jvp = VecX::Zero(x.size());
  const auto op = term.hessian_operator(ctx, x);
  ASSERT_TRUE(op);
  op->add_product(p, 0.7, jvp);
  SparseMat H = model.layout().pattern();
  term.evaluate(ctx, x, AssemblyOutputs{nullptr, &H, 0.7, false});
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
    test::Evaluation ev(model);
    model.begin_step(ev.stage, ev.data, x);  // corotated: freeze rotations at a deformed state
    const VecX p = random_perturbation(model.num_dofs(), 1.0, 5);
    check_term(ev.ctx(), model, *e, x, p);
    check_term(ev.ctx(), model, *s, x, p);
    check_term(ev.ctx(), model, *e, x, random_perturbation(model.num_dofs(), 1.0, 6));
    check_term(ev.ctx(), model, *e, VecX(x + random_perturbation(model.num_dofs(), 0.05, 7)), p);
    // One operator serves every product at its point: two directions against the assembled H.
    const auto op = e->hessian_operator(ev.ctx(), x);
    SparseMat H = model.layout().pattern();
    e->evaluate(ev.ctx(), x, AssemblyOutputs{nullptr, &H, 1.0, false});
    for (unsigned seed : {8u, 9u}) {
      const VecX q = random_perturbation(model.num_dofs(), 1.0, seed);
      VecX hq = VecX::Zero(q.size());
      op->add_product(q, 1.0, hq);
      EXPECT_LT(test::relative_error(hq, VecX(H * q)), 1e-12);
    }
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
  const Model model = touching_boxes();
  ModelData data(model);
  IncrementalPotential objective(model, data);
  const VecX x = model.rest_positions;
  const Stage start = Stage::step(0.0, 0.01);
  model.begin_step(start, data, x);
  const SparseMat D = rayleigh_damping_matrix(model, EvalContext{start, data}, x);
  objective.set_damping(&D);
  objective.set_step(start, x + 0.01 * random_perturbation(x.size(), 0.1, 9), 1.0, 1e-4, x, 0.01);
  const auto hessian = objective.hessian_operator(x);
  ASSERT_TRUE(hessian);
  // The contact term has no operator of its own: its Hessian is assembled once into the
  // operator, which then serves every product at x (every Krylov iteration of one Newton
  // iteration).
  for (unsigned seed : {11u, 12u, 13u}) {
    const VecX p = random_perturbation(x.size(), 1.0, seed);
    VecX hp;
    hessian(p, hp);
    EXPECT_LT(test::relative_error(hp, assembled_product(objective, x, p)), 1e-12);
  }
  // At another point the operator is built again, and is right there too.
  const VecX x1 = x + random_perturbation(x.size(), 1e-4, 31);
  const auto hessian1 = objective.hessian_operator(x1);
  const VecX p = random_perturbation(x.size(), 1.0, 40);
  VecX hp;
  hessian1(p, hp);
  EXPECT_LT(test::relative_error(hp, assembled_product(objective, x1, p)), 1e-12);
}

// A term that holds two DOFs (as a penalty motion holds the vertices that met their targets).
class HoldsTwoDofs : public Energy {
 public:
  std::string name() const override { return "holds two DOFs"; }
  double evaluate(const EvalContext&, const VecX&, const AssemblyOutputs&) const override { return 0.0; }
  void held_dofs(const ModelData&, std::vector<int>& dofs) const override { dofs.insert(dofs.end(), {7, 2}); }
};

// Held DOFs are eliminated like Dirichlet ones: their gradient entries, rows and columns go,
// the diagonal becomes 1, and every other entry of the Hessian is left as it was (checked on the
// dense matrix of an elastic box, whose pattern couples the held DOFs with their neighbours).
TEST(IncrementalPotential, HeldDofsAreEliminatedFromTheGradientAndHessian) {
  const Mesh mesh = generate_box(Vec3(1, 0.6, 0.4), Eigen::Vector3i(3, 2, 2));
  Model model(3);
  model.add_vertices(mesh.vertices);
  for (int i = 0; i < mesh.num_vertices(); ++i) model.add_lumped_mass(i, 1.0);
  model.add_energy(std::make_unique<SimplexElasticity<3>>(
      mesh.cells, mesh.vertices, make_material<3>("neo_hookean", LameParameters::from_young_poisson(1e4, 0.3)), "box"));
  model.add_energy(std::make_unique<HoldsTwoDofs>());
  model.finalize();
  ModelData data(model);
  IncrementalPotential objective(model, data);
  const VecX x = model.rest_positions + random_perturbation(model.num_dofs(), 1e-3, 5);
  const Stage start = Stage::step(0.0, 0.01);
  model.begin_step(start, data, x);
  objective.set_step(start, x, 1.0, 1e-4, x, 0.0);
  SparseMat H = objective.hessian_pattern();
  VecX g(x.size());
  objective.evaluate(x, &g, &H, false);
  const MatX before = MatX(H);
  const VecX g_before = g;
  objective.reduce(g, &H);
  const MatX after = MatX(H);
  const std::vector<int> held{2, 7};
  const auto is_held = [&](Eigen::Index i) { return std::find(held.begin(), held.end(), i) != held.end(); };
  int coupled = 0;
  for (Eigen::Index r = 0; r < after.rows(); ++r) {
    EXPECT_EQ(g[r], is_held(r) ? 0.0 : g_before[r]) << r;
    for (Eigen::Index c = 0; c < after.cols(); ++c) {
      const bool eliminated = is_held(r) || is_held(c);
      if (eliminated && r != c && before(r, c) != 0.0) ++coupled;
      EXPECT_EQ(after(r, c), eliminated ? (r == c ? 1.0 : 0.0) : before(r, c)) << r << ", " << c;
    }
  }
  EXPECT_GT(coupled, 20);  // the held DOFs were coupled: the elimination had entries to clear
}

}  // namespace
}  // namespace softsim
