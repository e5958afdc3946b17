// Inversion filter (Li & Jiang 2025, §15.3): max_step_fraction returns the largest alpha such that no
// element's signed measure falls below 10% of its start value along x + alpha p. Checked on
// single elements against roots solved by hand: det linear, quadratic and cubic in alpha.
#include <gtest/gtest.h>

#include <Eigen/LU>
#include <cmath>

#include "support/fem_models.hpp"
#include "softsim/fem/simplex_elasticity.hpp"
#include "softsim/material/material.hpp"

namespace softsim::test {
namespace {

template <int D>
OneTermModel<SimplexElasticity<D>> unit_simplex() {
  MatX X = MatX::Zero(D + 1, D);
  for (int d = 0; d < D; ++d) X(d + 1, d) = 1.0;
  MatXi cells(1, D + 1);
  for (int a = 0; a <= D; ++a) cells(0, a) = a;
  std::shared_ptr<const Material<D>> material = make_material<D>("neo_hookean", LameParameters{1.0, 1.0});
  return make_one_term_model(X, std::make_unique<SimplexElasticity<D>>(cells, X, material, "unit simplex"));
}

template <int D>
double det_along(const SimplexElasticity<D>& term, const VecX& x, const VecX& p, double alpha) {
  return term.deformation_gradient(VecX(x + alpha * p), 0).determinant();
}

template <int D>
void check(const VecX& p, double expected_alpha, const char* label) {
  SCOPED_TRACE(label);
  auto built = unit_simplex<D>();
  const VecX x = built.model->rest_positions;
  const double alpha = built.term->max_step_fraction(built.ctx(), x, p);
  const double det0 = det_along<D>(*built.term, x, p, 0.0);
  EXPECT_NEAR(alpha, expected_alpha, 1e-12);
  EXPECT_GE(det_along<D>(*built.term, x, p, alpha), 0.1 * det0 * (1 - 1e-9));
  // Without the filter the step collapses or inverts the element somewhere in [0, 1] (for the
  // squared cases det touches 0 mid-step and is positive again at alpha = 1).
  double lowest = HUGE_VAL;
  // (3000 samples hit the collapse points alpha = 1/2 and 1/3 of the cases below.)
  for (int k = 0; k <= 3000; ++k) lowest = std::min(lowest, det_along<D>(*built.term, x, p, k / 3000.0));
  EXPECT_LE(lowest, 1e-9 * det0);
  // Every alpha up to the returned one keeps det >= 10%.
  for (int k = 0; k <= 100; ++k)
    EXPECT_GE(det_along<D>(*built.term, x, p, alpha * k / 100.0), 0.1 * det0 * (1 - 1e-9));
}

TEST(InversionFilter, TriangleLinearInAlpha) {
  // Vertex 2 moves by (0, -2): det = 1 - 2 alpha = 0.1 -> alpha = 0.45.
  VecX p = VecX::Zero(6);
  p[5] = -2.0;
  check<2>(p, 0.45, "triangle, linear");
}

TEST(InversionFilter, TriangleQuadraticInAlpha) {
  // Vertices 1 and 2 move towards vertex 0 by 2: det = (1 - 2a)^2 = 0.1.
  VecX p = VecX::Zero(6);
  p[2] = -2.0;
  p[5] = -2.0;
  check<2>(p, (1.0 - std::sqrt(0.1)) / 2.0, "triangle, quadratic");
}

TEST(InversionFilter, TriangleShearThenCollapse) {
  // Vertex 2 moves by (3, -1.5): Ds = [[1, 3a], [0, 1 - 1.5a]], det = 1 - 1.5 a = 0.1 -> 0.6.
  VecX p = VecX::Zero(6);
  p[4] = 3.0;
  p[5] = -1.5;
  check<2>(p, 0.6, "triangle, sheared");
}

TEST(InversionFilter, TetLinearInAlpha) {
  VecX p = VecX::Zero(12);
  p[11] = -2.0;  // vertex 3 moves by (0, 0, -2)
  check<3>(p, 0.45, "tet, linear");
}

TEST(InversionFilter, TetCubicInAlpha) {
  // Vertices 1, 2, 3 all move towards vertex 0 by 2: det = (1 - 2a)^3 = 0.1.
  VecX p = VecX::Zero(12);
  p[3] = -2.0;
  p[7] = -2.0;
  p[11] = -2.0;
  check<3>(p, (1.0 - std::cbrt(0.1)) / 2.0, "tet, cubic");
}

TEST(InversionFilter, TetTwoVerticesQuadratic) {
  // Vertices 1 and 2 move by -3 along their axes: det = (1 - 3a)^2 = 0.1.
  VecX p = VecX::Zero(12);
  p[3] = -3.0;
  p[7] = -3.0;
  check<3>(p, (1.0 - std::sqrt(0.1)) / 3.0, "tet, quadratic");
}

TEST(InversionFilter, HarmlessStepsAreNotLimited) {
  auto tri = unit_simplex<2>();
  VecX p = VecX::Zero(6);
  p[5] = 0.5;  // grows the triangle
  EXPECT_EQ(tri.term->max_step_fraction(tri.ctx(), tri.model->rest_positions, p), 1.0);
  p[5] = -0.5;  // shrinks it to 50%: allowed
  EXPECT_EQ(tri.term->max_step_fraction(tri.ctx(), tri.model->rest_positions, p), 1.0);
  auto tet = unit_simplex<3>();
  VecX q = VecX::Zero(12);
  q.setConstant(0.7);  // rigid translation
  EXPECT_EQ(tet.term->max_step_fraction(tet.ctx(), tet.model->rest_positions, q), 1.0);
  // The model's filter is the minimum over its terms.
  VecX r = VecX::Zero(12);
  r[11] = -2.0;
  EXPECT_NEAR(tet.model->max_step_fraction(tet.ctx(), tet.model->rest_positions, r), 0.45, 1e-12);
}

}  // namespace
}  // namespace softsim::test
