// The incremental potential evaluated body by body in reduced coordinates (integrate/
// reduced_incremental_potential.hpp), on reduced cantilevers with a fitted cubature, gravity, a
// load, mass damping and a predictor off the basis, and on models with terms in positions
// (contact with an obstacle and between bodies, lagged friction, the orthogonality potential):
// the same value, gradient, Hessian and step filter as the positions path (SubspaceObjective:
// evaluate in positions, eliminate, pull back), derivatives against finite differences, the same
// Newton solution, and the models it refuses.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <nlohmann/json.hpp>

#include "softsim/contact/barrier/ipc_contact.hpp"
#include "softsim/integrate/incremental_potential.hpp"
#include "softsim/integrate/rayleigh_damping.hpp"
#include "softsim/fem/penalty_motion.hpp"
#include "softsim/integrate/reduced_incremental_potential.hpp"
#include "softsim/integrate/stepper.hpp"
#include "softsim/scene/scene.hpp"
#include "softsim/solve/linear_solver.hpp"
#include "softsim/solve/projected_newton.hpp"
#include "support/finite_difference.hpp"
#include "support/objective_derivatives.hpp"
#include "support/staged_potential.hpp"

namespace softsim {
namespace {

using test::random_perturbation;
using test::relative_error;

// A cantilever held at its left end, reduced to 8 modes + derivatives with a cubature of at most
// 12 elements (2D: 12 x 2 cells; 3D: 6 x 1 x 1 cells of 6 tets).
nlohmann::json reduced_cantilever(int dim) {
  nlohmann::json j = R"json({
    "gravity": [0, -9.81, 0],
    "bodies": [{"name": "beam", "generator": {"type": "box"},
                "material": {"model": "neo_hookean", "E": 1e5, "nu": 0.3, "density": 1000},
                "reduction": {"basis": "modes+derivatives", "size": 8, "cubature": {"elements": 12}}}],
    "damping": {"alpha": 0.3}, "contact": {"enabled": false}
  })json"_json;
  j["dim"] = dim;
  auto& body = j["bodies"][0];
  if (dim == 2) {
    j["gravity"] = {0.0, -9.81};
    body["generator"] = {{"type", "rectangle"}, {"size", {2.0, 0.25}}, {"resolution", {12, 2}}};
    body["fixed"] = nlohmann::json::array({{{"box", {{-1.01, -1.0}, {-0.99, 1.0}}}}});
  } else {
    body["generator"] = {{"type", "box"}, {"size", {1.0, 0.2, 0.2}}, {"resolution", {6, 1, 1}}};
    body["fixed"] = nlohmann::json::array({{{"box", {{-0.51, -1.0, -1.0}, {-0.49, 1.0, 1.0}}}}});
  }
  return j;
}

// The cantilever resting 8 mm above an obstacle plane with dhat 1 cm: barrier and lagged friction
// active on its bottom vertices, IPC self-contact on (no pair near).
nlohmann::json reduced_cantilever_on_obstacle(int dim) {
  nlohmann::json j = reduced_cantilever(dim);
  j["contact"] = {{"dhat", 0.01}, {"kappa", 1e4}, {"friction", {{"mu", 0.3}}}};
  const double bottom = dim == 2 ? -0.125 : -0.1;
  nlohmann::json point = dim == 2 ? nlohmann::json{0.0, bottom - 0.008} : nlohmann::json{0.0, bottom - 0.008, 0.0};
  nlohmann::json normal = dim == 2 ? nlohmann::json{0.0, 1.0} : nlohmann::json{0.0, 1.0, 0.0};
  j["obstacles"] = {{{"name", "ground"}, {"type", "plane"}, {"point", point}, {"normal", normal}}};
  return j;
}

// Two elastic affine squares, the upper one with an orthogonality potential, 6 mm apart and 6 mm
// above the ground (dhat 1 cm): contact pairs between the bodies, with the ground, and friction.
nlohmann::json stacked_affine_squares() {
  return R"json({
    "dim": 2, "gravity": [0, -9.81],
    "contact": {"dhat": 0.01, "kappa": 1e4, "friction": {"mu": 0.3}},
    "obstacles": [{"name": "ground", "type": "plane", "point": [0, -0.506], "normal": [0, 1]}],
    "bodies": [
      {"name": "lower", "kind": "affine", "generator": {"type": "rectangle", "size": [1, 1], "resolution": [4, 4]},
       "material": {"model": "neo_hookean", "E": 2e4, "nu": 0.4, "density": 1000}},
      {"name": "upper", "kind": "affine", "affine": {"stiffness": 1e5},
       "generator": {"type": "rectangle", "size": [0.6, 0.6], "resolution": [3, 3]},
       "transform": {"translate": [0.1, 0.806]},
       "material": {"model": "neo_hookean", "E": 2e4, "nu": 0.4, "density": 500}}
    ]
  })json"_json;
}

// The positions path and the reduced one over the same staged potential (a predictor off the
// basis, so the inertia's residual terms count).
struct Fixture : test::StagedPotential {
  std::unique_ptr<SubspaceObjective> pulled_back;
  std::unique_ptr<ReducedIncrementalPotential> reduced;
  explicit Fixture(const nlohmann::json& scene)
      : StagedPotential([scene] { return build_model(parse_scene(scene, "scene.json")); }),
        pulled_back(std::make_unique<SubspaceObjective>(positions, model.subspace)),
        reduced(std::make_unique<ReducedIncrementalPotential>(positions, model)) {}
  explicit Fixture(int dim) : Fixture(reduced_cantilever(dim)) {}
};

// Projected Newton from q on `objective` (step scale 0.01); q is moved to the solution.
NewtonResult solve_from(SubspaceObjective& objective, VecX& q, double tolerance) {
  NewtonOptions options;
  options.tolerance = tolerance;
  options.step_scale = 0.01;
  auto solver = make_linear_solver("auto", static_cast<int>(q.size()));
  return projected_newton(objective, q, *solver, options);
}

// Projected Newton from q0 on both paths: the same iterations, a solution that moved by more
// than `moved` and agrees to `agreement` relative.
void expect_the_same_newton_solution(Fixture& f, const VecX& q0, double tolerance, double moved, double agreement) {
  VecX q_a = q0, q_b = q0;
  const NewtonResult a = solve_from(*f.pulled_back, q_a, tolerance);
  const NewtonResult b = solve_from(*f.reduced, q_b, tolerance);
  ASSERT_TRUE(a.converged) << a.failure;
  ASSERT_TRUE(b.converged) << b.failure;
  EXPECT_EQ(a.iterations, b.iterations);
  EXPECT_GT((q_a - q0).norm(), moved);
  EXPECT_LT((q_a - q_b).lpNorm<Eigen::Infinity>(), agreement * q_a.lpNorm<Eigen::Infinity>());
}

// Both paths at q (projected Hessians, eliminated): the same value to 1e-12 and gradient and
// Hessian to 1e-11, relative. Returns the reduced path's value and Hessian.
std::pair<double, SparseMat> expect_equal_evaluations(Fixture& f, const VecX& q, const std::string& what) {
  VecX g_a, g_b;
  SparseMat H_a = f.pulled_back->hessian_pattern(), H_b = f.reduced->hessian_pattern();
  const double E_a = f.pulled_back->evaluate(q, &g_a, &H_a, true);
  const double E_b = f.reduced->evaluate(q, &g_b, &H_b, true);
  EXPECT_TRUE(std::isfinite(E_a)) << what;
  f.pulled_back->reduce(g_a, &H_a);
  f.reduced->reduce(g_b, &H_b);
  EXPECT_NEAR(E_a, E_b, 1e-12 * std::abs(E_a)) << what;
  EXPECT_LT(relative_error(g_b, g_a), 1e-11) << what;
  EXPECT_LT(relative_error(MatX(H_b), MatX(H_a)), 1e-11) << what;
  return {E_b, H_b};
}

class ReducedIncrementalPotentialTest : public testing::TestWithParam<int> {};

TEST_P(ReducedIncrementalPotentialTest, EqualsThePositionsPathAndReadsOnlyTheCubatureVertices) {
  Fixture f(GetParam());
  const SubspaceMap& map = f.model.subspace;
  ASSERT_EQ(map.num_coordinates(), 8);
  EXPECT_EQ(reduced_evaluation_obstacle(f.model), "");
  // The compact model has the cubature elements' vertices only.
  EXPECT_LE(f.reduced->num_cubature_vertices(), 12 * (GetParam() + 1));
  EXPECT_LT(f.reduced->num_cubature_vertices(), f.model.num_vertices());
  for (int seed : {1, 2, 3}) {
    const VecX q = random_perturbation(map.num_coordinates(), 0.05, seed);
    const auto [E_b, H_b] = expect_equal_evaluations(f, q, "seed " + std::to_string(seed));
    EXPECT_EQ(H_b.nonZeros(), f.reduced->hessian_pattern().nonZeros());
    // Value-only calls agree too, and the step filter stops at the same fraction on a step
    // large enough to invert cubature elements.
    EXPECT_NEAR(f.pulled_back->evaluate(q, nullptr, nullptr, false), f.reduced->evaluate(q, nullptr, nullptr, false),
                1e-12 * std::abs(E_b));
    const VecX p = random_perturbation(map.num_coordinates(), 50.0, seed + 10);
    const double alpha = f.reduced->max_step_fraction(q, p);
    EXPECT_LT(alpha, 1.0);
    EXPECT_NEAR(alpha, f.pulled_back->max_step_fraction(q, p), 1e-12);
  }
}

TEST_P(ReducedIncrementalPotentialTest, DerivativesMatchFiniteDifferences) {
  Fixture f(GetParam());
  const VecX q = random_perturbation(f.model.subspace.num_coordinates(), 0.05, 4);
  const test::DerivativeErrors errors = test::objective_derivative_errors(*f.reduced, q);
  EXPECT_LT(errors.gradient, 1e-6);
  EXPECT_LT(errors.hessian, 1e-6);
}

// Stiffness-proportional damping: beta K_r frozen at the step's start (the rest state of the
// fixture's damping) equals the positions path's beta B^T K B with K over the whole mesh, and is
// the Hessian of its own quadratic; without its start the evaluation refuses.
TEST_P(ReducedIncrementalPotentialTest, StiffnessDampingEqualsThePositionsPath) {
  nlohmann::json scene = reduced_cantilever(GetParam());
  scene["damping"]["beta"] = 0.05;
  Fixture f(scene);
  const int r = f.model.subspace.num_coordinates();
  EXPECT_THROW(f.reduced->evaluate(VecX::Zero(r), nullptr, nullptr, false), std::logic_error);
  f.reduced->set_stiffness_damping_start(f.model.subspace.coordinates(f.model.rest_positions));
  for (int seed : {1, 2}) expect_equal_evaluations(f, random_perturbation(r, 0.05, seed), "seed " + std::to_string(seed));
  const test::DerivativeErrors errors = test::objective_derivative_errors(*f.reduced, random_perturbation(r, 0.05, 4));
  EXPECT_LT(errors.gradient, 1e-6);
  EXPECT_LT(errors.hessian, 1e-6);
  expect_the_same_newton_solution(f, VecX::Zero(r), 1e-12, 1e-3, 1e-10);
}

// A motion prescribed by penalty on the beam's free end (its vertices stay free in the basis):
// the same evaluations and Newton solution as the positions path.
TEST_P(ReducedIncrementalPotentialTest, PenaltyDrivenEndEqualsThePositionsPath) {
  nlohmann::json scene = reduced_cantilever(GetParam());
  nlohmann::json tip = {{"method", "penalty"}, {"kappa", 1e4}};
  if (GetParam() == 2) {
    tip["box"] = {{0.99, -1.0}, {1.01, 1.0}};
    tip["velocity"] = {0.0, 0.5};
  } else {
    tip["box"] = {{0.49, -1.0, -1.0}, {0.51, 1.0, 1.0}};
    tip["velocity"] = {0.0, 0.5, 0.0};
  }
  scene["bodies"][0]["fixed"].push_back(tip);
  Fixture f(scene);
  EXPECT_EQ(reduced_evaluation_obstacle(f.model), "");
  const int r = f.model.subspace.num_coordinates();
  for (int seed : {1, 2}) expect_equal_evaluations(f, random_perturbation(r, 0.05, seed), "seed " + std::to_string(seed));
  expect_the_same_newton_solution(f, VecX::Zero(r), 1e-12, 1e-3, 1e-10);
}

TEST_P(ReducedIncrementalPotentialTest, NewtonReachesTheSameSolution) {
  Fixture f(GetParam());
  // The beam sags: a solve that moves.
  expect_the_same_newton_solution(f, VecX::Zero(f.model.subspace.num_coordinates()), 1e-12, 1e-3, 1e-10);
}

// Two clamped reduced beams side by side: each body's cubature elements meet its fixed vertices,
// which lie outside the body's range of compact DOFs when they come first (they have zero rows
// of B); every entry still lands in its own body's block.
TEST_P(ReducedIncrementalPotentialTest, TwoClampedBodiesEqualThePositionsPath) {
  nlohmann::json j = reduced_cantilever(GetParam());
  nlohmann::json second = j["bodies"][0];
  second["name"] = "beam2";
  const double offset = GetParam() == 2 ? 0.5 : 0.4;
  second["transform"] = {{"translate", GetParam() == 2 ? nlohmann::json{0.0, offset} : nlohmann::json{0.0, offset, 0.0}}};
  j["bodies"].push_back(second);
  Fixture f(j);
  const SubspaceMap& map = f.model.subspace;
  ASSERT_EQ(map.num_coordinates(), 16);
  for (int seed : {1, 2}) {
    expect_equal_evaluations(f, random_perturbation(map.num_coordinates(), 0.05, seed), "seed " + std::to_string(seed));
  }
}

INSTANTIATE_TEST_SUITE_P(Dimensions, ReducedIncrementalPotentialTest, testing::Values(2, 3),
                         [](const testing::TestParamInfo<int>& info) { return std::to_string(info.param) + "D"; });

// Terms in positions: 0 the reduced cantilever on an obstacle in 2D, 1 in 3D, 2 the stacked
// affine squares.
nlohmann::json contact_scene(int which) {
  return which == 2 ? stacked_affine_squares() : reduced_cantilever_on_obstacle(which + 2);
}

class ReducedIncrementalPotentialInContact : public testing::TestWithParam<int> {};

TEST_P(ReducedIncrementalPotentialInContact, EqualsThePositionsPathWithContactActive) {
  Fixture f(contact_scene(GetParam()));
  ASSERT_EQ(reduced_evaluation_obstacle(f.model), "");
  ASSERT_TRUE(f.reduced->has_positions_terms());
  // The contact terms are evaluated on their support only; the 3D beam (one cell thick) has
  // every vertex on its surface, the others have vertices inside.
  EXPECT_TRUE(f.reduced->works_on_support());
  if (GetParam() == 1)
    EXPECT_EQ(f.reduced->num_support_dofs(), f.model.num_dofs());
  else
    EXPECT_LT(f.reduced->num_support_dofs(), f.model.num_dofs());
  const SubspaceMap& map = f.model.subspace;
  // Contact is active at rest: the obstacle's barrier and friction push the bodies (the
  // gradient differs from the same model's without contact terms' share, which the positions
  // terms' count below shows).
  double gap = HUGE_VAL;
  for (const auto& term : f.model.energies()) gap = std::min(gap, term->min_contact_distance(f.model.rest_positions));
  ASSERT_LT(gap, 0.01);
  const double amplitude = GetParam() == 2 ? 1e-3 : 2e-3;
  for (int seed : {1, 2, 3}) {
    const VecX q = map.coordinates(f.model.rest_positions) + random_perturbation(map.num_coordinates(), amplitude, seed);
    const auto [E_b, H_b] = expect_equal_evaluations(f, q, "seed " + std::to_string(seed));
    ASSERT_TRUE(std::isfinite(E_b)) << "seed " << seed;
    if (GetParam() == 2) {
      EXPECT_GT(H_b.nonZeros(), f.reduced->hessian_pattern().nonZeros());  // pairs of bodies
    }
    EXPECT_NEAR(f.pulled_back->evaluate(q, nullptr, nullptr, false), f.reduced->evaluate(q, nullptr, nullptr, false),
                1e-12 * std::abs(E_b));
    // A step down into the ground (a clamped beam's modes reach it in part): CCD, a term in
    // positions, stops both at the same fraction.
    VecX fall = VecX::Zero(f.model.num_dofs());
    for (int v = 0; v < f.model.num_vertices(); ++v) fall[v * f.model.dim() + 1] = -5.0;
    const VecX down = map.to_coordinates(fall) + random_perturbation(map.num_coordinates(), 1e-3, seed + 10);
    const double alpha = f.reduced->max_step_fraction(q, down);
    EXPECT_LT(alpha, 1.0);
    EXPECT_NEAR(alpha, f.pulled_back->max_step_fraction(q, down), 1e-12);
  }
}

TEST_P(ReducedIncrementalPotentialInContact, DerivativesMatchFiniteDifferences) {
  Fixture f(contact_scene(GetParam()));
  const SubspaceMap& map = f.model.subspace;
  const VecX q = map.coordinates(f.model.rest_positions) + random_perturbation(map.num_coordinates(), 1e-3, 4);
  const test::DerivativeErrors errors = test::objective_derivative_errors(*f.reduced, q);
  EXPECT_LT(errors.gradient, 1e-6);
  EXPECT_LT(errors.hessian, 1e-6);
}

TEST_P(ReducedIncrementalPotentialInContact, NewtonReachesTheSameSolution) {
  Fixture f(contact_scene(GetParam()));
  expect_the_same_newton_solution(f, f.model.subspace.coordinates(f.model.rest_positions), 1e-10, 1e-5, 1e-9);
}

// Contact that appears during a solve, with the stiffness adapted: the balance reads every
// position (and the other terms' gradient), formed for it alone; the hooks of the iterations
// before and after it read the support only. The
// stacked affine squares 1.5 cm apart (beyond dhat), the upper one's predictor 3 cm down. Two
// fixtures, since the hooks change the run's data: the same iterations, solution and stiffness.
TEST(ReducedIncrementalPotentialInContact, ContactAppearingInASolveIsBalancedAsInThePositionsPath) {
  nlohmann::json scene = stacked_affine_squares();
  scene["contact"].erase("kappa");
  scene["bodies"][1]["transform"]["translate"] = {0.1, 0.815};
  Fixture a(scene), b(scene);
  ASSERT_TRUE(b.reduced->works_on_support());
  ASSERT_LT(b.reduced->num_support_dofs(), b.model.num_dofs());
  auto ipc_of = [](const Model& model) {
    const IpcContact* ipc = nullptr;
    for (const auto& term : model.energies())
      if (auto* c = dynamic_cast<const IpcContact*>(term.get())) ipc = c;
    return ipc;
  };
  const IpcContact *ipc_a = ipc_of(a.model), *ipc = ipc_of(b.model);
  ASSERT_NE(ipc, nullptr);
  const VecX x = a.model.rest_positions;
  VecX predictor = x;
  for (int v = 0; v < a.model.num_vertices(); ++v)
    if (x[v * 2 + 1] > 0.507) predictor[v * 2 + 1] -= 0.03;
  for (Fixture* f : {&a, &b}) f->positions.set_step(Stage::step(0.0, 0.01), predictor, 1.0, 1e-4, x, 0.01);
  const VecX q0 = a.model.subspace.coordinates(x);
  VecX q_a = q0, q_b = q0;
  const NewtonResult ra = solve_from(*a.pulled_back, q_a, 1e-10);
  const NewtonResult rb = solve_from(*b.reduced, q_b, 1e-10);
  ASSERT_TRUE(ra.converged) << ra.failure;
  ASSERT_TRUE(rb.converged) << rb.failure;
  EXPECT_EQ(ra.iterations, rb.iterations);
  EXPECT_LT((q_a - q_b).lpNorm<Eigen::Infinity>(), 1e-9 * q_a.lpNorm<Eigen::Infinity>());
  // Once to start the support's buffer, once for the balance.
  EXPECT_EQ(b.reduced->num_whole_positions_formed(), 2);
  EXPECT_LT(ipc->min_contact_distance(b.model.subspace.positions(q_b)), 0.01);  // in contact
  EXPECT_NEAR(ipc->stiffness(b.data), ipc_a->stiffness(a.data), 1e-9 * ipc_a->stiffness(a.data));
}

// No contact in the whole solve (the upper square's predictor 3 cm up), stiffness adaptive: the
// hooks look for contact on the support at every iteration and never form every position (once,
// to start the support's buffer), where they formed them at every iteration before the stiffness
// was first balanced.
TEST(ReducedIncrementalPotentialInContact, WithoutContactTheHooksReadTheSupportOnly) {
  nlohmann::json scene = stacked_affine_squares();
  scene["contact"].erase("kappa");
  scene["bodies"][1]["transform"]["translate"] = {0.1, 0.815};
  Fixture f(scene);
  ASSERT_TRUE(f.reduced->works_on_support());
  const VecX x = f.model.rest_positions;
  VecX predictor = x;
  for (int v = 0; v < f.model.num_vertices(); ++v)
    if (x[v * 2 + 1] > 0.507) predictor[v * 2 + 1] += 0.03;
  f.positions.set_step(Stage::step(0.0, 0.01), predictor, 1.0, 1e-4, x, 0.01);
  VecX q = f.model.subspace.coordinates(x);
  const NewtonResult r = solve_from(*f.reduced, q, 1e-10);
  ASSERT_TRUE(r.converged) << r.failure;
  EXPECT_GE(r.iterations, 2);
  EXPECT_EQ(f.reduced->num_whole_positions_formed(), 1);
}

INSTANTIATE_TEST_SUITE_P(Scenes, ReducedIncrementalPotentialInContact, testing::Values(0, 1, 2),
                         [](const testing::TestParamInfo<int>& info) {
                           return std::string(info.param == 0   ? "CantileverOnObstacle2D"
                                              : info.param == 1 ? "CantileverOnObstacle3D"
                                                                : "StackedAffineSquares");
                         });

// A motion prescribed by penalty (evaluated in positions, pulled back) on the upper of the stacked
// affine squares, which it drags sideways as a kinematic collider: the same evaluations and
// Newton solution as the positions path. Holding met targets would need DOFs eliminated, which
// coordinates cannot do: refused (the scene rules refuse it for bodies in a subspace anyway).
TEST(ReducedIncrementalPotentialInContact, PenaltyMotionEqualsThePositionsPath) {
  nlohmann::json scene = stacked_affine_squares();
  scene["bodies"][1]["fixed"] = nlohmann::json::array(
      {{{"box", {{-5.0, -5.0}, {5.0, 5.0}}}, {"method", "penalty"}, {"velocity", {0.5, -0.2}}, {"kappa", 1e4}}});
  Fixture f(scene);
  EXPECT_EQ(reduced_evaluation_obstacle(f.model), "");
  const int r = f.model.subspace.num_coordinates();
  const VecX q0 = f.model.subspace.coordinates(f.model.rest_positions);
  for (int seed : {1, 2}) expect_equal_evaluations(f, q0 + random_perturbation(r, 1e-3, seed), "seed " + std::to_string(seed));
  expect_the_same_newton_solution(f, q0, 1e-10, 1e-3, 1e-9);
  // The term itself, as a model would hold it with hold_when_met.
  PenaltyMotion holding(2, {0}, {1.0}, Vec2(0.0, -0.5), 0.3, 10.0, 1e-2, Vec2(0.0, 0.6), true);
  EXPECT_TRUE(holding.may_hold_dofs());
  PenaltyMotion free_motion(2, {0}, {1.0}, Vec2(0.0, -0.5), 0.3, 10.0, 1e-2, Vec2(0.0, 0.6));
  EXPECT_FALSE(free_motion.may_hold_dofs());
}

// The steppers take the reduced path by themselves where the model allows it, and only there.
TEST(ReducedIncrementalPotential, ChosenForCubatureModelsOnly) {
  const Model cubature = build_model(parse_scene(reduced_cantilever(2), "cantilever.json"));
  ModelData data(cubature);
  IncrementalPotential positions(cubature, data);
  EXPECT_NE(dynamic_cast<ReducedIncrementalPotential*>(make_subspace_objective(positions, cubature).get()), nullptr);

  auto refused = [](nlohmann::json j) { return reduced_evaluation_obstacle(build_model(parse_scene(j, "c.json"))); };
  nlohmann::json no_cubature = reduced_cantilever(2);
  no_cubature["bodies"][0]["reduction"].erase("cubature");
  EXPECT_EQ(refused(no_cubature), "an elasticity counts every element (no cubature)");
  nlohmann::json beta = reduced_cantilever(2);
  beta["damping"]["beta"] = 0.01;
  EXPECT_EQ(refused(beta), "");  // beta K_r by cubature
  beta.erase("contact");
  EXPECT_EQ(refused(beta), "stiffness-proportional damping (beta) with a term evaluated in positions ('ipc_contact')");
  nlohmann::json contact = reduced_cantilever(2);
  contact.erase("contact");  // self-contact, by default: evaluated in positions, pulled back
  EXPECT_EQ(refused(contact), "");
  nlohmann::json free_body = stacked_affine_squares();
  free_body["bodies"][0].erase("kind");  // an FEM square among affine ones
  EXPECT_EQ(refused(free_body), "an elasticity counts every element (no cubature)");
  // The affine squares' elasticities are counted by one element each.
  EXPECT_EQ(refused(stacked_affine_squares()), "");
  nlohmann::json full_body = reduced_cantilever(2);
  full_body["bodies"][0].erase("reduction");
  EXPECT_EQ(refused(full_body), "no body in a subspace");

  const Model other = build_model(parse_scene(no_cubature, "c.json"));
  ModelData other_data(other);
  IncrementalPotential other_positions(other, other_data);
  auto general = make_subspace_objective(other_positions, other);
  ASSERT_NE(general, nullptr);
  EXPECT_EQ(dynamic_cast<ReducedIncrementalPotential*>(general.get()), nullptr);
}

}  // namespace
}  // namespace softsim
