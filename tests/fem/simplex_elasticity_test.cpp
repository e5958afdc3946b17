// Element derivatives through the production assembly path: for every energy term (simplex
// elasticity with every material model in 2D and 3D, mass-spring, plane barrier) the assembled
// gradient is compared with central differences of the assembled energy, and the assembled
// Hessian with central differences of the assembled gradient, on small randomly deformed meshes.
// The PSD-projected Hessian must have no eigenvalue below -1e-8 of its largest magnitude.
//
// Step h = 1e-6 on meshes of unit size: truncation ~ h^2 |f'''| / |f'| ~ 1e-12 relative, round-off
// ~ eps |f| / (h |f'|) ~ 1e-10 relative; a tolerance of 1e-6 therefore catches any wrong term of
// relative size > 1e-6.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/Geometry>
#include <cstdio>
#include <random>

#include "support/fem_models.hpp"
#include "softsim/contact/barrier/obstacle_barrier.hpp"
#include "softsim/fem/mass_spring.hpp"
#include "softsim/fem/simplex_elasticity.hpp"
#include "softsim/core/psd_projection.hpp"
#include "softsim/material/material.hpp"
#include "softsim/mesh/generators.hpp"
#include "support/finite_difference.hpp"

namespace softsim::test {
namespace {

constexpr double kTolerance = 1e-6;
constexpr double kFdStep = 1e-6;

template <int D>
Mesh small_mesh() {
  if constexpr (D == 2) return generate_rectangle(Vec2(1.0, 1.0), Eigen::Vector2i(2, 2));
  else return generate_box(Vec3(1.0, 1.0, 1.0), Eigen::Vector3i(1, 1, 1));
}

template <int D>
MatD<D> test_rotation() {
  if constexpr (D == 2) return Eigen::Rotation2Dd(0.7).toRotationMatrix();
  else return Eigen::AngleAxisd(0.9, Vec3(1.0, 2.0, -0.5).normalized()).toRotationMatrix();
}

// x = R (S X + perturbation): a rotated, stretched and randomly perturbed state.
template <int D>
VecX deformed_state(const MatX& X, const MatD<D>& S, double amplitude, unsigned seed) {
  const MatD<D> R = test_rotation<D>();
  MatX x = (X * S.transpose());
  VecX flat = flatten_rows(x) + random_perturbation(X.size(), amplitude, seed);
  auto rows = as_rows(flat, D);
  for (Eigen::Index i = 0; i < rows.rows(); ++i) rows.row(i) = (R * rows.row(i).transpose()).transpose();
  return flat;
}

struct DerivativeErrors {
  double gradient = 0.0, hessian = 0.0, asymmetry = 0.0;
};

DerivativeErrors check_term(const EvalContext& ctx, const Energy& term, const Model& model, const VecX& x) {
  DerivativeErrors err;
  const VecX g = term_gradient(ctx, term, x);
  const VecX g_fd = fd_gradient([&](const VecX& y) { return term_energy(ctx, term, y); }, x, kFdStep);
  err.gradient = relative_error(g, g_fd);
  const MatX H = term_hessian(ctx, term, model, x);
  const MatX H_fd = fd_jacobian([&](const VecX& y) { return term_gradient(ctx, term, y); }, x, kFdStep);
  err.hessian = relative_error(H, H_fd);
  err.asymmetry = (H - H.transpose()).norm() / std::max(H.norm(), 1e-300);
  EXPECT_LT(err.gradient, kTolerance) << "gradient vs FD";
  EXPECT_LT(err.hessian, kTolerance) << "Hessian vs FD of the gradient";
  EXPECT_LT(err.asymmetry, 1e-12);
  // weight and accumulation: evaluate(weight w) returns w E and adds w g to what is there.
  const double w = 2.5;
  const VecX g0 = random_perturbation(x.size(), 1.0, 99u);
  VecX acc = g0;
  AssemblyOutputs out;
  out.gradient = &acc;
  out.weight = w;
  const double wE = term.evaluate(ctx, x, out);
  EXPECT_NEAR(wE, w * term_energy(ctx, term, x), 1e-13 * std::abs(wE) + 1e-300);
  EXPECT_LT(relative_error(VecX(acc - g0), VecX(w * g)), 1e-12);
  return err;
}

// Smallest eigenvalue of the projected Hessian relative to the largest magnitude.
double projected_min_eigen_ratio(const EvalContext& ctx, const Energy& term, const Model& model, const VecX& x,
                                 double* unprojected) {
  const MatX Hp = term_hessian(ctx, term, model, x, true);
  const MatX H = term_hessian(ctx, term, model, x, false);
  Eigen::SelfAdjointEigenSolver<MatX> eig_p(0.5 * (Hp + Hp.transpose()), Eigen::EigenvaluesOnly);
  Eigen::SelfAdjointEigenSolver<MatX> eig(0.5 * (H + H.transpose()), Eigen::EigenvaluesOnly);
  // Scale: the unprojected Hessian's largest magnitude (the projected one may be all zero).
  const double scale = std::max(eig.eigenvalues().cwiseAbs().maxCoeff(), 1e-300);
  *unprojected = eig.eigenvalues().minCoeff() / scale;
  return eig_p.eigenvalues().minCoeff() / scale;
}

template <int D>
void check_elasticity(const std::string& model_name) {
  SCOPED_TRACE(model_name + " D=" + std::to_string(D));
  const Mesh mesh = small_mesh<D>();
  const LameParameters lame = LameParameters::from_young_poisson(1e5, 0.3);
  std::shared_ptr<const Material<D>> material = make_material<D>(model_name, lame);
  auto built = make_one_term_model(
      mesh.vertices, std::make_unique<SimplexElasticity<D>>(mesh.cells, mesh.vertices, material, "test mesh"));
  const EvalContext ctx = built.ctx();
  const auto& term = *built.term;
  const Model& model = *built.model;

  // Start of step at a rotated, stretched state (freezes the corotated frame); derivatives at a
  // further perturbation of it.
  MatD<D> S = MatD<D>::Identity();
  S(0, 0) = 1.15;
  S(1, 1) = 0.9;
  const VecX x_start = deformed_state<D>(mesh.vertices, S, 0.05, 7u + D);
  built.begin_step(x_start);
  const VecX x = x_start + random_perturbation(x_start.size(), 0.03, 11u + D);
  for (int e = 0; e < mesh.num_cells(); ++e) ASSERT_GT(term.deformation_gradient(x, e).determinant(), 0.2);
  const DerivativeErrors err = check_term(ctx, term, model, x);

  // Strong compression: indefinite element Hessians for most models; projection removes them.
  MatD<D> C = MatD<D>::Identity();
  C(0, 0) = 0.55;
  C(1, 1) = 1.3;
  const VecX xc = deformed_state<D>(mesh.vertices, C, 0.04, 21u + D);
  for (int e = 0; e < mesh.num_cells(); ++e) ASSERT_GT(term.deformation_gradient(xc, e).determinant(), 0.1);
  if (material->uses_frozen_rotation()) built.begin_step(xc);
  check_term(ctx, term, model, xc);
  double unprojected = 0.0;
  const double ratio = projected_min_eigen_ratio(ctx, term, model, xc, &unprojected);
  EXPECT_GE(ratio, -1e-8) << "projected Hessian is not PSD";
  std::printf("[ elastic ] %-18s D=%d grad err %.2e hess err %.2e | min eig/scale: projected %.2e unprojected %.2e\n",
              model_name.c_str(), D, err.gradient, err.hessian, ratio, unprojected);
}

TEST(ElementDerivatives, SimplexElasticity2DEveryMaterial) {
  for (const std::string& name : material_model_names()) check_elasticity<2>(name);
}

TEST(ElementDerivatives, SimplexElasticity3DEveryMaterial) {
  for (const std::string& name : material_model_names()) check_elasticity<3>(name);
}

TEST(ElementDerivatives, CorotatedLinearIsCoveredAndFrozenRotationMatters) {
  // The list must include corotated_linear (tested above after begin_step at a rotated state).
  const auto& names = material_model_names();
  ASSERT_NE(std::find(names.begin(), names.end(), "corotated_linear"), names.end());
  // After begin_step at a rigidly rotated rest shape, corotated linear has zero energy and
  // gradient there (the frozen frame undoes the rotation); plain linear does not.
  const Mesh mesh = small_mesh<3>();
  const LameParameters lame = LameParameters::from_young_poisson(1e5, 0.3);
  auto built = make_one_term_model(mesh.vertices, std::make_unique<SimplexElasticity<3>>(
                                                      mesh.cells, mesh.vertices,
                                                      std::shared_ptr<const Material<3>>(make_material<3>("corotated_linear", lame)),
                                                      "test mesh"));
  const EvalContext ctx = built.ctx();
  const VecX x = deformed_state<3>(mesh.vertices, Mat3::Identity(), 0.0, 1u);
  built.begin_step(x);
  EXPECT_LT(std::abs(term_energy(ctx, *built.term, x)), 1e-9 * lame.mu);
  EXPECT_LT(term_gradient(ctx, *built.term, x).norm(), 1e-9 * lame.mu);
}

template <int D>
void check_springs() {
  SCOPED_TRACE("mass_spring D=" + std::to_string(D));
  const Mesh mesh = D == 2 ? generate_spring_grid(Vec2(1.0, 1.0), Eigen::Vector2i(2, 2))
                           : generate_spring_box(Vec3(1.0, 1.0, 1.0), Eigen::Vector3i(1, 1, 1));
  auto built = make_one_term_model(mesh.vertices, std::make_unique<MassSpring<D>>(mesh.cells, mesh.vertices, 1e3));
  const EvalContext ctx = built.ctx();
  MatD<D> S = MatD<D>::Identity();
  S(0, 0) = 1.2;
  const VecX x = deformed_state<D>(mesh.vertices, S, 0.06, 5u + D);
  const DerivativeErrors err = check_term(ctx, *built.term, *built.model, x);
  MatD<D> C = 0.6 * MatD<D>::Identity();  // compressed springs: indefinite unprojected
  const VecX xc = deformed_state<D>(mesh.vertices, C, 0.04, 8u + D);
  check_term(ctx, *built.term, *built.model, xc);
  double unprojected = 0.0;
  const double ratio = projected_min_eigen_ratio(ctx, *built.term, *built.model, xc, &unprojected);
  EXPECT_GE(ratio, -1e-8);
  EXPECT_LT(unprojected, -1e-3) << "the compressed test state should be indefinite before projection";
  std::printf("[ springs ] D=%d grad err %.2e hess err %.2e | min eig/scale: projected %.2e unprojected %.2e\n", D,
              err.gradient, err.hessian, ratio, unprojected);
}

// Cubature weights (SimplexElasticity::set_element_weights): the energy is sum_e w_e E_e, its
// derivatives match finite differences, element_gradient is element e's own gradient, and a step
// that inverts only a weight-0 element passes the inversion filter.
template <int D>
void check_weighted_elasticity() {
  SCOPED_TRACE("weighted D=" + std::to_string(D));
  const Mesh mesh = small_mesh<D>();
  const LameParameters lame = LameParameters::from_young_poisson(1e5, 0.3);
  auto built = make_one_term_model(mesh.vertices, std::make_unique<SimplexElasticity<D>>(
                                                      mesh.cells, mesh.vertices, make_material<D>("neo_hookean", lame), "w"));
  const EvalContext ctx = built.ctx();
  SimplexElasticity<D>& term = *built.term;
  const int m = mesh.num_cells();
  MatD<D> S = MatD<D>::Identity();
  S(0, 0) = 1.1;
  const VecX x = deformed_state<D>(mesh.vertices, S, 0.03, 5u + D);
  std::vector<double> element_energy(m);
  for (int e = 0; e < m; ++e) {
    std::vector<double> one_hot(m, 0.0);
    one_hot[e] = 1.0;
    term.set_element_weights(one_hot);
    element_energy[e] = term_energy(ctx, term, x);
    // element_gradient is the one-hot term's gradient at the element's vertices.
    const VecX g = term_gradient(ctx, term, x);
    const auto ge = term.element_gradient(x, e);
    for (int a = 0; a <= D; ++a)
      EXPECT_LT((g.template segment<D>(mesh.cells(e, a) * D) - ge.template segment<D>(a * D)).norm(),
                1e-12 * (1.0 + ge.norm()));
  }
  std::vector<double> weights(m);
  double expected = 0.0;
  for (int e = 0; e < m; ++e) {
    weights[e] = e % 3 == 0 ? 0.0 : 0.5 + e;
    expected += weights[e] * element_energy[e];
  }
  term.set_element_weights(weights);
  EXPECT_NEAR(term_energy(ctx, term, x), expected, 1e-12 * std::abs(expected));
  check_term(ctx, term, *built.model, x);
  // A step that moves vertex v far past a neighbour: with every weight 1 the filter stops it;
  // with every element that holds v at weight 0 (and some other element weighted) it passes.
  VecX p = VecX::Zero(x.size());
  const int v = mesh.cells(0, 0);
  p.template segment<D>(v * D) = 10.0 * (x.template segment<D>(mesh.cells(0, 1) * D) - x.template segment<D>(v * D));
  std::vector<double> away_from_v(m, 1.0);
  int zeroed = 0;
  for (int e = 0; e < m; ++e)
    for (int a = 0; a <= D; ++a)
      if (mesh.cells(e, a) == v) {
        away_from_v[e] = 0.0;
        ++zeroed;
        break;
      }
  ASSERT_LT(zeroed, m);
  term.set_element_weights(away_from_v);
  EXPECT_EQ(term.max_step_fraction(ctx, x, p), 1.0);
  term.set_element_weights({});
  EXPECT_LT(term.max_step_fraction(ctx, x, p), 1.0);
  EXPECT_THROW(term.set_element_weights(std::vector<double>(m + 1, 1.0)), std::invalid_argument);
}

TEST(ElementDerivatives, WeightedSimplexElasticity2D) { check_weighted_elasticity<2>(); }
TEST(ElementDerivatives, WeightedSimplexElasticity3D) { check_weighted_elasticity<3>(); }

// The closed-form projection of a spring's Hessian block equals the eigen-decomposition's
// (project_psd) to round-off, stretched, compressed and collapsed.
template <int D>
void check_spring_projection() {
  std::mt19937 rng(41u + D);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    VecD<D> d;
    for (int k = 0; k < D; ++k) d[k] = u(rng);
    const double l2 = d.squaredNorm() * (trial % 3 == 0 ? 0.5 : (trial % 3 == 1 ? 1.5 : 4.0));
    MatD<D> reference = spring_hessian_block<D>(d, l2, 1e3, false);
    project_psd(reference);
    const MatD<D> closed = spring_hessian_block<D>(d, l2, 1e3, true);
    EXPECT_LE((closed - reference).norm(), 1e-12 * reference.norm() + 1e-12) << "trial " << trial;
  }
  EXPECT_EQ(spring_hessian_block<D>(VecD<D>::Zero(), 1.0, 1e3, true), MatD<D>::Zero());
}

TEST(ElementDerivatives, MassSpringClosedFormProjection2D) { check_spring_projection<2>(); }
TEST(ElementDerivatives, MassSpringClosedFormProjection3D) { check_spring_projection<3>(); }
TEST(ElementDerivatives, MassSpring2D) { check_springs<2>(); }
TEST(ElementDerivatives, MassSpring3D) { check_springs<3>(); }

template <int D>
void check_barrier() {
  SCOPED_TRACE("obstacle_barrier D=" + std::to_string(D));
  const Mesh mesh = small_mesh<D>();
  const int n = mesh.num_vertices();
  VecX point = VecX::Zero(D), normal = VecX::Zero(D);
  point[1] = -0.9;
  normal[0] = 0.2;
  normal[1] = 1.0;
  if (D == 3) normal[2] = -0.3;
  std::vector<double> weights(n);
  for (int i = 0; i < n; ++i) weights[i] = 0.05 * (1 + i % 3);
  const double dhat = 0.5, kappa = 1e4;
  auto built = make_one_term_model(mesh.vertices, std::make_unique<ObstacleBarrier>(
      D, AnalyticObstacle{AnalyticObstacle::Shape::Plane, point, normal.normalized(), 0.0, {}}, weights, dhat, kappa));
  const EvalContext ctx = built.ctx();
  const VecX x = flatten_rows(mesh.vertices) + random_perturbation(n * D, 0.05, 3u + D);
  // Several vertices inside the barrier's range, none at its kink (d = dhat) or behind the plane.
  int active = 0;
  const VecX nn = normal.normalized();
  for (int i = 0; i < n; ++i) {
    const double d = nn.dot(x.segment(i * D, D) - point);
    ASSERT_GT(d, 0.0);
    ASSERT_GT(std::abs(d - dhat), 1e-4);
    active += d < dhat;
  }
  ASSERT_GE(active, 2);
  const DerivativeErrors err = check_term(ctx, *built.term, *built.model, x);
  double unprojected = 0.0;
  EXPECT_GE(projected_min_eigen_ratio(ctx, *built.term, *built.model, x, &unprojected), -1e-8);
  std::printf("[ barrier ] D=%d active %d grad err %.2e hess err %.2e\n", D, active, err.gradient, err.hessian);
}

TEST(ElementDerivatives, PlaneBarrier2D) { check_barrier<2>(); }
TEST(ElementDerivatives, PlaneBarrier3D) { check_barrier<3>(); }

}  // namespace
}  // namespace softsim::test
