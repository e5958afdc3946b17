// Barriers (both forms), the edge-edge mollifier, the mollified edge-edge barrier and the
// barrier stiffness formulas: derivatives vs central finite differences and known values.
#include <gtest/gtest.h>

#include <cmath>

#include "softsim/contact/barrier/barrier.hpp"
#include "softsim/contact/barrier/stiffness.hpp"
#include "softsim/contact/barrier/edge_edge_mollifier.hpp"
#include "support/finite_difference.hpp"

namespace softsim {
namespace {

using test::fd_gradient;
using test::fd_jacobian;
using test::relative_error;
using V3 = Eigen::Vector3d;

double central(const std::function<double(double)>& f, double x, double h) { return (f(x + h) - f(x - h)) / (2 * h); }

TEST(Barrier, IpcDerivativesMatchFiniteDifferences) {
  const double shat = 1e-2;
  for (double s : {1e-5, 1e-4, 3e-3, 9e-3}) {
    const double h = 1e-4 * s;
    EXPECT_NEAR(ipc_barrier_first_derivative(s, shat), central([&](double x) { return ipc_barrier(x, shat); }, s, h),
                1e-6 * std::abs(ipc_barrier_first_derivative(s, shat)));
    EXPECT_NEAR(ipc_barrier_second_derivative(s, shat),
                central([&](double x) { return ipc_barrier_first_derivative(x, shat); }, s, h),
                1e-6 * std::abs(ipc_barrier_second_derivative(s, shat)));
  }
  EXPECT_EQ(ipc_barrier(shat, shat), 0);
  EXPECT_EQ(ipc_barrier(2 * shat, shat), 0);
  EXPECT_NEAR(ipc_barrier_first_derivative(shat * (1 - 1e-9), shat), 0, 1e-12);  // C1 (and C2) at shat
  EXPECT_GT(ipc_barrier(1e-6, shat), 0);
  EXPECT_LT(ipc_barrier_first_derivative(1e-6, shat), 0);  // pushes only
}

TEST(Barrier, BookDerivativesMatchFiniteDifferences) {
  const double dhat = 0.1, kappa = 1e5;
  for (double d : {1e-4, 1e-3, 0.03, 0.09}) {
    const double h = 1e-4 * d;
    EXPECT_NEAR(book_barrier_first_derivative(d, dhat, kappa),
                central([&](double x) { return book_barrier(x, dhat, kappa); }, d, h),
                1e-6 * std::abs(book_barrier_first_derivative(d, dhat, kappa)));
    EXPECT_NEAR(book_barrier_second_derivative(d, dhat, kappa),
                central([&](double x) { return book_barrier_first_derivative(x, dhat, kappa); }, d, h),
                1e-6 * std::abs(book_barrier_second_derivative(d, dhat, kappa)));
  }
  // Known value: b(dhat/e) = (kappa/2)(1/e - 1)(-1)
  EXPECT_NEAR(book_barrier(dhat / std::exp(1.0), dhat, kappa), 0.5 * kappa * (1 - 1 / std::exp(1.0)), 1e-9);
}

TEST(Barrier, OfSquaredDistanceBothForms) {
  const double dhat = 0.1, kappa = 3.0;
  for (auto form : {BarrierForm::ipc_squared, BarrierForm::book_unsquared})
    for (double s : {1e-5, 1e-3, 8e-3}) {
      const double h = 1e-4 * s;
      const auto b = barrier_of_squared_distance(form, s, dhat, kappa);
      EXPECT_NEAR(b.first, central([&](double x) { return barrier_of_squared_distance(form, x, dhat, kappa).value; }, s, h),
                  1e-6 * std::abs(b.first));
      EXPECT_NEAR(b.second,
                  central([&](double x) { return barrier_of_squared_distance(form, x, dhat, kappa).first; }, s, h),
                  1e-6 * std::abs(b.second));
    }
  EXPECT_NEAR(barrier_of_squared_distance(BarrierForm::book_unsquared, 0.0025, 0.1, 2.0).value,
              book_barrier(0.05, 0.1, 2.0), 1e-15);
  EXPECT_NEAR(barrier_of_squared_distance(BarrierForm::ipc_squared, 0.0025, 0.1, 2.0).value,
              2.0 * ipc_barrier(0.0025, 0.01), 1e-15);
}

TEST(Mollifier, ScalarAndStencilDerivatives) {
  const double ex = 0.3;
  for (double c : {0.01, 0.1, 0.29}) {
    EXPECT_NEAR(mollifier_first_derivative(c, ex), central([&](double x) { return mollifier(x, ex); }, c, 1e-6), 1e-8);
    EXPECT_NEAR(mollifier_second_derivative(c, ex),
                central([&](double x) { return mollifier_first_derivative(x, ex); }, c, 1e-6), 1e-6);
  }
  EXPECT_EQ(mollifier(0, ex), 0);
  EXPECT_EQ(mollifier(ex, ex), 1);
  EXPECT_NEAR(mollifier_first_derivative(ex * (1 - 1e-12), ex), 0, 1e-9);  // C1 at eps_x
  // Threshold: 1e-3 |ea|^2 |eb|^2
  EXPECT_NEAR(edge_edge_mollifier_threshold(V3(0, 0, 0), V3(2, 0, 0), V3(0, 0, 0), V3(0, 3, 0)), 1e-3 * 4 * 9, 1e-15);

  // Nearly parallel edges (c < eps_x): derivatives of m(c(x)) vs FD.
  const V3 a0(0, 0, 0), a1(1, 0, 0), b0(0.2, 0.3, 0.01), b1(1.1, 0.31, 0.02);
  const double eps_x = edge_edge_mollifier_threshold(a0, a1, b0, b1);
  VecX x(12);
  x << a0, a1, b0, b1;
  auto f = [&](const VecX& y) {
    return edge_edge_mollifier(y.segment<3>(0), y.segment<3>(3), y.segment<3>(6), y.segment<3>(9), eps_x);
  };
  const auto m = f(x);
  ASSERT_GT(m.value, 0);
  ASSERT_LT(m.value, 1);
  EXPECT_LT(relative_error(VecX(m.grad), fd_gradient([&](const VecX& y) { return f(y).value; }, x)), 1e-6);
  EXPECT_LT(relative_error(MatX(m.hess), fd_jacobian([&](const VecX& y) { return VecX(f(y).grad); }, x)), 1e-6);
  // The cross norm itself
  auto c = [&](const VecX& y) {
    return edge_edge_cross_squared_norm(y.segment<3>(0), y.segment<3>(3), y.segment<3>(6), y.segment<3>(9));
  };
  EXPECT_NEAR(c(x).value, (a1 - a0).cross(b1 - b0).squaredNorm(), 1e-15);
  EXPECT_LT(relative_error(MatX(c(x).hess), fd_jacobian([&](const VecX& y) { return VecX(c(y).grad); }, x)), 1e-6);
}

TEST(Mollifier, MollifiedEdgeEdgeBarrierDerivatives) {
  const double dhat = 0.1;
  struct Case {
    V3 a0, a1, b0, b1;
  } cases[] = {
      {V3(0, 0, 0), V3(1, 0, 0), V3(0.3, 0.01, 0.05), V3(1.2, 0.02, 0.06)},     // nearly parallel, EA_EB0-ish
      {V3(0, 0, 0), V3(1, 0, 0), V3(0.5, -0.5, 0.05), V3(0.52, 0.5, 0.05)},     // crossing, m = 1
      {V3(0, 0, 0), V3(1, 0, 0), V3(0.4, -0.01, 0.04), V3(1.4, 0.002, 0.045)},  // nearly parallel, close
  };
  for (auto form : {BarrierForm::ipc_squared, BarrierForm::book_unsquared})
    for (const auto& cs : cases) {
      const double eps_x = edge_edge_mollifier_threshold(cs.a0, cs.a1, cs.b0, cs.b1);
      auto f = [&](const VecX& y) {
        return mollified_edge_edge_barrier(y.segment<3>(0), y.segment<3>(3), y.segment<3>(6), y.segment<3>(9), eps_x,
                                           form, dhat, 10.0);
      };
      VecX x(12);
      x << cs.a0, cs.a1, cs.b0, cs.b1;
      const auto r = f(x);
      ASSERT_GT(r.value, 0);
      EXPECT_LT(relative_error(VecX(r.grad), fd_gradient([&](const VecX& y) { return f(y).value; }, x, 1e-7)), 1e-6);
      EXPECT_LT(relative_error(MatX(r.hess), fd_jacobian([&](const VecX& y) { return VecX(f(y).grad); }, x, 1e-7)),
                1e-6);
    }
}

TEST(BarrierStiffness, InitialAndAdaptive) {
  Eigen::VectorXd gE(3), gB(3);
  gE << 1, 2, 3;
  gB << -1, 0, 0;
  // bbox 1, dhat 1e-3: s0 = 1e-16, 4 s0 b''(s0) = 4e4 (to 1e-9); scale 4e3 -> kappa_min = 0.1, kappa_max = 10
  const auto k = initial_barrier_stiffness(1.0, 1e-3, 1.0, gE, gB, 4e3);
  EXPECT_NEAR(k.kappa_min, 0.1, 1e-6);
  EXPECT_NEAR(k.kappa, 1.0, 1e-15);  // -(gE . gB)/(gB . gB) = 1
  EXPECT_NEAR(k.kappa_max, 100 * k.kappa_min, 1e-12 * k.kappa_max);
  const auto k2 = initial_barrier_stiffness(1.0, 1e-3, 1.0, gE, gB);  // IPC scale: clamped to kappa_min
  const double s0 = 1e-16;
  EXPECT_NEAR(k2.kappa_min, 1e11 / (4 * s0 * ipc_barrier_second_derivative(s0, 1e-6)), 1e-9 * k2.kappa_min);
  EXPECT_EQ(k2.kappa, k2.kappa_min);
  EXPECT_EQ(update_barrier_stiffness(1e-10, 5e-11, 7.0, 100.0, 1e-9), 14.0);
  EXPECT_EQ(update_barrier_stiffness(1e-10, 2e-10, 7.0, 100.0, 1e-9), 7.0);  // increasing: keep
  EXPECT_EQ(update_barrier_stiffness(1e-8, 5e-11, 7.0, 100.0, 1e-9), 7.0);   // previous not small
  EXPECT_EQ(update_barrier_stiffness(1e-10, 5e-11, 70.0, 100.0, 1e-9), 100.0);  // capped
}

}  // namespace
}  // namespace softsim
