// The edge-edge mollifier and the mollified edge-edge barrier: derivatives vs central finite
// differences.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "softsim/contact/barrier/edge_edge_mollifier.hpp"
#include "support/finite_difference.hpp"

namespace softsim {
namespace {

using test::fd_gradient;
using test::fd_jacobian;
using test::relative_error;
using V3 = Eigen::Vector3d;

TEST(Mollifier, ScalarAndStencilDerivatives) {
  const double ex = 0.3;
  for (double c : {0.01, 0.1, 0.29}) {
    EXPECT_NEAR(mollifier_first_derivative(c, ex), test::central_difference([&](double x) { return mollifier(x, ex); }, c, 1e-6), 1e-8);
    EXPECT_NEAR(mollifier_second_derivative(c, ex),
                test::central_difference([&](double x) { return mollifier_first_derivative(x, ex); }, c, 1e-6), 1e-6);
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

}  // namespace
}  // namespace softsim
