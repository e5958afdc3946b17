// Patch test: on irregular meshes (interior vertices randomly displaced), with every boundary
// vertex prescribed by an affine map x = A X + b, the static equilibrium reproduces the affine
// map at the interior vertices. A uniform F gives a uniform P, whose nodal forces cancel at every
// interior vertex, so the exact answer is in the discrete space for any hyperelastic model:
// the error must be at round-off / solver-tolerance level (1e-9 relative to the displacement).
#include <gtest/gtest.h>

#include <cstdio>

#include "support/fem_models.hpp"
#include "softsim/fem/mass.hpp"
#include "softsim/fem/simplex_elasticity.hpp"
#include "softsim/material/material.hpp"
#include "softsim/mesh/generators.hpp"

namespace softsim::test {
namespace {

template <int D>
double patch_error(const std::string& material_name, bool* any_interior) {
  Mesh mesh = D == 2 ? generate_rectangle(Vec2(1.0, 1.0), Eigen::Vector2i(5, 5))
                     : generate_box(Vec3(1.0, 1.0, 1.0), Eigen::Vector3i(3, 3, 3));
  const double cell = D == 2 ? 0.2 : 1.0 / 3.0;
  const int n = mesh.num_vertices();
  std::vector<char> boundary(n, 0);
  const VecX jitter = random_perturbation(n * D, 0.15 * cell, 17u + D);
  int interior = 0;
  for (int i = 0; i < n; ++i) {
    boundary[i] = mesh.vertices.row(i).cwiseAbs().maxCoeff() > 0.5 - 1e-9;
    if (!boundary[i]) {
      mesh.vertices.row(i) += jitter.segment(i * D, D).transpose();
      ++interior;
    }
  }
  *any_interior = interior > 0;

  Model model(D);
  model.add_vertices(mesh.vertices);
  std::shared_ptr<const Material<D>> material =
      make_material<D>(material_name, LameParameters::from_young_poisson(1e5, 0.3));
  auto term = std::make_unique<SimplexElasticity<D>>(mesh.cells, mesh.vertices, material, "patch mesh");
  add_simplex_mass(model, mesh.cells, term->rest_volumes(), 1000.0, true);
  model.add_energy(std::move(term));
  model.finalize();

  MatD<D> A = MatD<D>::Identity();
  A(0, 0) += 0.04;
  A(0, 1) += 0.015;
  A(1, 0) -= 0.02;
  A(1, 1) -= 0.03;
  if constexpr (D == 3) {
    A(2, 2) += 0.025;
    A(0, 2) -= 0.01;
    A(2, 1) += 0.02;
  }
  VecD<D> b = VecD<D>::Constant(0.01);
  b[1] = -0.02;
  model.boundary.set_dimensions(n, D);
  VecX target(n * D);
  for (int i = 0; i < n; ++i) {
    const VecD<D> X = mesh.vertices.row(i).transpose();
    target.segment<D>(i * D) = A * X + b;
    if (boundary[i]) model.boundary.add_motion(hold_vertex(i, VecX(A * X + b - X)));
  }
  const VecX x = static_equilibrium(model, model.rest_positions);
  double err = 0.0, scale = 0.0;
  for (int i = 0; i < n; ++i) {
    scale = std::max(scale, (target.segment<D>(i * D) - mesh.vertices.row(i).transpose()).norm());
    if (!boundary[i]) err = std::max(err, (x.segment<D>(i * D) - target.segment<D>(i * D)).norm());
  }
  const double relative = err / scale;
  std::printf("[ patch ] %s D=%d interior vertices %d: max error / max displacement = %.2e\n", material_name.c_str(),
              D, interior, relative);
  return relative;
}

TEST(PatchTest, Linear2DIrregularTriangles) {
  bool interior = false;
  EXPECT_LT(patch_error<2>("linear", &interior), 1e-9);
  EXPECT_TRUE(interior);
}

TEST(PatchTest, Linear3DIrregularTets) {
  bool interior = false;
  EXPECT_LT(patch_error<3>("linear", &interior), 1e-9);
  EXPECT_TRUE(interior);
}

TEST(PatchTest, NeoHookeanAlsoReproducesAffineMaps) {
  bool interior = false;
  EXPECT_LT(patch_error<2>("neo_hookean", &interior), 1e-9);
  EXPECT_LT(patch_error<3>("neo_hookean", &interior), 1e-9);
}

}  // namespace
}  // namespace softsim::test
