// The incremental potential over subspace coordinates (integrate/subspace_objective.hpp), on a
// 2D scene with an elastic affine square near the ground, a free FEM square (identity
// coordinates) touching it, a reduced square (5 modes, x = x0 + U q) held at one vertex,
// Rayleigh damping and a prescribed vertex: the reduced gradient
// and Hessian against finite differences in y; the eliminations applied in positions before the
// pull-back; the step filter and Newton's step norm measured on B p.
#include <gtest/gtest.h>

#include <algorithm>

#include <Eigen/Dense>
#include <nlohmann/json.hpp>

#include "softsim/integrate/incremental_potential.hpp"
#include "softsim/integrate/rayleigh_damping.hpp"
#include "softsim/integrate/subspace_objective.hpp"
#include "softsim/scene/scene.hpp"
#include "support/finite_difference.hpp"
#include "support/objective_derivatives.hpp"
#include "support/staged_potential.hpp"

namespace softsim {
namespace {

using test::random_perturbation;
using test::relative_error;

Model two_squares(bool with_fixed_vertices = true) {
  nlohmann::json j = R"json({
    "dim": 2, "gravity": [0, -9.81],
    "bodies": [
      {"name": "affine", "kind": "affine", "affine": {"stiffness": 1e4},
       "generator": {"type": "rectangle", "size": [0.2, 0.2], "resolution": [2, 2]},
       "material": {"E": 1e4, "density": 1000}, "transform": {"translate": [0, 0.104]}},
      {"name": "fem", "generator": {"type": "rectangle", "size": [0.2, 0.2], "resolution": [2, 2]},
       "material": {"E": 1e4, "density": 1000}, "transform": {"translate": [0.203, 0.106]},
       "fixed": [{"ids": [0]}]},
      {"name": "reduced", "generator": {"type": "rectangle", "size": [0.2, 0.2], "resolution": [2, 2]},
       "material": {"E": 1e4, "density": 1000}, "transform": {"translate": [0.6, 0.3]},
       "fixed": [{"ids": [0]}], "reduction": {"basis": "modes", "size": 5}}
    ],
    "obstacles": [{"type": "plane", "point": [0, 0], "normal": [0, 1]}],
    "contact": {"dhat": 0.01, "kappa": 100.0},
    "damping": {"alpha": 0.5, "beta": 0.01}
  })json"_json;
  if (!with_fixed_vertices)
    for (auto& body : j["bodies"]) body.erase("fixed");
  return build_model(parse_scene(j, "subspace.json"));
}

struct SubspaceFixture : test::StagedPotential {
  std::unique_ptr<SubspaceObjective> objective;
  SubspaceFixture()
      : StagedPotential([] { return two_squares(); }), objective(std::make_unique<SubspaceObjective>(positions, model.subspace)) {}
};

TEST(SubspaceObjective, GradientAndHessianMatchFiniteDifferencesInTheCoordinates) {
  SubspaceFixture f;
  const SubspaceMap& map = f.model.subspace;
  ASSERT_EQ(map.num_coordinates(), 6 + 9 * 2 + 5);
  const VecX y = map.coordinates(f.model.rest_positions) + random_perturbation(map.num_coordinates(), 1e-3, 3);
  const test::DerivativeErrors errors = test::objective_derivative_errors(*f.objective, y);
  EXPECT_LT(errors.gradient, 1e-6);
  EXPECT_LT(errors.hessian, 1e-6);
  VecX g;
  SparseMat H = f.objective->hessian_pattern();
  f.objective->evaluate(y, &g, &H, false);
  // The Hessian operator agrees with the assembled Hessian.
  const auto product = f.objective->hessian_operator(y);
  ASSERT_TRUE(product);
  const VecX p = random_perturbation(y.size(), 1.0, 5);
  VecX Hp;
  product(p, Hp);
  EXPECT_LT(relative_error(Hp, VecX(H * p)), 1e-12);
}

TEST(SubspaceObjective, EliminatesInPositionsAndMeasuresStepsInPositions) {
  SubspaceFixture f;
  const SubspaceMap& map = f.model.subspace;
  const VecX y = map.coordinates(f.model.rest_positions);
  VecX g;
  SparseMat H = f.objective->hessian_pattern();
  f.objective->evaluate(y, &g, &H, true);
  VecX g_positions;
  SparseMat H_positions = f.positions.hessian_pattern();
  f.positions.evaluate(map.positions(y), &g_positions, &H_positions, true);
  f.positions.reduce(g_positions, &H_positions);
  f.objective->reduce(g, &H);
  EXPECT_LT(relative_error(g, map.pull_back(g_positions)), 1e-14);
  EXPECT_LT(relative_error(MatX(H), MatX(map.pull_back(H_positions))), 1e-14);
  // The FEM square's vertex 0 is fixed: its coordinates (identity) have a zero gradient and an
  // identity row, so a Newton step leaves them where they are.
  const int fixed = 6 + 0;  // the affine square's 6 coordinates come first
  EXPECT_EQ(g[fixed], 0.0);
  EXPECT_EQ(g[fixed + 1], 0.0);
  EXPECT_EQ(H.coeff(fixed, fixed), 1.0);
  VecX step = MatX(H).ldlt().solve(-g);
  f.objective->expand(step);
  EXPECT_LT(std::abs(step[fixed]), 1e-15);
  EXPECT_GT(step.norm(), 0.0);
  // Step norm: ||B p||_inf, not ||p||_inf.
  VecX p = VecX::Zero(y.size());
  p[4] = 1.0;  // a_1's... the second column of A, x component: moves vertices by their y offset
  EXPECT_NEAR(f.objective->step_norm(p, 0), map.to_positions(p).lpNorm<Eigen::Infinity>(), 1e-15);
  EXPECT_LT(f.objective->step_norm(p, 0), 0.5);
  // The step filter sees B p: a step that takes the affine square through the ground stops
  // before it.
  VecX down = VecX::Zero(y.size());
  down[1] = -1.0;  // t_y
  const double alpha = f.objective->max_step_fraction(y, down);
  EXPECT_GT(alpha, 0.0);
  EXPECT_LT(alpha, 0.004);
}

// With nothing eliminated the objectives say so, and the reduced Hessian is the one evaluate()
// pulled back, bitwise (no copy of the positions Hessian is made to find that out); with a fixed
// vertex they say the elimination changes the Hessian.
TEST(SubspaceObjective, WithNothingEliminatedTheReducedHessianIsTheEvaluatedOne) {
  test::StagedPotential free_squares([] { return two_squares(false); });
  SubspaceObjective objective(free_squares.positions, free_squares.model.subspace);
  EXPECT_FALSE(free_squares.positions.reduce_changes_hessian());
  EXPECT_FALSE(objective.reduce_changes_hessian());
  const SubspaceMap& map = free_squares.model.subspace;
  const VecX y = map.coordinates(free_squares.model.rest_positions) + random_perturbation(map.num_coordinates(), 1e-3, 9);
  VecX g;
  SparseMat H = objective.hessian_pattern();
  objective.evaluate(y, &g, &H, true);
  const SparseMat evaluated = H;
  const VecX evaluated_gradient = g;
  objective.reduce(g, &H);
  ASSERT_EQ(H.nonZeros(), evaluated.nonZeros());
  EXPECT_TRUE(std::equal(H.valuePtr(), H.valuePtr() + H.nonZeros(), evaluated.valuePtr()));
  EXPECT_TRUE(g == evaluated_gradient);

  SubspaceFixture fixed;
  EXPECT_TRUE(fixed.positions.reduce_changes_hessian());
  EXPECT_TRUE(fixed.objective->reduce_changes_hessian());
}

}  // namespace
}  // namespace softsim
