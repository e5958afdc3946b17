// The ABD orthogonality potential kappa V ||A A^T - I||_F^2 (Lan et al. 2022, eq. 7) read from a
// frame of dim + 1 vertices: its value against the formula for affine positions, zero with zero
// gradient at rotations, gradient and Hessian against finite differences in 2D and 3D, and the
// rigid body's stiffening when a solve ends off a rotation.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <functional>

#include "softsim/subspace/orthogonality_potential.hpp"
#include "support/fem_models.hpp"

namespace softsim {
namespace {

using test::fd_gradient;
using test::make_one_term_model;
using test::relative_error;
using test::term_energy;
using test::term_gradient;
using test::term_hessian;

constexpr double kKappa = 3.0, kVolume = 0.7;

// dim + 2 vertices: a frame simplex and one more vertex that the term does not read.
MatX rest_vertices(int dim) {
  MatX rest(dim + 2, dim);
  if (dim == 3)
    rest << 0, 0, 0, 1, 0, 0, 0, 1.2, 0, 0.1, 0.2, 0.9, 0.5, 0.5, 0.5;
  else
    rest << 0, 0, 1, 0.1, 0.2, 1.1, 0.4, 0.4;
  return rest;
}

auto make_model(int dim, double tolerance = 0.0) {
  const MatX rest = rest_vertices(dim);
  std::vector<int> frame(dim + 1);
  for (int a = 0; a <= dim; ++a) frame[a] = a;
  return make_one_term_model(rest, std::make_unique<OrthogonalityPotential>(dim, frame, rest.topRows(dim + 1), kVolume,
                                                                            kKappa, tolerance, "body"));
}

VecX affine_positions(const MatX& rest, const MatX& A, const VecX& t) {
  MatX x = (rest * A.transpose()).rowwise() + t.transpose();
  return flatten_rows(x);
}

class OrthogonalityPotentialTest : public ::testing::TestWithParam<int> {};

TEST_P(OrthogonalityPotentialTest, ValueMatchesTheFormulaAndVanishesAtRotations) {
  const int dim = GetParam();
  auto m = make_model(dim);
  const MatX rest = rest_vertices(dim);
  const MatX A = MatX::Identity(dim, dim) + 0.3 * MatX::Random(dim, dim);
  const VecX x = affine_positions(rest, A, VecX::Random(dim));
  const double expected = kKappa * kVolume * (A * A.transpose() - MatX::Identity(dim, dim)).squaredNorm();
  EXPECT_NEAR(term_energy(m.ctx(), *m.term, x), expected, 1e-12 * expected);
  EXPECT_LT((m.term->affine_matrix(x) - A).norm(), 1e-12);
  // A rotation (and any translation): no energy, no force.
  const MatX R = Eigen::HouseholderQR<MatX>(MatX::Random(dim, dim)).householderQ();
  const MatX rotation = R.determinant() > 0 ? R : MatX(-R);
  const VecX xr = affine_positions(rest, rotation, VecX::Random(dim));
  EXPECT_LT(term_energy(m.ctx(), *m.term, xr), 1e-24);
  EXPECT_LT(term_gradient(m.ctx(), *m.term, xr).norm(), 1e-12);
  EXPECT_LT(m.term->deviation(xr), 1e-13);
}

TEST_P(OrthogonalityPotentialTest, GradientAndHessianMatchFiniteDifferences) {
  const int dim = GetParam();
  auto m = make_model(dim);
  const MatX rest = rest_vertices(dim);
  // Any positions, not only affine ones: the term is an energy of its frame's vertices.
  const VecX x = flatten_rows(rest) + test::random_perturbation(rest.size(), 0.2, 7);
  auto energy = [&](const VecX& y) { return term_energy(m.ctx(), *m.term, y); };
  const VecX g = term_gradient(m.ctx(), *m.term, x);
  EXPECT_LT(relative_error(g, fd_gradient(energy, x)), 1e-7);
  const MatX H = term_hessian(m.ctx(), *m.term, *m.model, x);
  const MatX H_fd = test::fd_jacobian([&](const VecX& y) { return term_gradient(m.ctx(), *m.term, y); }, x);
  EXPECT_LT(relative_error(H, H_fd), 1e-6);
  // The vertex outside the frame feels nothing.
  EXPECT_EQ(g.tail(dim).norm(), 0.0);
  // The projected Hessian is PSD.
  const MatX Hp = term_hessian(m.ctx(), *m.term, *m.model, x, true);
  EXPECT_GT(Eigen::SelfAdjointEigenSolver<MatX>(Hp).eigenvalues().minCoeff(), -1e-10 * Hp.norm());
  // It is the whole Hessian's projection (negative eigenvalues clamped), although the term
  // projects only on the motions that are not a common translation. With the frame shrunk along
  // the first axis (A A^T < I there) the Hessian is indefinite, so the projection has work to do.
  VecX shrunk = x;
  for (Eigen::Index i = 0; i < shrunk.size(); i += dim) shrunk[i] *= 0.4;
  const MatX Hs = term_hessian(m.ctx(), *m.term, *m.model, shrunk);
  const Eigen::SelfAdjointEigenSolver<MatX> eig(Hs);
  ASSERT_LT(eig.eigenvalues().minCoeff(), -1e-2 * Hs.norm());
  ASSERT_GT(eig.eigenvalues().maxCoeff(), 1e-2 * Hs.norm());
  const MatX clamped = eig.eigenvectors() * eig.eigenvalues().cwiseMax(0.0).asDiagonal() * eig.eigenvectors().transpose();
  EXPECT_LT((term_hessian(m.ctx(), *m.term, *m.model, shrunk, true) - clamped).norm(), 1e-12 * Hs.norm());
}

INSTANTIATE_TEST_SUITE_P(Dims, OrthogonalityPotentialTest, ::testing::Values(2, 3));

TEST(OrthogonalityPotential, RigidBodyStiffensUntilARotation) {
  auto m = make_model(3, 1e-6);
  const MatX rest = rest_vertices(3);
  const VecX off = affine_positions(rest, 1.01 * MatX::Identity(3, 3), VecX::Zero(3));
  const VecX on = affine_positions(rest, MatX::Identity(3, 3), VecX::Zero(3));
  const StepContext step = m.evaluation->step_ctx();
  const double kappa = m.term->stiffness(m.evaluation->data);
  EXPECT_FALSE(m.term->after_solve(step, on));
  EXPECT_EQ(m.term->stiffness(m.evaluation->data), kappa);
  EXPECT_TRUE(m.term->after_solve(step, off));
  EXPECT_EQ(m.term->stiffness(m.evaluation->data), 10 * kappa);
  // The stiffness is carried by checkpoints.
  ArchiveWriter out;
  m.evaluation->data.save(*m.model, out);
  auto fresh = make_model(3, 1e-6);
  ArchiveReader in(out.bytes());
  fresh.evaluation->data.load(*fresh.model, in);
  EXPECT_EQ(fresh.term->stiffness(fresh.evaluation->data), 10 * kappa);
}

}  // namespace
}  // namespace softsim
