// The closed-form derivatives of the cross-product distance forms equal second-order forward
// mode (core/jet.hpp) on the same expressions to round-off, match central finite differences,
// and the vertex derivatives of point-plane, line-line, point-line and the mollifier input are
// the pull-backs of the difference-vector ones.
#include <gtest/gtest.h>

#include <array>
#include <random>

#include "contact/distance/distance_test_util.hpp"
#include "softsim/contact/barrier/edge_edge_mollifier.hpp"
#include "softsim/contact/distance/cross_product_forms.hpp"
#include "softsim/contact/distance/generic_vector.hpp"
#include "softsim/contact/distance/line_line.hpp"
#include "softsim/contact/distance/point_line.hpp"
#include "softsim/contact/distance/point_plane.hpp"

namespace softsim::test {
namespace {

using namespace contact_detail;

// The forward-mode references: the expressions the distances were first written as.
// ((u x v) . w)^2 / |u x v|^2 with u, v, w differences of the four stencil vertices.
DistanceDerivatives<12> triple_product_jet(const VecX& x, std::array<int, 3> plus, std::array<int, 3> minus) {
  using D = Dual2<12>;
  std::array<Eigen::Matrix<D, 3, 1>, 4> X;
  for (int i = 0; i < 4; ++i) X[i] = dual_vector<12, 3>(V3(at(x, i)), 3 * i);
  const Eigen::Matrix<D, 3, 1> n = cross<D>(X[plus[0]] - X[minus[0]], X[plus[1]] - X[minus[1]]);
  const D s = dot<D, 3>(n, X[plus[2]] - X[minus[2]]);
  return to_derivatives(s * s / dot<D, 3>(n, n));
}
DistanceDerivatives<12> point_plane_jet(const VecX& x) { return triple_product_jet(x, {2, 3, 0}, {1, 1, 1}); }
DistanceDerivatives<12> line_line_jet(const VecX& x) { return triple_product_jet(x, {1, 3, 2}, {0, 2, 0}); }
DistanceDerivatives<9> point_line_jet(const VecX& x) {
  using D = Dual2<9>;
  const auto P = dual_vector<9, 3>(V3(at(x, 0)), 0), E0 = dual_vector<9, 3>(V3(at(x, 1)), 3),
             E1 = dual_vector<9, 3>(V3(at(x, 2)), 6);
  const Eigen::Matrix<D, 3, 1> c = cross<D>(E0 - P, E1 - P), e = E1 - E0;
  return to_derivatives(dot<D, 3>(c, c) / dot<D, 3>(e, e));
}
DistanceDerivatives<12> cross_norm_jet(const VecX& x) {
  using D = Dual2<12>;
  const auto A0 = dual_vector<12, 3>(V3(at(x, 0)), 0), A1 = dual_vector<12, 3>(V3(at(x, 1)), 3),
             B0 = dual_vector<12, 3>(V3(at(x, 2)), 6), B1 = dual_vector<12, 3>(V3(at(x, 3)), 9);
  const Eigen::Matrix<D, 3, 1> n = cross<D>(A1 - A0, B1 - B0);
  return to_derivatives(dot<D, 3>(n, n));
}

template <int N>
void expect_equal(const DistanceDerivatives<N>& a, const DistanceDerivatives<N>& b, const char* what, int trial) {
  EXPECT_LE(std::abs(a.value - b.value), 1e-13 * std::abs(b.value)) << what << " " << trial;
  EXPECT_LE((a.grad - b.grad).norm(), 1e-12 * b.grad.norm()) << what << " " << trial;
  EXPECT_LE((a.hess - b.hess).norm(), 1e-12 * b.hess.norm()) << what << " " << trial;
  EXPECT_LE((a.hess - a.hess.transpose()).norm(), 1e-14 * a.hess.norm()) << what << " " << trial;
}

VecX random_stencil(std::mt19937& rng, int vertices) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  VecX x(3 * vertices);
  for (Eigen::Index i = 0; i < x.size(); ++i) x[i] = u(rng);
  return x;
}

TEST(CrossProductForms, EqualForwardModeOnRandomStencils) {
  std::mt19937 rng(17);
  for (int trial = 0; trial < 200; ++trial) {
    const VecX x = random_stencil(rng, 4);
    const V3 a = at(x, 0), b = at(x, 1), c = at(x, 2), d = at(x, 3);
    expect_equal(point_plane_distance_derivatives(a, b, c, d), point_plane_jet(x), "point-plane", trial);
    expect_equal(line_line_distance_derivatives(a, b, c, d), line_line_jet(x), "line-line", trial);
    expect_equal(point_line_distance_derivatives(a, b, c), point_line_jet(x.head(9)), "point-line", trial);
    expect_equal(edge_edge_cross_squared_norm(a, b, c, d), cross_norm_jet(x), "cross norm", trial);
  }
}

TEST(CrossProductForms, MatchFiniteDifferencesInTheEdgeVectors) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 5; ++trial) {
    const VecX y = random_stencil(rng, 3);
    check_derivatives([](const VecX& z) { return triple_product_ratio(at(z, 0), at(z, 1), at(z, 2)); }, y);
    check_derivatives([](const VecX& z) { return cross_ratio(at(z, 0), at(z, 1)); }, VecX(y.head(6)));
    check_derivatives([](const VecX& z) { return cross_squared_norm(at(z, 0), at(z, 1)); }, VecX(y.head(6)));
  }
}

// Nearly parallel edges (|u x v| = 1e-4 |u| |v|; the Hessian's entries reach 6e6): both ways
// lose digits to the cancellation in u x v, and they still agree to 1e-8.
TEST(CrossProductForms, NearlyParallelEdgesStayAccurate) {
  const VecX x = stack({V3(0, 0, 0), V3(1, 0, 0), V3(0.3, 0.2, 0.1), V3(1.3, 0.2 + 1e-4, 0.1)});
  const auto closed = line_line_distance_derivatives(at(x, 0), at(x, 1), at(x, 2), at(x, 3));
  const auto jet = line_line_jet(x);
  EXPECT_NEAR(closed.value, jet.value, 1e-12 * jet.value);
  EXPECT_LE((closed.grad - jet.grad).norm(), 1e-8 * jet.grad.norm());
  EXPECT_LE((closed.hess - jet.hess).norm(), 1e-8 * jet.hess.norm());
}

}  // namespace
}  // namespace softsim::test
