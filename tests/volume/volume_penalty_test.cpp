// The volume-penalty energy term on a hollow ball's cavity: gradient against finite differences
// of the energy, the matrix-free product against finite differences of the gradient (the full
// dense Hessian), the assembled sparse part, its PSD projection, and the step filter.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>

#include "softsim/mesh/round_generators.hpp"
#include "softsim/mesh/surface.hpp"
#include "softsim/mesh/surface_components.hpp"
#include "softsim/model/model.hpp"
#include "softsim/volume/volume_penalty.hpp"
#include "volume/all_volume_models.hpp"
#include "support/finite_difference.hpp"
#include "support/fem_models.hpp"

namespace softsim {
namespace {

using test::random_perturbation;

struct CavityModel {
  Model model{3};
  const VolumePenalty* term = nullptr;
};

// A coarse hollow ball (r = 0.3, R = 0.5) with a volume penalty on its cavity.
std::unique_ptr<CavityModel> cavity_model(VolumeModel m, double kappa_atm) {
  auto out = std::make_unique<CavityModel>();
  const Mesh ball = generate_hollow_sphere(0.3, 0.5, 2, 1);
  out->model.add_vertices(ball.vertices);
  for (int i = 0; i < ball.num_vertices(); ++i) out->model.add_lumped_mass(i, 1.0);
  Eigen::MatrixXi cavity;
  const VecX X = flatten_rows(ball.vertices);
  for (const auto& piece : surface_components(extract_surface(ball).faces))
    if (enclosed_volume(piece, X) < 0) cavity = piece;
  cavity.col(1).swap(cavity.col(2));
  VolumeLaw law;
  law.model = m;
  law.compressibility = kappa_atm / kAtmosphere;
  law.rest_volume = enclosed_volume(cavity, X);
  auto term = std::make_unique<VolumePenalty>(cavity, law, Vec3::Zero(), "cavity");
  out->term = term.get();
  out->model.add_energy(std::move(term));
  out->model.finalize();
  return out;
}

// The volume penalty keeps no data: evaluated with an empty context.
const Stage kNoStage;
const ModelData kNoData;
const EvalContext kCtx{kNoStage, kNoData};

double energy(const VolumePenalty& t, const VecX& x) { return t.evaluate(kCtx, x, AssemblyOutputs{}); }

VecX gradient(const VolumePenalty& t, const VecX& x) {
  VecX g = VecX::Zero(x.size());
  t.evaluate(kCtx, x, AssemblyOutputs{&g, nullptr, 1.0, false});
  return g;
}

TEST(VolumePenalty, GradientMatchesFiniteDifferences) {
  for (VolumeModel m : test::kAllVolumeModels) {
    SCOPED_TRACE(to_string(m));
    auto c = cavity_model(m, 0.5);
    // Compressed by 20% plus noise, so W' is far from 0.
    const VecX x = 0.93 * c->model.rest_positions + random_perturbation(c->model.num_dofs(), 0.01, 1);
    const VecX fd = test::fd_gradient([&](const VecX& y) { return energy(*c->term, y); }, x, 1e-7);
    EXPECT_LT(test::relative_error(gradient(*c->term, x), fd), 1e-6);
    EXPECT_GT(c->term->law().gauge_pressure(c->term->volume(x)), 0.0);  // compressed: pushes out
  }
}

TEST(VolumePenalty, MatrixFreeProductIsTheFullDenseHessian) {
  for (VolumeModel m : test::kAllVolumeModels) {
    SCOPED_TRACE(to_string(m));
    auto c = cavity_model(m, 0.5);
    const Model& model = c->model;
    const VecX x = 0.93 * model.rest_positions + random_perturbation(model.num_dofs(), 0.01, 2);
    const VecX p = random_perturbation(model.num_dofs(), 1.0, 3);
    VecX jvp = VecX::Zero(x.size());
    const auto op = c->term->hessian_operator(kCtx, x);
    ASSERT_TRUE(op);
    op->add_product(p, 0.7, jvp);
    // The directional derivative of the gradient, by central differences (relative to the
    // dense product's size).
    const double h = 1e-6;
    const VecX fd = (gradient(*c->term, x + h * p) - gradient(*c->term, x - h * p)) / (2 * h);
    EXPECT_LT(test::relative_error(jvp, VecX(0.7 * fd)), 1e-6);
    // The assembled (sparse) part is W' d2V: adding the rank-one W'' gV gV^T p gives the JVP.
    SparseMat H = model.layout().pattern();
    c->term->evaluate(kCtx, x, AssemblyOutputs{nullptr, &H, 0.7, false});
    const VecX gV = c->term->volume_gradient(x);
    const double V = c->term->volume(x);
    const VecX full = H * p + 0.7 * c->term->law().second_derivative(V) * gV.dot(p) * gV;
    EXPECT_LT(test::relative_error(full, jvp), 1e-12);
    // ... and the rank-one term matters: the sparse part alone is far from the JVP.
    EXPECT_GT(test::relative_error(VecX(H * p), jvp), 1e-2);
  }
}

TEST(VolumePenalty, ProjectedAssemblyIsPositiveSemiDefinite) {
  // Unprojected, W' d2V is indefinite; a PSD-projected assembly drops it (gradient only), and
  // the rank-one part that direct solves add is PSD.
  auto c = cavity_model(VolumeModel::IdealGas, 1.0);
  const Model& model = c->model;
  const VecX x = 0.9 * model.rest_positions + random_perturbation(model.num_dofs(), 0.01, 4);
  SparseMat H = model.layout().pattern();
  c->term->evaluate(kCtx, x, AssemblyOutputs{nullptr, &H, 1.0, false});
  const Eigen::VectorXd lambda = Eigen::SelfAdjointEigenSolver<MatX>(MatX(H)).eigenvalues();
  EXPECT_LT(lambda.minCoeff(), -1e-3 * lambda.cwiseAbs().maxCoeff());
  SparseMat P = model.layout().pattern();
  VecX g = VecX::Zero(x.size());
  c->term->evaluate(kCtx, x, AssemblyOutputs{&g, &P, 1.0, true});
  EXPECT_EQ(MatX(P).norm(), 0.0);
  EXPECT_LT(test::relative_error(g, gradient(*c->term, x)), 1e-15);
  std::vector<RankOneHessian> dense;
  c->term->rank_one_hessian(kCtx, x, 0.5, dense);
  ASSERT_EQ(dense.size(), 1u);
  EXPECT_NEAR(dense[0].coefficient, 0.5 * c->term->law().second_derivative(c->term->volume(x)), 1e-9);
  EXPECT_GT(dense[0].coefficient, 0.0);
  EXPECT_LT(test::relative_error(dense[0].u, c->term->volume_gradient(x)), 1e-15);
}

TEST(VolumePenalty, StepFilterKeepsLogarithmicLawsDefined) {
  for (VolumeModel m : test::kAllVolumeModels) {
    SCOPED_TRACE(to_string(m));
    auto c = cavity_model(m, 1.0);
    const VecX x = c->model.rest_positions;
    const VecX p = -1.5 * x;  // through the centre: V(x + a p) = (1 - 1.5 a)^3 V(x)
    const double alpha = c->term->max_step_fraction(kCtx, x, p);
    if (m == VolumeModel::Quadratic) {
      EXPECT_EQ(alpha, 1.0);
    } else {
      EXPECT_NEAR(alpha, (1.0 - std::cbrt(0.1)) / 1.5, 1e-9);
      EXPECT_TRUE(std::isinf(energy(*c->term, x + p)));
    }
  }
}

}  // namespace
}  // namespace softsim
