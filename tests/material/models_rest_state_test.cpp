// At F = I every model has zero energy, zero stress, and linearises to the linear-elasticity
// tensor C = mu (I + K) + lambda vec(I) vec(I)^T built here entry by entry; arap has only the mu
// part. This pins down the Lame parametrisation, including stable neo-Hookean's mu', lambda'.
#include <gtest/gtest.h>

#include "material/material_test_util.hpp"

namespace softsim::test {
namespace {

template <int D>
MatD<D * D> linear_elasticity_tensor(double mu, double lambda) {
  MatD<D * D> C;
  for (int i = 0; i < D; ++i)
    for (int j = 0; j < D; ++j)
      for (int k = 0; k < D; ++k)
        for (int l = 0; l < D; ++l)
          C(i + D * j, k + D * l) =
              mu * ((i == k && j == l) + (i == l && j == k)) + lambda * (i == j && k == l);
  return C;
}

template <int D>
void check_rest_state(const std::string& model) {
  for (const LameParameters& lame : test_lame_parameters()) {
    SCOPED_TRACE(model + " D=" + std::to_string(D) + " mu=" + std::to_string(lame.mu));
    const auto material = make_material<D>(model, lame);
    const double scale = lame.mu + lame.lambda;
    MatD<D> P;
    MatD<D * D> dPdF;
    const double psi = material->evaluate(MatD<D>::Identity(), &P, &dPdF, false);
    EXPECT_LE(std::abs(psi), 1e-14 * scale);
    EXPECT_LE(P.norm(), 1e-13 * scale);
    const double lambda = model == "arap" ? 0.0 : lame.lambda;
    const MatD<D * D> C = linear_elasticity_tensor<D>(lame.mu, lambda);
    EXPECT_LE((dPdF - C).norm(), 1e-12 * C.norm()) << "dPdF =\n" << dPdF << "\nexpected\n" << C;
  }
}

class RestState : public ::testing::TestWithParam<std::string> {};

TEST_P(RestState, ZeroEnergyZeroStressAndLinearElasticityTangent) {
  check_rest_state<2>(GetParam());
  check_rest_state<3>(GetParam());
}

INSTANTIATE_TEST_SUITE_P(AllModels, RestState, ::testing::ValuesIn(material_model_names()),
                         [](const auto& info) { return info.param; });

// The tensor itself: a uniaxial strain eps = e e_0 e_0^T must give the textbook stresses
// P_00 = (2 mu + lambda) e, P_11 = lambda e, so the helper above is not a tautology.
TEST(RestState, LinearElasticityTensorUniaxialStrain) {
  const MatD<3 * 3> C = linear_elasticity_tensor<3>(2.0, 5.0);
  VecD<9> dF = VecD<9>::Zero();
  dF(0) = 1e-3;
  const VecD<9> dP = C * dF;
  EXPECT_DOUBLE_EQ(dP(0), 9e-3);
  EXPECT_DOUBLE_EQ(dP(4), 5e-3);
  EXPECT_DOUBLE_EQ(dP(8), 5e-3);
  EXPECT_EQ(dP(1), 0.0);
}

}  // namespace
}  // namespace softsim::test
