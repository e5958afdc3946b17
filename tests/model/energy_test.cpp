// The contract every Energy honours, checked on every term of small scenes that hold every kind
// softsim builds (tests/support/small_scenes.hpp): after the step hooks have frozen their data at
// the start state, at a perturbed point,
//  - the gradient equals central finite differences of the value;
//  - the unprojected Hessian (the fixed-pattern part, the dynamic triplets and the dense rank-one
//    parts) equals central finite differences of the gradient, and is symmetric;
//  - the projected Hessian is positive semi-definite, as every term claims
//    (Energy::hessian_psd_when_projected);
//  - the value and derivatives scale with the weight and accumulate into the outputs;
//  - the term's Hessian operator, where it has one, applies the unprojected Hessian.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>

#include <set>

#include "softsim/model/model.hpp"
#include "softsim/scene/scene.hpp"
#include "support/finite_difference.hpp"
#include "support/small_scenes.hpp"

namespace softsim {
namespace {

using test::relative_error;

constexpr double kStep = 0.01;

// A small scene's model with its step hooks run at the rest state, and a perturbed point to
// evaluate at. The stage is a backward Euler stage, so lagged friction measures displacements
// from the rest state at eps_v h.
struct EvaluationPoint {
  explicit EvaluationPoint(const test::SmallScene& s)
      : model(build_model(parse_scene(s.json, s.name + ".json"))), data(model), stage(Stage::step(0.0, kStep)) {
    const VecX& x0 = model.rest_positions;
    model.begin_step(stage, data, x0);
    stage.velocity_reference = x0;
    stage.velocity_scale = 1.0 / kStep;
    x = x0 + test::random_perturbation(x0.size(), s.perturbation, 7);
  }
  EvalContext context() const { return EvalContext{stage, data}; }

  Model model;
  ModelData data;
  Stage stage;
  VecX x;
};

// The term's Hessian at x as a dense matrix: the pattern part, the dynamic triplets and the
// rank-one parts.
MatX dense_hessian(const Model& model, const Energy& term, const EvalContext& ctx, const VecX& x, bool project) {
  SparseMat H = model.layout().pattern();
  std::fill(H.valuePtr(), H.valuePtr() + H.nonZeros(), 0.0);
  std::vector<Triplet> dynamic;
  term.evaluate(ctx, x, AssemblyOutputs{nullptr, &H, 1.0, project, &dynamic});
  SparseMat D(H.rows(), H.cols());
  D.setFromTriplets(dynamic.begin(), dynamic.end());
  MatX dense = MatX(H) + MatX(D);
  std::vector<RankOneHessian> rank_one;
  term.rank_one_hessian(ctx, x, 1.0, rank_one);
  for (const RankOneHessian& r : rank_one) dense += r.coefficient * r.u * r.u.transpose();
  return dense;
}

VecX gradient(const Energy& term, const EvalContext& ctx, const VecX& x) {
  VecX g = VecX::Zero(x.size());
  term.evaluate(ctx, x, AssemblyOutputs{&g, nullptr, 1.0, false});
  return g;
}

class EnergyContract : public ::testing::TestWithParam<test::SmallScene> {};

TEST_P(EnergyContract, EveryTermsDerivativesMatchFiniteDifferences) {
  const test::SmallScene& s = GetParam();
  const EvaluationPoint point(s);
  const Model& model = point.model;
  const EvalContext ctx = point.context();
  const VecX& x = point.x;
  for (const auto& term : model.energies()) {
    const Energy& e = *term;
    SCOPED_TRACE(s.name + ": " + e.name());
    const double E = e.evaluate(ctx, x, AssemblyOutputs{});
    ASSERT_TRUE(std::isfinite(E));
    const VecX g = gradient(e, ctx, x);
    const double h = 1e-3 * s.perturbation;
    const VecX g_fd = test::fd_gradient([&](const VecX& y) { return e.evaluate(ctx, y, AssemblyOutputs{}); }, x, h);
    const MatX H = dense_hessian(model, e, ctx, x, false);
    const MatX H_fd = test::fd_jacobian([&](const VecX& y) { return gradient(e, ctx, y); }, x, h);
    const double scale_g = std::max(g.norm(), 1e-12), scale_h = std::max(H.norm(), 1e-12);
    const double eg = (g - g_fd).norm() / scale_g, eh = (H - H_fd).norm() / scale_h;
    std::printf("[ energy ] %-14s %-44s E %+.3e |g| %.2e grad err %.1e hess err %.1e\n", s.name.c_str(),
                e.name().c_str(), E, g.norm(), eg, eh);
    EXPECT_LT(eg, 1e-5);
    EXPECT_LT(eh, 1e-5);
    EXPECT_LT((H - H.transpose()).norm(), 1e-10 * scale_h);

    // Every term claims a PSD projected Hessian (Newton bounds its step by it: objective.hpp,
    // hessian_lower_bound), and this is where the claim is checked.
    EXPECT_TRUE(e.hessian_psd_when_projected());
    const MatX P = dense_hessian(model, e, ctx, x, true);
    const Eigen::VectorXd lambda = Eigen::SelfAdjointEigenSolver<MatX>(0.5 * (P + P.transpose())).eigenvalues();
    EXPECT_GE(lambda.minCoeff(), -1e-8 * std::max(lambda.cwiseAbs().maxCoeff(), 1e-12)) << "projected Hessian";

    // Weight and accumulation: evaluate(weight w) returns w E and adds w g to what is there.
    const double w = 2.5;
    const VecX g0 = test::random_perturbation(x.size(), 1.0, 11);
    VecX acc = g0;
    EXPECT_NEAR(e.evaluate(ctx, x, AssemblyOutputs{&acc, nullptr, w, false}), w * E, 1e-12 * std::abs(w * E) + 1e-300);
    EXPECT_LT(relative_error(VecX(acc - g0), VecX(w * g), 1e-12), 1e-10);

    if (const auto op = e.hessian_operator(ctx, x)) {
      const VecX p = test::random_perturbation(x.size(), 1.0, 13);
      VecX hp = VecX::Zero(x.size());
      op->add_product(p, 1.0, hp);
      EXPECT_LT(relative_error(hp, VecX(H * p), 1e-12), 1e-10) << "Hessian operator";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(SmallScenes, EnergyContract, ::testing::ValuesIn(test::small_scenes()),
                         [](const auto& info) { return info.param.name; });

// The scenes above must hold every kind of energy term, each active (a non-zero gradient) at its
// evaluation point: a term that was inactive everywhere would pass any derivative check.
TEST(EnergyContractCoverage, EveryKindOfTermIsActiveInSomeScene) {
  std::set<std::string> active;
  for (const test::SmallScene& s : test::small_scenes()) {
    const EvaluationPoint point(s);
    for (const auto& term : point.model.energies())
      if (gradient(*term, point.context(), point.x).norm() > 0.0)
        active.insert(term->name().substr(0, term->name().find('(')));
  }
  for (const std::string kind : {"elasticity", "mass_spring", "shell_membrane", "hinge_bending", "ipc_contact",
                                 "obstacle_barrier", "penalty_contact", "lagged_friction", "volume_penalty",
                                 "penalty_motion", "isometric_bending", "timed_load", "orthogonality"})
    EXPECT_TRUE(active.count(kind)) << kind << " is active in none of the small scenes";
}

}  // namespace
}  // namespace softsim
