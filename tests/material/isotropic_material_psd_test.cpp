// The analytic PSD projection (singular-value eigensystem) against the generic eigenvalue-
// clamped projection of the unprojected tangent: PSD, symmetric, identical for inputs that are
// already PSD, and equal to the numeric projection to 1e-8 relative.
#include <gtest/gtest.h>

#include "material/material_test_util.hpp"
#include "softsim/core/psd_projection.hpp"

namespace softsim::test {
namespace {

template <int D>
void check_projection(const std::string& model) {
  int indefinite_inputs = 0;
  for (const LameParameters& lame : test_lame_parameters()) {
    const auto material = make_material<D>(model, lame);
    std::mt19937 rng(5);
    auto samples = deformation_samples<D>(4321u);
    // Heavy compression and stretch make most models indefinite.
    samples.push_back({{"compressed", false}, with_singular_values<D>(rng, sv<D>(0.5, 0.4, 0.3))});
    samples.push_back({{"stretched", false}, with_singular_values<D>(rng, sv<D>(2.0, 1.5, 0.9))});
    for (const auto& [sample, F] : samples) {
      if (sample.inverted && !material->defined_when_inverted()) continue;
      SCOPED_TRACE(model + " D=" + std::to_string(D) + " at " + sample.label);
      MatD<D * D> K, Kp;
      material->evaluate(F, nullptr, &K, false);
      material->evaluate(F, nullptr, &Kp, true);
      const double scale = std::max(K.norm(), lame.mu + lame.lambda);
      EXPECT_LE((Kp - Kp.transpose()).norm(), 1e-14 * scale);
      EXPECT_GE(min_eigenvalue<D>(Kp), -1e-9 * scale);
      MatD<D * D> Kn = 0.5 * (K + K.transpose());
      if (min_eigenvalue<D>(Kn) < -1e-9 * scale) ++indefinite_inputs;
      project_psd(Kn);
      EXPECT_LE((Kp - Kn).norm(), 1e-8 * scale) << "analytic\n" << Kp << "\nnumeric\n" << Kn;
    }
  }
  // Not vacuous: the nonlinear models do produce indefinite tangents in these samples.
  if (model != "linear" && model != "corotated_linear") {
    EXPECT_GT(indefinite_inputs, 0) << model;
  }
}

template <int D>
void check_unchanged_when_psd(const std::string& model) {
  const LameParameters lame{1.3, 2.9};
  const auto material = make_material<D>(model, lame);
  std::mt19937 rng(11);
  const MatD<D> samples[] = {MatD<D>::Identity(), with_singular_values<D>(rng, sv<D>(1.02, 1.01, 1.03))};
  for (const MatD<D>& F : samples) {
    MatD<D * D> K, Kp;
    material->evaluate(F, nullptr, &K, false);
    material->evaluate(F, nullptr, &Kp, true);
    const double scale = K.norm();
    ASSERT_GE(min_eigenvalue<D>(K), -1e-12 * scale) << model << ": precondition, input is PSD";
    EXPECT_LE((Kp - K).norm(), 1e-12 * scale) << model << " D=" << D << "\n" << K << "\n" << Kp;
  }
}

class PsdProjection : public ::testing::TestWithParam<std::string> {};

TEST_P(PsdProjection, AnalyticMatchesNumericClamping) {
  check_projection<2>(GetParam());
  check_projection<3>(GetParam());
}

TEST_P(PsdProjection, UnchangedWhenAlreadyPsd) {
  check_unchanged_when_psd<2>(GetParam());
  check_unchanged_when_psd<3>(GetParam());
}

INSTANTIATE_TEST_SUITE_P(AllModels, PsdProjection, ::testing::ValuesIn(material_model_names()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace softsim::test
