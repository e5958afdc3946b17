// Energy::vertex_support is a promise: a term that declares a support reads x and p there only
// and writes its gradient and Hessian there only (the reduced objective forms the positions on
// the support alone: integrate/reduced_incremental_potential.hpp). Checked on every term that
// declares one, in scenes where each is active: IPC between bodies and with the ground, lagged
// friction, an obstacle barrier whose plane moves (its pose vertex), penalty contact, and the
// orthogonality potential of an affine body. Moving every DOF off the support leaves the value,
// gradient, Hessian and step filter unchanged, and nothing is written off it.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "softsim/scene/scene.hpp"
#include "support/finite_difference.hpp"
#include "support/staged_potential.hpp"

namespace softsim {
namespace {

// Two 2D squares 5 mm apart, the lower one 5 mm above the ground, a ceiling driven down by
// penalty 5 mm above the upper one; IPC (dhat 1 cm) with friction everywhere.
nlohmann::json squares_between_planes() {
  return R"json({
    "dim": 2, "gravity": [0, -9.81],
    "contact": {"dhat": 0.01, "kappa": 1e4, "friction": {"mu": 0.3}},
    "obstacles": [
      {"name": "ground", "type": "plane", "point": [0, -0.505], "normal": [0, 1]},
      {"name": "ceiling", "type": "plane", "point": [0, 0.91], "normal": [0, -1],
       "velocity": [0, -0.5], "method": "penalty", "limit": 0.5, "kappa": 1e7, "mass": 4}],
    "bodies": [
      {"name": "lower", "generator": {"type": "rectangle", "size": [1, 1], "resolution": [4, 4]},
       "material": {"model": "neo_hookean", "E": 1e5, "nu": 0.3, "density": 1000}},
      {"name": "upper", "generator": {"type": "rectangle", "size": [0.4, 0.4], "resolution": [4, 4]},
       "transform": {"translate": [0.1, 0.705]},
       "material": {"model": "neo_hookean", "E": 1e5, "nu": 0.3, "density": 1000}}]
  })json"_json;
}

// Two 3D boxes 4 mm apart above a ground plane, IPC with friction: point-triangle and edge-edge
// pairs between the boxes.
nlohmann::json stacked_boxes() {
  return R"json({
    "dim": 3, "gravity": [0, -9.81, 0],
    "contact": {"dhat": 0.01, "kappa": 1e4, "friction": {"mu": 0.3}},
    "obstacles": [{"name": "ground", "type": "plane", "point": [0, -0.155, 0], "normal": [0, 1, 0]}],
    "bodies": [
      {"name": "lower", "generator": {"type": "box", "size": [0.3, 0.3, 0.3], "resolution": [3, 3, 3]},
       "material": {"E": 1e5, "nu": 0.3, "density": 1000}},
      {"name": "upper", "generator": {"type": "box", "size": [0.2, 0.2, 0.2], "resolution": [3, 3, 3]},
       "transform": {"translate": [0.03, 0.254, 0.02]}, "material": {"E": 1e5, "nu": 0.3, "density": 1000}}]
  })json"_json;
}

// Penalty contact (delta 1 cm) of a box 5 mm inside the ground, with friction.
nlohmann::json box_in_penalty_ground() {
  return R"json({
    "dim": 3, "gravity": [0, -9.81, 0],
    "contact": {"type": "penalty", "delta": 0.01, "friction": {"mu": 0.5}},
    "obstacles": [{"type": "plane", "point": [0, 0, 0], "normal": [0, 1, 0]}],
    "bodies": [{"name": "box", "generator": {"type": "box", "size": [0.2, 0.2, 0.2], "resolution": [3, 3, 3]},
                "transform": {"translate": [0, 0.095, 0]}, "material": {"E": 1e6, "nu": 0.3, "density": 1000}}]
  })json"_json;
}

// An affine square with an orthogonality potential above a deformable one.
nlohmann::json affine_on_deformable() {
  return R"json({
    "dim": 2, "gravity": [0, -9.81],
    "contact": {"dhat": 0.01, "kappa": 1e4},
    "bodies": [
      {"name": "lower", "generator": {"type": "rectangle", "size": [1, 1], "resolution": [4, 4]},
       "material": {"model": "neo_hookean", "E": 1e5, "nu": 0.3, "density": 1000}},
      {"name": "upper", "kind": "affine", "affine": {"stiffness": 1e5},
       "generator": {"type": "rectangle", "size": [0.6, 0.6], "resolution": [3, 3]},
       "transform": {"translate": [0.1, 0.806]},
       "material": {"model": "neo_hookean", "E": 2e4, "nu": 0.4, "density": 500}}]
  })json"_json;
}

struct Evaluated {
  double value = 0.0;
  VecX gradient;
  MatX hessian;  // the pattern's values and the contact entries, dense
};

Evaluated evaluate(const Energy& term, const test::StagedPotential& s, const VecX& x) {
  Evaluated e;
  e.gradient = VecX::Zero(x.size());
  SparseMat pattern = s.model.layout().pattern();
  std::fill(pattern.valuePtr(), pattern.valuePtr() + pattern.nonZeros(), 0.0);
  std::vector<Triplet> dynamic;
  const EvalContext ctx = s.positions.context();
  e.value = term.evaluate(ctx, x, AssemblyOutputs{&e.gradient, &pattern, 1.0, false, &dynamic});
  SparseMat extra(x.size(), x.size());
  extra.setFromTriplets(dynamic.begin(), dynamic.end());
  e.hessian = MatX(pattern) + MatX(extra);
  return e;
}

// Every term of `scene` that declares a support keeps its promise at x (rest, moved a little).
// Returns the names of the terms checked.
std::vector<std::string> expect_supports_kept(const nlohmann::json& scene) {
  test::StagedPotential s([scene] { return build_model(parse_scene(scene, "scene.json")); });
  const int n = s.model.num_dofs(), dim = s.model.dim();
  const VecX x = s.model.rest_positions + test::random_perturbation(n, 1e-4, 3);
  const VecX p = test::random_perturbation(n, 0.05, 4);
  std::vector<std::string> checked;
  for (const auto& term : s.model.energies()) {
    std::vector<int> support;
    if (!term->vertex_support(support)) continue;
    const std::string what = term->name();
    if (support.empty()) {
      ADD_FAILURE() << what << " declares an empty support";
      continue;
    }
    EXPECT_TRUE(std::is_sorted(support.begin(), support.end())) << what;
    EXPECT_EQ(std::adjacent_find(support.begin(), support.end()), support.end()) << what;
    EXPECT_GE(support.front(), 0) << what;
    EXPECT_LT(support.back(), s.model.num_vertices()) << what;
    EXPECT_LT(static_cast<int>(support.size()), s.model.num_vertices()) << what << ": the scene has vertices off it";
    std::vector<char> on(n, 0);
    for (int v : support)
      for (int a = 0; a < dim; ++a) on[v * dim + a] = 1;
    // x and p moved off the support.
    VecX x_off = x, p_off = p;
    const VecX noise = test::random_perturbation(n, 1e-3, 5);
    for (int d = 0; d < n; ++d)
      if (!on[d]) {
        x_off[d] += noise[d];
        p_off[d] += 100.0 * noise[d];
      }
    const Evaluated a = evaluate(*term, s, x), b = evaluate(*term, s, x_off);
    EXPECT_TRUE(std::isfinite(a.value)) << what;
    EXPECT_GT(a.gradient.norm(), 0.0) << what << " is not active in this scene";
    EXPECT_NEAR(a.value, b.value, 1e-14 * std::max(1.0, std::abs(a.value))) << what;
    EXPECT_LE((a.gradient - b.gradient).lpNorm<Eigen::Infinity>(), 1e-14 * a.gradient.lpNorm<Eigen::Infinity>()) << what;
    EXPECT_LE((a.hessian - b.hessian).lpNorm<Eigen::Infinity>(), 1e-14 * a.hessian.lpNorm<Eigen::Infinity>()) << what;
    int gradient_off = 0, hessian_off = 0;
    for (int i = 0; i < n; ++i) {
      if (!on[i] && a.gradient[i] != 0.0) ++gradient_off;
      for (int j = 0; j < n; ++j)
        if ((!on[i] || !on[j]) && a.hessian(i, j) != 0.0) ++hessian_off;
    }
    EXPECT_EQ(gradient_off, 0) << what << ": gradient entries written off the support";
    EXPECT_EQ(hessian_off, 0) << what << ": Hessian entries written off the support";
    const EvalContext ctx = s.positions.context();
    EXPECT_EQ(term->max_step_fraction(ctx, x, p), term->max_step_fraction(ctx, x_off, p_off)) << what;
    checked.push_back(what);
  }
  return checked;
}

TEST(EnergyVertexSupport, ContactBetweenBodiesWithTheGroundAndAMovingCeiling) {
  const std::vector<std::string> checked = expect_supports_kept(squares_between_planes());
  EXPECT_NE(std::find(checked.begin(), checked.end(), "ipc_contact"), checked.end());
  EXPECT_NE(std::find(checked.begin(), checked.end(), "lagged_friction"), checked.end());
  EXPECT_GE(std::count(checked.begin(), checked.end(), "obstacle_barrier"), 2);  // ground, ceiling
}

TEST(EnergyVertexSupport, ContactBetweenBoxesIn3D) {
  const std::vector<std::string> checked = expect_supports_kept(stacked_boxes());
  EXPECT_NE(std::find(checked.begin(), checked.end(), "ipc_contact"), checked.end());
  EXPECT_NE(std::find(checked.begin(), checked.end(), "lagged_friction"), checked.end());
}

TEST(EnergyVertexSupport, PenaltyContact) {
  const std::vector<std::string> checked = expect_supports_kept(box_in_penalty_ground());
  EXPECT_NE(std::find(checked.begin(), checked.end(), "penalty_contact"), checked.end());
}

TEST(EnergyVertexSupport, OrthogonalityPotentialOfAnAffineBody) {
  const std::vector<std::string> checked = expect_supports_kept(affine_on_deformable());
  EXPECT_NE(std::find(checked.begin(), checked.end(), "orthogonality"), checked.end());
}

}  // namespace
}  // namespace softsim
