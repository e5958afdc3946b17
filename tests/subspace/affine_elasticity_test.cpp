// An affine body's elasticity by one element (subspace/affine_elasticity.hpp): every element of
// the body has the same F, so the one element weighted W / W_e gives the energy and, through the
// affine map, the gradient and Hessian in the body's coordinates of all m elements, to round-off;
// the rule is refused when the elements' F differ at the reference.
#include <gtest/gtest.h>

#include <algorithm>

#include "softsim/fem/simplex_elasticity.hpp"
#include "softsim/mesh/generators.hpp"
#include "softsim/model/model.hpp"
#include "softsim/model/subspace_map.hpp"
#include "softsim/subspace/affine_body.hpp"
#include "softsim/subspace/affine_elasticity.hpp"

namespace softsim {
namespace {

const Mesh& box() {
  static const Mesh mesh = generate_box(Vec3(1.0, 0.5, 0.4), Eigen::Vector3i(3, 2, 2));  // 72 tets
  return mesh;
}

std::unique_ptr<SimplexElasticity<3>> elasticity() {
  return std::make_unique<SimplexElasticity<3>>(
      box().cells, box().vertices, make_material<3>("neo_hookean", LameParameters::from_young_poisson(1e5, 0.4)),
      "box");
}

VecX flat(const MatX& rows) {
  const MatX t = rows.transpose();
  return Eigen::Map<const VecX>(t.data(), t.size());
}

// A model of the box with one elasticity term, its elements weighted by `weights` (empty: all).
struct BoxModel {
  Model model{3};
  ModelData data;
  explicit BoxModel(std::vector<double> weights) {
    model.add_vertices(box().vertices);
    for (int v = 0; v < box().num_vertices(); ++v) model.add_lumped_mass(v, 1.0);
    auto term = elasticity();
    if (!weights.empty()) term->set_element_weights(std::move(weights));
    model.add_energy(std::move(term));
    model.finalize();
    data = ModelData(model);
  }
  double evaluate(const VecX& x, VecX& g, SparseMat& H, bool project) const {
    const Stage stage = Stage::step(0.0, 0.01);
    g.setZero(x.size());
    H = model.layout().pattern();
    std::vector<Triplet> dynamic;
    return model.potential(EvalContext{stage, data}, x, {&g, &H, 1.0, project, &dynamic});
  }
};

TEST(AffineElasticity, OneElementGivesTheBodysEnergyGradientAndHessian) {
  // The reference: the rest shape stretched (an initial scale), still one F for all elements.
  MatX reference = box().vertices;
  reference.col(0) *= 1.2;
  std::vector<double> weights = affine_one_element_weights(*elasticity(), flat(reference));
  ASSERT_EQ(weights.size(), static_cast<std::size_t>(box().num_cells()));
  EXPECT_EQ(std::count_if(weights.begin(), weights.end(), [](double w) { return w > 0.0; }), 1);
  const BoxModel all({}), one(weights);

  SubspaceMapBuilder builder(box().num_vertices(), 3);
  std::vector<int> vertices(box().num_vertices());
  for (int v = 0; v < box().num_vertices(); ++v) vertices[v] = v;
  builder.add_group(vertices, affine_weights(reference, reference.colwise().mean().transpose()));
  const SubspaceMap map = builder.build();
  // An affine pose: stretched, sheared and turned, t anywhere.
  VecX y(12);
  y << 0.3, -0.2, 0.1, 1.1, 0.2, -0.1, -0.15, 0.9, 0.25, 0.05, -0.2, 1.3;
  const VecX x = map.positions(y);
  for (bool project : {false, true}) {
    VecX g_all, g_one;
    SparseMat H_all, H_one;
    const double E_all = all.evaluate(x, g_all, H_all, project);
    const double E_one = one.evaluate(x, g_one, H_one, project);
    EXPECT_GT(std::abs(E_all), 1.0);
    EXPECT_NEAR(E_one, E_all, 1e-12 * std::abs(E_all));
    const VecX gy_all = map.pull_back(g_all), gy_one = map.pull_back(g_one);
    EXPECT_LT((gy_one - gy_all).norm(), 1e-11 * gy_all.norm());
    const MatX Hy_all = MatX(map.pull_back(H_all)), Hy_one = MatX(map.pull_back(H_one));
    EXPECT_LT((Hy_one - Hy_all).norm(), 1e-11 * Hy_all.norm()) << "project " << project;
  }
}

TEST(AffineElasticity, RefusedWhenTheElementsDeformDifferently) {
  MatX reference = box().vertices;
  reference(5, 1) += 0.01;  // one vertex off: not an affine image of the rest shape
  EXPECT_TRUE(affine_one_element_weights(*elasticity(), flat(reference)).empty());
  EXPECT_FALSE(affine_one_element_weights(*elasticity(), flat(box().vertices)).empty());
  // A term that already counts by cubature is left as it is.
  auto weighted = elasticity();
  weighted->set_element_weights(std::vector<double>(box().num_cells(), 1.0));
  EXPECT_TRUE(affine_one_element_weights(*weighted, flat(box().vertices)).empty());
}

}  // namespace
}  // namespace softsim
