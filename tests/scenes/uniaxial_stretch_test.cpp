// Uniaxial stretch of a bar with free lateral faces. The end faces slide on planes with normal x
// (slip conditions); the left face's centre vertex is fixed and a second left-face vertex
// (on the z axis of the face) slides along z only, which removes the rigid modes without
// restraining the lateral contraction; the right face starts, and stays, at the stretched length.
// The exact solution is the homogeneous uniaxial-stress state F = diag(a, b, b), which the linear
// elements contain, so the reaction force (sum of the x-components of the elastic gradient over
// the right face) must match the analytic nominal force P11 * A0 to round-off (checked at 1e-6).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "support/fem_models.hpp"
#include "softsim/fem/mass.hpp"
#include "softsim/fem/simplex_elasticity.hpp"
#include "softsim/material/material.hpp"
#include "softsim/mesh/generators.hpp"

namespace softsim::test {
namespace {

struct StretchResult {
  double reaction_right = 0.0, reaction_left = 0.0;
  double lateral_stretch = 0.0;  // mean |y| growth of lateral face vertices
};

// Bar [-1, 1] x [-.5, .5]^2 (A0 = 1), stretched to length 2 a.
StretchResult stretch_bar(const std::string& material_name, const LameParameters& lame, double a) {
  const Mesh mesh = generate_box(Vec3(2.0, 1.0, 1.0), Eigen::Vector3i(4, 2, 2));
  const int n = mesh.num_vertices();
  Model model(3);
  model.add_vertices(mesh.vertices);
  std::shared_ptr<const Material<3>> material = make_material<3>(material_name, lame);
  auto term = std::make_unique<SimplexElasticity<3>>(mesh.cells, mesh.vertices, material, "bar");
  const SimplexElasticity<3>* elastic = term.get();
  add_simplex_mass(model, mesh.cells, term->rest_volumes(), 1000.0, true);
  model.add_energy(std::move(term));
  model.finalize();
  model.boundary.set_dimensions(n, 3);

  SlipCondition left, right, left_line;
  left.direction = right.direction = Vec3::UnitX();
  left_line.direction = Vec3::UnitZ();
  left_line.line = true;
  int centre = -1, on_z_axis = -1;
  std::vector<int> right_face, lateral;
  for (int i = 0; i < n; ++i) {
    const Vec3 X = mesh.vertices.row(i).transpose();
    if (std::abs(X.x() + 1.0) < 1e-12) {
      if (X.tail<2>().norm() < 1e-12) {
        centre = i;
      } else if (std::abs(X.y()) < 1e-12 && std::abs(X.z() - 0.5) < 1e-12) {
        on_z_axis = i;
        left_line.vertices.push_back(i);
      } else {
        left.vertices.push_back(i);
      }
    } else if (std::abs(X.x() - 1.0) < 1e-12) {
      right.vertices.push_back(i);
      right_face.push_back(i);
    }
    if (std::abs(std::abs(X.y()) - 0.5) < 1e-12) lateral.push_back(i);
  }
  EXPECT_GE(centre, 0);
  EXPECT_GE(on_z_axis, 0);
  EXPECT_EQ(right_face.size(), 9u);
  model.boundary.add_motion(hold_vertex(centre, VecX::Zero(3)));
  model.boundary.add_slip(left);
  model.boundary.add_slip(left_line);
  model.boundary.add_slip(right);

  // Start uniformly stretched along x (the slip conditions keep the end faces' x).
  VecX x0 = model.rest_positions;
  for (int i = 0; i < n; ++i) x0[3 * i] = -1.0 + a * (x0[3 * i] + 1.0);
  const VecX x = static_equilibrium(model, x0);

  const VecX g = term_gradient(test::Evaluation(model).ctx(), *elastic, x);
  StretchResult r;
  for (int i : right_face) r.reaction_right += g[3 * i];
  for (int i = 0; i < n; ++i)
    if (std::abs(mesh.vertices(i, 0) + 1.0) < 1e-12) r.reaction_left += g[3 * i];
  for (int i : lateral) r.lateral_stretch += std::abs(x[3 * i + 1]) / 0.5;
  r.lateral_stretch /= lateral.size();
  // The end faces stayed on their planes.
  for (int i : right_face) EXPECT_NEAR(x[3 * i], -1.0 + 2.0 * a, 1e-12);
  return r;
}

TEST(UniaxialStretch, LinearElasticityForceIsEAEps) {
  const double E = 1e5, nu = 0.3, eps = 0.01;
  const LameParameters lame = LameParameters::from_young_poisson(E, nu);
  const StretchResult r = stretch_bar("linear", lame, 1.0 + eps);
  const double expected = E * 1.0 * eps;
  const double rel = std::abs(r.reaction_right - expected) / expected;
  std::printf("[ stretch ] linear: reaction %.12g expected E A eps = %.12g rel err %.2e; lateral stretch %.10f "
              "(expected %.10f)\n",
              r.reaction_right, expected, rel, r.lateral_stretch, 1.0 - nu * eps);
  EXPECT_LT(rel, 1e-6);
  EXPECT_NEAR(r.reaction_left, -r.reaction_right, 1e-8 * expected);
  EXPECT_NEAR(r.lateral_stretch, 1.0 - nu * eps, 1e-9);
}

// Compressible neo-Hookean, Psi = mu/2 (tr F^T F - 3) - mu ln J + lambda/2 ln^2 J, under F =
// diag(a, b, b): P = mu (F - F^-T) + lambda ln J F^-T. The lateral stretch b solves P22 = 0:
// mu (b^2 - 1) + lambda ln(a b^2) = 0; the nominal force is P11 A0 = mu (a - 1/a) + lambda ln(a b^2) / a.
double nh_lateral_stretch(const LameParameters& lame, double a) {
  double b = 1.0;
  for (int it = 0; it < 50; ++it) {
    const double f = lame.mu * (b * b - 1.0) + lame.lambda * std::log(a * b * b);
    const double df = 2.0 * lame.mu * b + 2.0 * lame.lambda / b;
    const double step = f / df;
    b -= step;
    if (std::abs(step) < 1e-15) break;
  }
  return b;
}

TEST(UniaxialStretch, NeoHookeanNominalForceMatchesUniaxialStressSolution) {
  const LameParameters lame = LameParameters::from_young_poisson(1e5, 0.3);
  for (double a : {1.05, 1.3, 0.85}) {
    SCOPED_TRACE("stretch " + std::to_string(a));
    const double b = nh_lateral_stretch(lame, a);
    const double J = a * b * b;
    const double expected = lame.mu * (a - 1.0 / a) + lame.lambda * std::log(J) / a;
    const StretchResult r = stretch_bar("neo_hookean", lame, a);
    const double rel = std::abs(r.reaction_right - expected) / std::abs(expected);
    std::printf("[ stretch ] neo_hookean a=%.2f: reaction %.12g expected %.12g rel err %.2e; lateral stretch %.10f "
                "(expected %.10f)\n",
                a, r.reaction_right, expected, rel, r.lateral_stretch, b);
    EXPECT_LT(rel, 1e-6);
    EXPECT_NEAR(r.lateral_stretch, b, 1e-8);
  }
}

}  // namespace
}  // namespace softsim::test
