// Assembly is deterministic: stencils are scattered colour by colour and the energy is summed in
// stencil order, so 1 thread and 2 threads must give bit-identical energy, gradient and Hessian.
// The meshes have thousands of stencils (many parallel blocks of kParallelGrain) so that with 2
// threads work really is split.
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <cstring>

#include "support/fem_models.hpp"
#include "softsim/fem/mass_spring.hpp"
#include "softsim/fem/simplex_elasticity.hpp"
#include "softsim/material/material.hpp"
#include "softsim/mesh/generators.hpp"

namespace softsim::test {
namespace {

struct Assembled {
  double energy = 0.0;
  VecX gradient;
  std::vector<double> hessian;
};

Assembled assemble(const Model& model, const VecX& x, int threads, bool project) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
  Assembled a;
  a.gradient = VecX::Zero(x.size());
  SparseMat H = model.layout().pattern();
  std::fill(H.valuePtr(), H.valuePtr() + H.nonZeros(), 0.0);
  AssemblyOutputs out{&a.gradient, &H, 0.75, project};
  a.energy = test::potential(model, x, out);
  a.hessian.assign(H.valuePtr(), H.valuePtr() + H.nonZeros());
  return a;
}

bool bit_identical(const double* a, const double* b, std::size_t n) { return std::memcmp(a, b, n * sizeof(double)) == 0; }

void expect_deterministic(const Model& model, const VecX& x) {
  for (bool project : {false, true}) {
    const Assembled one = assemble(model, x, 1, project);
    const Assembled two = assemble(model, x, 2, project);
    const Assembled two_again = assemble(model, x, 2, project);
    EXPECT_TRUE(bit_identical(&one.energy, &two.energy, 1)) << one.energy << " vs " << two.energy;
    EXPECT_TRUE(bit_identical(one.gradient.data(), two.gradient.data(), one.gradient.size()));
    ASSERT_EQ(one.hessian.size(), two.hessian.size());
    EXPECT_TRUE(bit_identical(one.hessian.data(), two.hessian.data(), one.hessian.size()));
    EXPECT_TRUE(bit_identical(two.hessian.data(), two_again.hessian.data(), two.hessian.size()));
    EXPECT_GT(one.gradient.norm(), 0.0);
  }
}

TEST(AssemblyDeterminism, Tets1And2ThreadsBitIdentical) {
  const Mesh mesh = generate_box(Vec3(1, 1, 1), Eigen::Vector3i(8, 8, 8));  // 2560 tets
  const LameParameters lame = LameParameters::from_young_poisson(1e5, 0.4);
  std::shared_ptr<const Material<3>> material = make_material<3>("neo_hookean", lame);
  auto built = make_one_term_model(mesh.vertices,
                                   std::make_unique<SimplexElasticity<3>>(mesh.cells, mesh.vertices, material, "box"));
  const VecX x = flatten_rows(mesh.vertices) + random_perturbation(mesh.vertices.size(), 0.01, 4u);
  expect_deterministic(*built.model, x);
}

TEST(AssemblyDeterminism, Triangles1And2ThreadsBitIdentical) {
  const Mesh mesh = generate_rectangle(Vec2(1, 1), Eigen::Vector2i(40, 40));  // 3200 triangles
  const LameParameters lame = LameParameters::from_young_poisson(1e5, 0.3);
  std::shared_ptr<const Material<2>> material = make_material<2>("stable_neo_hookean", lame);
  auto built = make_one_term_model(mesh.vertices,
                                   std::make_unique<SimplexElasticity<2>>(mesh.cells, mesh.vertices, material, "rect"));
  const VecX x = flatten_rows(mesh.vertices) + random_perturbation(mesh.vertices.size(), 0.003, 5u);
  expect_deterministic(*built.model, x);
}

TEST(AssemblyDeterminism, Springs1And2ThreadsBitIdentical) {
  const Mesh mesh = generate_spring_grid(Vec2(1, 1), Eigen::Vector2i(30, 30));
  auto built = make_one_term_model(mesh.vertices, std::make_unique<MassSpring<2>>(mesh.cells, mesh.vertices, 1e3));
  const VecX x = flatten_rows(mesh.vertices) + random_perturbation(mesh.vertices.size(), 0.005, 6u);
  expect_deterministic(*built.model, x);
}


// The difference-stencil scatter (springs) writes what the general scatter writes for the
// expanded local function (g, -g) and [[H, -H], [-H, H]]: the same bits, in 2D and 3D, with and
// without a Hessian, at a weight other than 1.
template <int D>
void expect_difference_scatter_matches_general(const MatX& rest, const MatXi& edges) {
  HessianLayout layout(static_cast<int>(rest.rows()), D);
  const int set = layout.add_stencils(edges);
  layout.finalize();
  const VecX x = flatten_rows(rest) + random_perturbation(rest.size(), 0.05, 11u);
  auto local_difference = [&](int e, VecD<D>* g, MatD<D>* H) {
    const VecD<D> d = x.segment<D>(edges(e, 0) * D) - x.segment<D>(edges(e, 1) * D);
    if (g) *g = (1.0 + e) * d + d.cwiseProduct(d);
    // Not symmetric, so that a transposed scatter would show.
    if (H) *H = (2.0 + e) * d * d.transpose() + MatD<D>::Identity() * (0.5 + e) + d * VecD<D>::Ones().transpose();
    return d.squaredNorm() * (1.0 + e);
  };
  auto local_general = [&](int e, Eigen::Matrix<double, 2 * D, 1>* g, Eigen::Matrix<double, 2 * D, 2 * D>* H) {
    VecD<D> gd;
    MatD<D> Hd;
    const double energy = local_difference(e, g ? &gd : nullptr, H ? &Hd : nullptr);
    if (g) *g << gd, -gd;
    if (H) *H << Hd, -Hd, -Hd, Hd;
    return energy;
  };
  for (bool with_hessian : {false, true}) {
    VecX g_general = VecX::Constant(x.size(), 0.25), g_difference = g_general;
    SparseMat H_general = layout.pattern(), H_difference = layout.pattern();
    std::fill(H_general.valuePtr(), H_general.valuePtr() + H_general.nonZeros(), 0.125);
    std::fill(H_difference.valuePtr(), H_difference.valuePtr() + H_difference.nonZeros(), 0.125);
    const AssemblyOutputs general{&g_general, with_hessian ? &H_general : nullptr, 0.75, false};
    const AssemblyOutputs difference{&g_difference, with_hessian ? &H_difference : nullptr, 0.75, false};
    const double E_general = assemble_stencils<2, D>(layout, set, general, local_general);
    const double E_difference = assemble_difference_stencils<D>(layout, set, difference, local_difference);
    EXPECT_TRUE(bit_identical(&E_general, &E_difference, 1));
    EXPECT_TRUE(bit_identical(g_general.data(), g_difference.data(), g_general.size()));
    EXPECT_TRUE(bit_identical(H_general.valuePtr(), H_difference.valuePtr(), H_general.nonZeros()));
    EXPECT_GT((g_general.array() - 0.25).abs().maxCoeff(), 0.0);  // something was scattered
    if (with_hessian) EXPECT_GT((H_general.coeffs().array() - 0.125).abs().maxCoeff(), 0.0);
  }
}

TEST(DifferenceStencils, ScatterAsTheGeneralAssemblyDoes) {
  const Mesh grid = generate_spring_grid(Vec2(1, 1), Eigen::Vector2i(6, 5));
  expect_difference_scatter_matches_general<2>(grid.vertices, grid.cells);
  MatX rest(4, 3);
  rest << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1;
  MatXi edges(6, 2);
  edges << 0, 1, 0, 2, 0, 3, 1, 2, 1, 3, 3, 2;
  expect_difference_scatter_matches_general<3>(rest, edges);
}

}  // namespace
}  // namespace softsim::test
