// The modal subspace: eigenpairs of K x = lambda M x over the free DOFs (residual, M-orthonormality,
// agreement of the Lanczos and dense paths), rigid modes of a free body, and the cantilever's
// bending frequencies against Euler-Bernoulli under refinement.
#include "softsim/solve/modal_subspace.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>

#include "integrate/exponential/beam.hpp"
#include "softsim/integrate/exponential/second_order_system.hpp"

namespace softsim::test {
namespace {

SparseMat stiffness_at_rest(const Model& model) {
  const SecondOrderSystem system(model);
  const ModelData data(model);
  const Stage stage;
  return system.stiffness(EvalContext{stage, data}, model.rest_positions);
}

double max_relative_residual(const SparseMat& K, const SparseMat& M, const ModalSubspace& modes,
                             const std::vector<char>& fixed) {
  double worst = 0.0;
  for (int j = 0; j < modes.count(); ++j) {
    VecX r = K * modes.modes.col(j) - modes.eigenvalues[j] * (M * modes.modes.col(j));
    for (Eigen::Index i = 0; i < r.size(); ++i)
      if (!fixed.empty() && fixed[i]) r[i] = 0.0;  // reaction forces at the clamp
    // Relative to the largest eigenvalue's scale: K x ~ 0 for a rigid mode.
    const double scale = std::max((K * modes.modes.col(j)).norm(),
                                  std::abs(modes.eigenvalues.maxCoeff()) * (M * modes.modes.col(j)).norm());
    worst = std::max(worst, r.norm() / std::max(scale, 1e-300));
  }
  return worst;
}

TEST(ModalSubspace, LanczosAndDenseAgreeAndSatisfyTheEigenproblem) {
  BeamSpec spec;
  spec.cells = Eigen::Vector3i(12, 3, 3);  // 208 vertices, 576 free DOFs
  auto model = make_beam(spec);
  const SparseMat K = stiffness_at_rest(*model);
  const auto& fixed = model->boundary.fixed_dofs();
  ModalOptions lanczos;
  lanczos.count = 8;
  lanczos.dense_below = 0;
  ModalOptions dense = lanczos;
  dense.dense_below = 100000;
  const ModalSubspace a = lowest_modes(K, model->mass_matrix(), fixed, lanczos);
  const ModalSubspace b = lowest_modes(K, model->mass_matrix(), fixed, dense);
  ASSERT_EQ(a.count(), 8);
  ASSERT_EQ(b.count(), 8);
  for (int j = 0; j < 8; ++j) EXPECT_NEAR(a.eigenvalues[j], b.eigenvalues[j], 1e-9 * b.eigenvalues[j]) << j;
  EXPECT_LT(max_relative_residual(K, model->mass_matrix(), a, fixed), 1e-8);
  EXPECT_LT(max_relative_residual(K, model->mass_matrix(), b, fixed), 1e-8);
  for (const ModalSubspace* m : {&a, &b}) {
    const MatX gram = m->modes.transpose() * (model->mass_matrix() * m->modes);
    EXPECT_LT((gram - MatX::Identity(8, 8)).lpNorm<Eigen::Infinity>(), 1e-12);
    for (std::size_t i = 0; i < fixed.size(); ++i)
      if (fixed[i]) EXPECT_EQ(m->modes.row(static_cast<Eigen::Index>(i)).norm(), 0.0);
    for (int j = 1; j < 8; ++j) EXPECT_LE(m->eigenvalues[j - 1], m->eigenvalues[j]);
  }
}

// An unconstrained body has six zero-frequency modes (3 translations, 3 rotations) below its
// first elastic mode; the shifted factorization handles the singular K.
TEST(ModalSubspace, FreeBodyHasSixRigidModes) {
  BeamSpec spec;
  spec.cells = Eigen::Vector3i(12, 3, 3);
  spec.clamp = Clamp::none;
  auto model = make_beam(spec);
  const SparseMat K = stiffness_at_rest(*model);
  ModalOptions options;
  options.count = 8;
  options.dense_below = 0;
  const ModalSubspace m = lowest_modes(K, model->mass_matrix(), {}, options);
  ASSERT_EQ(m.count(), 8);
  for (int j = 0; j < 6; ++j) EXPECT_LT(std::abs(m.eigenvalues[j]), 1e-6 * m.eigenvalues[6]) << j;
  EXPECT_GT(m.eigenvalues[6], 1.0);
  EXPECT_LT(max_relative_residual(K, model->mass_matrix(), m, {}), 1e-8);
}

// Cantilever 10 x 1 x 1 m, nu = 0 (the Euler-Bernoulli limit, as in the static cantilever test):
// omega_k = beta_k^2 sqrt(E I / (rho A L^4)), beta_1 L = 1.8751, beta_2 L = 4.6941. The square
// section makes each bending frequency a pair (modes 0-1 and 2-3; the 5-tet split of a cube is
// not symmetric in y and z, so the pair splits by 0.3% on the coarsest mesh). Linear tets lock in bending,
// so the coarse meshes are too stiff; the error must shrink with refinement.
// A repeated eigenvalue defeats a single Krylov space: with a diagonal K the start vector's
// component in the eigenspace of 1 keeps its direction under every product, so one Lanczos run
// finds one mode of the four (whatever the BLAS kernels). The runs in the complement of the kept
// modes find the other three before the eigenvalues 2 and 3.
TEST(ModalSubspace, RepeatedEigenvaluesAreFoundWithTheirMultiplicity) {
  const int n = 200;
  std::vector<Eigen::Triplet<double>> k, m;
  for (int i = 0; i < n; ++i) {
    k.emplace_back(i, i, i < 4 ? 1.0 : double(i - 2));  // 1, 1, 1, 1, 2, 3, ...
    m.emplace_back(i, i, 1.0);
  }
  SparseMat K(n, n), M(n, n);
  K.setFromTriplets(k.begin(), k.end());
  M.setFromTriplets(m.begin(), m.end());
  ModalOptions options;
  options.count = 6;
  options.dense_below = 0;
  const ModalSubspace modes = lowest_modes(K, M, {}, options);
  ASSERT_EQ(modes.count(), 6);
  const double expected[] = {1, 1, 1, 1, 2, 3};
  for (int j = 0; j < 6; ++j) EXPECT_NEAR(modes.eigenvalues[j], expected[j], 1e-9) << j;
  // The four modes of 1 span its eigenspace (the first four coordinates).
  EXPECT_NEAR(modes.modes.topLeftCorner(4, 4).colwise().squaredNorm().sum(), 4.0, 1e-9);
}

TEST(ModalSubspace, CantileverFrequenciesConvergeToEulerBernoulli) {
  const double L = 10.0, E = 1e7, rho = 1000.0;
  const double scale = std::sqrt(E * (1.0 / 12.0) / (rho * std::pow(L, 4)));
  const double omega1 = 1.87510407 * 1.87510407 * scale, omega2 = 4.69409113 * 4.69409113 * scale;
  double previous1 = HUGE_VAL, previous2 = HUGE_VAL;
  for (int r : {1, 2, 4}) {
    BeamSpec spec;
    spec.size = Vec3(L, 1.0, 1.0);
    spec.cells = Eigen::Vector3i(10 * r, r, r);
    spec.youngs = E;
    spec.poisson = 0.0;
    spec.density = rho;
    auto model = make_beam(spec);
    const SparseMat K = stiffness_at_rest(*model);
    ModalOptions options;
    options.count = 4;
    const ModalSubspace m = lowest_modes(K, model->mass_matrix(), model->boundary.fixed_dofs(), options);
    const double w1 = std::sqrt(m.eigenvalues[0]), w1b = std::sqrt(m.eigenvalues[1]);
    const double w2 = std::sqrt(m.eigenvalues[2]);
    const double e1 = w1 / omega1 - 1.0, e2 = w2 / omega2 - 1.0;
    std::printf("[ modes ] %dx%dx%d: f1 %.5f Hz (EB %.5f, error %+.4f), f2 %.5f Hz (EB %.5f, error %+.4f)\n", 10 * r, r,
                r, w1 / (2 * std::numbers::pi), omega1 / (2 * std::numbers::pi), e1, w2 / (2 * std::numbers::pi),
                omega2 / (2 * std::numbers::pi), e2);
    EXPECT_NEAR(w1, w1b, 1e-2 * w1) << "the two first bending modes of a square section have one frequency";
    EXPECT_LT(max_relative_residual(K, model->mass_matrix(), m, model->boundary.fixed_dofs()), 1e-8);
    EXPECT_LT(std::abs(e1), previous1);
    EXPECT_LT(std::abs(e2), previous2);
    previous1 = std::abs(e1);
    previous2 = std::abs(e2);
  }
  // Measured at 40x4x4: +6.1% (first), +1.9% (second bending frequency).
  EXPECT_LT(previous1, 0.08);
  EXPECT_LT(previous2, 0.04);
}

TEST(ModalSubspace, NoModesAskedGivesAnEmptyBasis) {
  BeamSpec spec;
  auto model = make_beam(spec);
  ModalOptions options;
  options.count = 0;
  const ModalSubspace m = lowest_modes(stiffness_at_rest(*model), model->mass_matrix(), {}, options);
  EXPECT_EQ(m.count(), 0);
  EXPECT_EQ(m.modes.rows(), model->num_dofs());
}

}  // namespace
}  // namespace softsim::test
