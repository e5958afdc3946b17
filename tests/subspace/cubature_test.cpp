// Cubature (subspace/cubature.hpp, body_cubature.hpp):
//  - a target made of 3 of 60 columns with positive weights is found exactly, those 3 columns;
//  - on a 2D cantilever's 20-column basis (the model's second body, so that body-local and global
//    ids differ), the fitted elements reproduce the reduced elastic force at poses that were not
//    trained on, to a few times the training tolerance, with a small fraction of the elements;
//    the training poses are deterministic.
#include "softsim/subspace/cubature.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <nlohmann/json.hpp>

#include "softsim/fem/simplex_elasticity.hpp"
#include "softsim/model/model_data.hpp"
#include "softsim/scene/scene.hpp"
#include "softsim/subspace/body_bases.hpp"
#include "softsim/subspace/body_cubature.hpp"

namespace softsim {
namespace {

TEST(Cubature, FindsAnExactSparseCombination) {
  const MatX columns = MatX::Random(40, 60);
  const VecX target = 2.0 * columns.col(3) + 0.5 * columns.col(17) + 1.0 * columns.col(41);
  CubatureOptions options;
  options.tolerance = 1e-10;
  const Cubature c = fit_cubature(60, [&](int e, VecX& out) { out = columns.col(e); }, target, options);
  ASSERT_EQ(c.elements.size(), 3u);
  std::vector<std::pair<int, double>> found;
  for (std::size_t k = 0; k < 3; ++k) found.emplace_back(c.elements[k], c.weights[k]);
  std::sort(found.begin(), found.end());
  EXPECT_EQ(found[0].first, 3);
  EXPECT_EQ(found[1].first, 17);
  EXPECT_EQ(found[2].first, 41);
  EXPECT_NEAR(found[0].second, 2.0, 1e-10);
  EXPECT_NEAR(found[1].second, 0.5, 1e-10);
  EXPECT_NEAR(found[2].second, 1.0, 1e-10);
  EXPECT_LT(c.relative_error, 1e-10);
}

Model cubature_cantilever() {
  const nlohmann::json j = R"json({
    "dim": 2,
    "bodies": [{"name": "block", "generator": {"type": "rectangle", "size": [1.0, 1.0], "resolution": [2, 2]},
                "material": {"E": 1e5, "density": 500}, "transform": {"translate": [0, 5]}},
               {"name": "beam", "generator": {"type": "rectangle", "size": [15.0, 1.0], "resolution": [60, 4]},
                "material": {"model": "neo_hookean", "E": 5e7, "nu": 0.3, "density": 500},
                "fixed": [{"box": [[-7.51, -1], [-7.49, 1]]}]}]
  })json"_json;
  return build_model(parse_scene(j, "cantilever.json"));
}

constexpr int kBeam = 1;

// U^T of the model's elastic gradient at the beam's x0 + U q.
VecX reduced_force(const Model& model, const ReducedBasis& basis, const VecX& q) {
  const ModelData data(model);
  const Stage stage;
  const int first = model.bodies[kBeam].first_vertex * 2, count = static_cast<int>(basis.columns.rows());
  VecX x = model.rest_positions;
  x.segment(first, count) += basis.columns * q;
  VecX g = VecX::Zero(model.num_dofs());
  model.potential(EvalContext{stage, data}, x, AssemblyOutputs{&g, nullptr, 1.0, false});
  g += model.external_force();  // elastic part only
  return basis.columns.transpose() * g.segment(first, count);
}

TEST(Cubature, CantileverForcesAtUntrainedPoses) {
  Model model = cubature_cantilever();
  const ReducedBasis basis = modal_derivative_basis(model, kBeam, 20);
  BodyCubatureOptions options;
  options.fit.tolerance = 0.01;
  options.fit.max_elements = 400;
  const Cubature c = body_cubature(model, kBeam, basis, options);
  const Cubature again = body_cubature(model, kBeam, basis, options);
  EXPECT_EQ(c.elements, again.elements);
  const int elements = 60 * 4 * 2;
  std::printf("cubature: %zu of %d elements, training error %.3g\n", c.elements.size(), elements, c.relative_error);
  EXPECT_LT(c.relative_error, 0.01);
  EXPECT_LT(static_cast<int>(c.elements.size()), elements / 3);
  // Poses drawn the same way with another seed: the weighted elements against all of them.
  const MatX q = training_coordinates(basis, 15.03, 10, 0.1, 12345);
  std::vector<double> weights(elements, 0.0);
  for (std::size_t k = 0; k < c.elements.size(); ++k) weights[c.elements[k]] = c.weights[k];
  double worst = 0.0;
  for (int p = 0; p < q.cols(); ++p) {
    const VecX full = reduced_force(model, basis, q.col(p));
    auto& term = dynamic_cast<SimplexElasticity<2>&>(*model.energies()[model.bodies[kBeam].elasticity_term]);
    term.set_element_weights(weights);
    const VecX approx = reduced_force(model, basis, q.col(p));
    term.set_element_weights({});
    worst = std::max(worst, (approx - full).norm() / full.norm());
  }
  std::printf("largest relative error of the reduced force at 10 untrained poses: %.3g\n", worst);
  EXPECT_LT(worst, 0.05);
}

}  // namespace
}  // namespace softsim
