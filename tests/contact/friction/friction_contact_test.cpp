// Smoothing functions and per-contact friction potentials against central finite differences
// (unprojected), in the sticking (y < eps) and sliding (y > eps) zones.
#include <gtest/gtest.h>

#include "softsim/contact/friction/friction_contact.hpp"
#include "softsim/contact/friction/smoothing.hpp"
#include "support/finite_difference.hpp"

namespace softsim {
namespace {

TEST(FrictionSmoothing, DerivativesMatchFiniteDifferences) {
  const double eps = 0.1, h = 1e-7;
  for (FrictionSmoothing kind : {FrictionSmoothing::c1, FrictionSmoothing::rational}) {
    for (double y : {0.01, 0.05, 0.09, 0.15, 0.4, 2.0}) {
      const auto f = friction_smoothing(kind, y, eps);
      const auto fp = friction_smoothing(kind, y + h, eps), fm = friction_smoothing(kind, y - h, eps);
      EXPECT_NEAR(f.f1, (fp.f0 - fm.f0) / (2 * h), 1e-7) << y;
      EXPECT_NEAR(f.f1_prime, (fp.f1 - fm.f1) / (2 * h), 1e-6 * std::max(1.0, f.f1_prime)) << y;
      EXPECT_NEAR(f.f1_over_y, f.f1 / y, 1e-12 * f.f1_over_y) << y;
      EXPECT_NEAR(f.c, (f.f1_prime - f.f1 / y) / (y * y), 1e-9 * std::abs(f.c)) << y;
    }
  }
  // Safe limits at y = 0 and the textbook values.
  EXPECT_DOUBLE_EQ(friction_smoothing(FrictionSmoothing::c1, 0.0, eps).f1_over_y, 2 / eps);
  EXPECT_DOUBLE_EQ(friction_smoothing(FrictionSmoothing::rational, 0.0, eps).f1_over_y, 1 / eps);
  EXPECT_DOUBLE_EQ(friction_smoothing(FrictionSmoothing::c1, 0.0, eps).f0, eps / 3);
  EXPECT_DOUBLE_EQ(friction_smoothing(FrictionSmoothing::c1, 0.05, eps).f1, 2 * 0.5 - 0.25);
  EXPECT_DOUBLE_EQ(friction_smoothing(FrictionSmoothing::c1, 0.3, eps).f1, 1.0);
  EXPECT_DOUBLE_EQ(friction_smoothing(FrictionSmoothing::rational, 0.3, eps).f1, 0.3 / 0.4);
  // C1 at eps: f0 and f1 continuous.
  const auto below = friction_smoothing(FrictionSmoothing::c1, eps * (1 - 1e-12), eps);
  const auto above = friction_smoothing(FrictionSmoothing::c1, eps, eps);
  EXPECT_NEAR(below.f0, above.f0, 1e-12);
  EXPECT_NEAR(below.f1, above.f1, 1e-10);
}

// Builds one contact of each kind on random lagged positions, then displaces the stencil so
// that y = |T^T u| is about `target` (relative to eps).
struct Case {
  const char* name;
  int dim, n;
  FrictionContact (*make)(const VertexRows&);
};

FrictionContact make_pp(const VertexRows& V) { return friction_contact(ContactStencil::point_point(0, 1), V); }
FrictionContact make_pe(const VertexRows& V) { return friction_contact(ContactStencil::point_edge(0, 1, 2), V); }
FrictionContact make_pt(const VertexRows& V) { return friction_contact(ContactStencil::point_triangle(0, 1, 2, 3), V); }
FrictionContact make_ee(const VertexRows& V) { return friction_contact(ContactStencil::edge_edge(0, 1, 2, 3), V); }
FrictionContact make_plane(const VertexRows& V) {
  FrictionContact c;
  c.stencil = ContactStencil::point_obstacle(0, 0);
  c.weights = {1, 0, 0, 0};
  const Eigen::Vector3d n = Eigen::Vector3d(0.3, 1.0, -0.2).normalized();
  c.T = Eigen::Matrix3d::Identity() - n * n.transpose();
  return c;
}

TEST(FrictionContactPotential, GradientAndHessianMatchFiniteDifferences) {
  const Case cases[] = {{"point-point", 3, 2, make_pp},   {"point-edge", 3, 3, make_pe},
                        {"point-triangle", 3, 4, make_pt}, {"edge-edge", 3, 4, make_ee},
                        {"point-edge 2D", 2, 3, make_pe},  {"point-point 2D", 2, 2, make_pp},
                        {"point-plane", 3, 1, make_plane}};
  const double eps = 0.01;
  std::srand(7);
  for (const Case& cs : cases) {
    for (FrictionSmoothing kind : {FrictionSmoothing::c1, FrictionSmoothing::rational}) {
      for (double target : {0.3, 0.8, 3.0}) {  // sticking, sticking near eps, sliding
        VertexRows V0 = VertexRows::Random(cs.n, cs.dim);
        FrictionContact c = cs.make(V0);
        c.lambda = 2.5;
        const VertexRows D = VertexRows::Random(cs.n, cs.dim);
        // Scale the displacement so that y = target * eps.
        Eigen::VectorXd u = Eigen::VectorXd::Zero(cs.dim);
        for (int a = 0; a < c.stencil.num_vertices; ++a) u += c.weights[a] * D.row(c.stencil.ids[a]).transpose();
        const double y0 = (c.T.transpose() * u).norm();
        ASSERT_GT(y0, 0) << cs.name;
        const VertexRows V1 = V0 + D * (target * eps / y0);
        const int N = cs.n * cs.dim;
        auto rows = [&](const VecX& x) {
          VertexRows V(cs.n, cs.dim);
          for (int i = 0; i < cs.n; ++i) V.row(i) = x.segment(i * cs.dim, cs.dim).transpose();
          return V;
        };
        auto energy = [&](const VecX& x) {
          return friction_contact_potential(c, rows(x), V0, kind, eps, nullptr, nullptr, false);
        };
        auto gradient = [&](const VecX& x) {
          FrictionStencilVec g;
          friction_contact_potential(c, rows(x), V0, kind, eps, &g, nullptr, false);
          return VecX(g.head(N));
        };
        VecX x(N);
        for (int i = 0; i < cs.n; ++i) x.segment(i * cs.dim, cs.dim) = V1.row(i).transpose();
        FrictionStencilVec g;
        FrictionStencilMat H;
        friction_contact_potential(c, V1, V0, kind, eps, &g, &H, false);
        const VecX gfd = test::fd_gradient(energy, x, 1e-7);
        const MatX Hfd = test::fd_jacobian(gradient, x, 1e-7);
        EXPECT_LT(test::relative_error(VecX(g.head(N)), gfd), 1e-6) << cs.name << " y/eps " << target;
        // floor: the Hessian's natural scale lambda/eps (1D sliding has H = 0 exactly).
        EXPECT_LT(test::relative_error(MatX(H.topLeftCorner(N, N)), Hfd, c.lambda / eps), 1e-5) << cs.name << " y/eps " << target;
        // Projection keeps a PSD matrix unchanged (these smoothings have f1' >= 0).
        FrictionStencilMat Hp;
        friction_contact_potential(c, V1, V0, kind, eps, nullptr, &Hp, true);
        EXPECT_LE((Hp - H).norm(), 1e-9 * H.norm() + 1e-12) << cs.name;
      }
    }
  }
}

TEST(FrictionContactPotential, ZeroDisplacementIsStationary) {
  VertexRows V0 = VertexRows::Random(4, 3);
  FrictionContact c = friction_contact(ContactStencil::point_triangle(0, 1, 2, 3), V0);
  c.lambda = 1.0;
  FrictionStencilVec g;
  FrictionStencilMat H;
  const double eps = 1e-3;
  const double E = friction_contact_potential(c, V0, V0, FrictionSmoothing::c1, eps, &g, &H, false);
  EXPECT_DOUBLE_EQ(E, eps / 3);
  EXPECT_EQ(g.norm(), 0.0);
  EXPECT_TRUE(H.allFinite());
  // Hessian at rest: lambda (2/eps) w_a w_b T T^T.
  const double trace = H.block<3, 3>(0, 0).trace();
  EXPECT_NEAR(trace, 2 * 2 / eps, 1e-9 / eps);
}

}  // namespace
}  // namespace softsim
