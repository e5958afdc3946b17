// The closed forms in F (neo-Hookean, stable neo-Hookean, StVK: Psi and P from invariants, no
// SVD) against the same model evaluated entirely through its singular values: evaluate() takes
// Psi and P from the former and dP/dF mostly from the latter, so they must be one function. A missing
// constant (e.g. the stable neo-Hookean rest offset) or a wrong stress term fails at 1e-12.
#include <gtest/gtest.h>

#include "material/material_test_util.hpp"
#include "softsim/material/isotropic_material.hpp"

namespace softsim::test {
namespace {

template <int D>
void check_closed_form(const std::string& model) {
  for (const LameParameters& lame : test_lame_parameters()) {
    const auto material = make_material<D>(model, lame);
    const auto* isotropic = dynamic_cast<const IsotropicMaterial<D>*>(material.get());
    if (!isotropic) return;  // linear models have no SVD path
    const double scale = lame.mu + lame.lambda;
    for (const auto& [sample, F] : deformation_samples<D>(4321u + D)) {
      if (sample.inverted && !material->defined_when_inverted()) continue;
      SCOPED_TRACE(model + " D=" + std::to_string(D) + " at " + sample.label);
      MatD<D> P, P_svd;
      MatD<D * D> dPdF, dPdF_svd;
      const double psi = material->evaluate(F, &P, &dPdF, true);
      const double psi_svd = isotropic->evaluate_by_svd(F, &P_svd, &dPdF_svd, true);
      EXPECT_NEAR(psi, psi_svd, 1e-12 * scale * std::max(1.0, std::abs(psi_svd) / scale));
      EXPECT_LE((P - P_svd).norm(), 1e-12 * scale * std::max(1.0, P_svd.norm() / scale));
      // The tangent comes from the SVD path or, where the model has one, its own closed form.
      EXPECT_LE((dPdF - dPdF_svd).norm(), 1e-11 * std::max(scale, dPdF_svd.norm()));
      EXPECT_EQ(material->energy_density(F), psi);
    }
  }
}

class ClosedForms : public ::testing::TestWithParam<std::string> {};

TEST_P(ClosedForms, AgreeWithTheSingularValuePath) {
  check_closed_form<2>(GetParam());
  check_closed_form<3>(GetParam());
}

INSTANTIATE_TEST_SUITE_P(AllModels, ClosedForms, ::testing::ValuesIn(material_model_names()),
                         [](const auto& info) { return info.param; });

// Neo-Hookean's barrier is decided on det F: P and dP/dF are zeroed, the energy is +infinity.
TEST(ClosedForms, NeoHookeanBarrierOnDetF) {
  const auto material = make_material<3>("neo_hookean", {1.0, 1.0});
  Mat3 F = Mat3::Identity();
  F(2, 2) = -0.5;
  Mat3 P = Mat3::Constant(7.0);
  Eigen::Matrix<double, 9, 9> dPdF = Eigen::Matrix<double, 9, 9>::Constant(7.0);
  EXPECT_EQ(material->evaluate(F, &P, &dPdF, true), std::numeric_limits<double>::infinity());
  EXPECT_EQ(P, Mat3::Zero());
  EXPECT_EQ(dPdF, (Eigen::Matrix<double, 9, 9>::Zero()));
}

}  // namespace
}  // namespace softsim::test
