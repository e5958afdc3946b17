// The additive split against dense linear algebra on a small deformed nonlinear beam with Rayleigh
// damping and a clamp: the SMW solve of (I - c J_H) du = r with J_H = diag(Q, Q) J, the lifted
// subspace ERE product h phi_1(h J_G) G, and H + G = F.
#include "softsim/integrate/exponential/modal_split.hpp"

#include <gtest/gtest.h>

#include <unsupported/Eigen/MatrixFunctions>

#include "integrate/exponential/beam.hpp"
#include "softsim/solve/modal_subspace.hpp"

namespace softsim::test {
namespace {

struct SplitFixture {
  std::unique_ptr<Model> model;
  std::unique_ptr<SecondOrderSystem> system;
  ModelData data;
  SparseMat K;
  VecX q, v, f, a;
  std::vector<int> free;
};

SplitFixture make_setup() {
  BeamSpec spec;
  spec.size = Vec3(2.0, 0.5, 0.5);
  spec.cells = Eigen::Vector3i(4, 1, 1);
  spec.material = "stable_neo_hookean";
  spec.youngs = 1e4;
  spec.rayleigh_alpha = 0.3;
  spec.rayleigh_beta = 0.01;
  SplitFixture s;
  s.model = make_beam(spec);
  s.system = std::make_unique<SecondOrderSystem>(*s.model, false);
  s.data = ModelData(*s.model);
  const int n = s.model->num_dofs();
  s.q = s.model->rest_positions;
  s.v = VecX::Zero(n);
  for (int i = 0; i < n / 3; ++i) {
    const double x = s.model->rest_positions[3 * i];
    if (s.model->boundary.fixed_dofs()[3 * i]) continue;
    s.q[3 * i + 1] += 0.08 * (x + 1.0) * (x + 1.0);  // bent
    s.v[3 * i + 1] = 0.2 * std::cos(x);
    s.v[3 * i + 2] = 0.05 * x;
  }
  const Stage stage;
  const EvalContext ctx{stage, s.data};
  s.K = s.system->stiffness(ctx, s.q);
  s.system->set_damping(s.system->stiffness(ctx, s.model->rest_positions));
  s.f = s.system->force(ctx, s.q, s.v);
  s.a = s.system->solve_mass(s.f);
  for (int i = 0; i < n; ++i)
    if (!s.model->boundary.fixed_dofs()[i]) s.free.push_back(i);
  return s;
}

// Dense J over the free DOFs: [[0, I], [-M^-1 K, -M^-1 D]].
MatX dense_jacobian(const SplitFixture& s) {
  const int nf = static_cast<int>(s.free.size());
  MatX K(nf, nf), D(nf, nf), M(nf, nf);
  const MatX Kd(s.K), Dd(s.system->damping()), Md(s.model->mass_matrix());
  for (int a = 0; a < nf; ++a)
    for (int b = 0; b < nf; ++b) {
      K(a, b) = Kd(s.free[a], s.free[b]);
      D(a, b) = Dd(s.free[a], s.free[b]);
      M(a, b) = Md(s.free[a], s.free[b]);
    }
  const MatX Minv = M.inverse();
  MatX J = MatX::Zero(2 * nf, 2 * nf);
  J.topRightCorner(nf, nf).setIdentity();
  J.bottomLeftCorner(nf, nf) = -Minv * K;
  J.bottomRightCorner(nf, nf) = -Minv * D;
  return J;
}

VecX restrict(const SplitFixture& s, const VecX& q, const VecX& v) {
  const int nf = static_cast<int>(s.free.size());
  VecX u(2 * nf);
  for (int a = 0; a < nf; ++a) {
    u[a] = q[s.free[a]];
    u[nf + a] = v[s.free[a]];
  }
  return u;
}

MatX restrict_rows(const SplitFixture& s, const MatX& X) {
  MatX out(s.free.size(), X.cols());
  for (std::size_t a = 0; a < s.free.size(); ++a) out.row(static_cast<Eigen::Index>(a)) = X.row(s.free[a]);
  return out;
}

// Modes, linear solver (direct: SMW; iterative: matrix-free corrected operator), tolerance.
class ModalSplitTest : public ::testing::TestWithParam<std::tuple<int, const char*, double>> {};

TEST_P(ModalSplitTest, MatchesDenseLinearAlgebra) {
  const int s_modes = std::get<0>(GetParam());
  const std::string solver = std::get<1>(GetParam());
  const double tolerance = std::get<2>(GetParam());
  SplitFixture s = make_setup();
  ModalOptions mo;
  mo.count = s_modes;
  const ModalSubspace modes = lowest_modes(s.K, s.model->mass_matrix(), s.model->boundary.fixed_dofs(), mo);
  // Stale modes (from the rest state) on purpose: the split must hold for any M-orthonormal basis.
  const Stage stage;
  const SparseMat K_rest = s.system->stiffness(EvalContext{stage, s.data}, s.model->rest_positions);
  const ModalSubspace stale = lowest_modes(K_rest, s.model->mass_matrix(), s.model->boundary.fixed_dofs(), mo);
  for (const ModalSubspace* basis : {&modes, &stale}) {
    ModalSplit split(*s.system, solver);
    const double c = 0.07, tau = 0.05;
    ASSERT_TRUE(split.prepare(s.K, basis->modes, c));
    const int nf = static_cast<int>(s.free.size());
    const MatX J = dense_jacobian(s);
    const MatX X = restrict_rows(s, basis->modes);
    const MatX Mf = restrict_rows(s, MatX(s.model->mass_matrix()) * basis->modes);  // M X on free rows
    MatX P = MatX::Zero(2 * nf, 2 * nf);  // diag(X X^T M, X X^T M)
    P.topLeftCorner(nf, nf) = X * Mf.transpose();
    P.bottomRightCorner(nf, nf) = X * Mf.transpose();
    const MatX I = MatX::Identity(2 * nf, 2 * nf);
    const MatX JG = P * J, JH = (I - P) * J;
    const VecX F = restrict(s, s.v, s.a);

    // H + G = F and H = (I - P) F.
    VecX h_q, h_v;
    split.h_part(s.v, s.f, s.a, h_q, h_v);
    EXPECT_LT((restrict(s, h_q, h_v) - (I - P) * F).norm(), 1e-10 * F.norm());

    // tau phi_1(tau J_G) G(u), densely: the last column of exp([[tau J_G, tau G], [0, 0]]).
    VecX e_q, e_v;
    split.subspace_ere(tau, s.v, s.f, e_q, e_v);
    MatX aug = MatX::Zero(2 * nf + 1, 2 * nf + 1);
    aug.topLeftCorner(2 * nf, 2 * nf) = tau * JG;
    aug.topRightCorner(2 * nf, 1) = tau * (P * F);
    const VecX dense_e = MatX(aug.exp()).topRightCorner(2 * nf, 1);
    EXPECT_LT((restrict(s, e_q, e_v) - dense_e).norm(), 1e-9 * std::max(dense_e.norm(), 1e-12)) << s_modes;

    // (I - c J_H) du = r.
    VecX r_q = VecX::Zero(s.model->num_dofs());
    VecX r_v = r_q;
    for (int i : s.free) {
      r_q[i] = std::sin(0.3 * i);
      r_v[i] = std::cos(0.7 * i);
    }
    VecX dq, dv;
    ASSERT_TRUE(split.solve(r_q, r_v, dq, dv));
    const VecX dense = (I - c * JH).partialPivLu().solve(restrict(s, r_q, r_v));
    EXPECT_LT((restrict(s, dq, dv) - dense).norm(), tolerance * dense.norm()) << s_modes << " " << solver;
    for (std::size_t i = 0; i < s.model->boundary.fixed_dofs().size(); ++i)
      if (s.model->boundary.fixed_dofs()[i]) {
        EXPECT_EQ(dq[static_cast<Eigen::Index>(i)], 0.0);
        EXPECT_EQ(dv[static_cast<Eigen::Index>(i)], 0.0);
      }
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, ModalSplitTest,
                         ::testing::Values(std::make_tuple(0, "cholmod", 1e-9), std::make_tuple(1, "cholmod", 1e-9),
                                           std::make_tuple(5, "cholmod", 1e-9), std::make_tuple(48, "cholmod", 1e-9),
                                           std::make_tuple(5, "pcg", 1e-6), std::make_tuple(48, "pcg", 1e-6)));

}  // namespace
}  // namespace softsim::test
