// Rotation invariance Psi(Q F) = Psi(F) for the models that claim it, and an honest flag for
// those that do not (linear elasticity changes energy under a rigid rotation).
#include <gtest/gtest.h>

#include "material/material_test_util.hpp"

namespace softsim::test {
namespace {

template <int D>
void check_invariance(const std::string& model) {
  const LameParameters lame{1.3, 2.9};
  const auto material = make_material<D>(model, lame);
  std::mt19937 rng(77);
  double max_rel_change = 0.0;
  for (const auto& [sample, F] : deformation_samples<D>(99u)) {
    if (sample.inverted && !material->defined_when_inverted()) continue;
    const double psi = material->energy_density(F);
    for (int k = 0; k < 4; ++k) {
      const MatD<D> Q = random_rotation<D>(rng);
      const double rel = std::abs(material->energy_density(Q * F) - psi) / (lame.mu + lame.lambda);
      max_rel_change = std::max(max_rel_change, rel);
      if (material->rotation_invariant()) {
        EXPECT_LT(rel, 1e-12) << model << " D=" << D << " at " << sample.label;
        // Isotropy (Psi(F Q) = Psi(F)) holds for all the invariant models here.
        EXPECT_LT(std::abs(material->energy_density(F * Q) - psi) / (lame.mu + lame.lambda), 1e-12);
      }
    }
  }
  if (!material->rotation_invariant()) {
    // Rotations of a random F change the energy at O(1): the flag is not merely conservative.
    EXPECT_GT(max_rel_change, 1e-2) << model << " D=" << D;
  }
}

class RotationInvariance : public ::testing::TestWithParam<std::string> {};

TEST_P(RotationInvariance, FlagIsHonest) {
  check_invariance<2>(GetParam());
  check_invariance<3>(GetParam());
}

INSTANTIATE_TEST_SUITE_P(AllModels, RotationInvariance, ::testing::ValuesIn(material_model_names()),
                         [](const auto& info) { return info.param; });

TEST(RotationInvariance, OnlyLinearModelsAreNotInvariant) {
  for (const auto& name : material_model_names()) {
    const bool linear = name == "linear" || name == "corotated_linear";
    EXPECT_EQ(make_material<3>(name, {1.0, 1.0})->rotation_invariant(), !linear) << name;
    EXPECT_EQ(make_material<2>(name, {1.0, 1.0})->rotation_invariant(), !linear) << name;
  }
}

TEST(RotationInvariance, LinearEnergyOfARigidRotation) {
  // 2D rotation by theta: eps = (cos - 1) I, so Psi = mu 2 c^2 + lambda/2 (2 c)^2, c = cos - 1.
  const double mu = 1.3, lambda = 2.9, theta = 0.5;
  Mat2 R;
  R << std::cos(theta), -std::sin(theta), std::sin(theta), std::cos(theta);
  const double c = std::cos(theta) - 1.0;
  const double expected = mu * 2.0 * c * c + 0.5 * lambda * 4.0 * c * c;
  EXPECT_NEAR(make_material<2>("linear", {mu, lambda})->energy_density(R), expected, 1e-14);
}

}  // namespace
}  // namespace softsim::test
