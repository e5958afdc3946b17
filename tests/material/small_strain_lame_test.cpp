// The small-strain Lame parameters read back from a material's stress (material/small_strain_lame.hpp)
// are the ones it was made with, for every model that linearises to them.
#include "softsim/material/small_strain_lame.hpp"

#include <gtest/gtest.h>

#include <string>

namespace softsim {
namespace {

TEST(SmallStrainLame, IsTheLameParametersEveryModelWasMadeWith) {
  const LameParameters lame = LameParameters::from_young_poisson(1e5, 0.3);
  for (const std::string model : {"linear", "stvk", "neo_hookean", "stable_neo_hookean", "fixed_corotated"}) {
    const LameParameters read3 = small_strain_lame<3>(*make_material<3>(model, lame));
    const LameParameters read2 = small_strain_lame<2>(*make_material<2>(model, lame));
    EXPECT_NEAR(read3.mu / lame.mu, 1.0, 1e-6) << model;
    EXPECT_NEAR(read3.lambda / lame.lambda, 1.0, 1e-6) << model;
    EXPECT_NEAR(read2.mu / lame.mu, 1.0, 1e-6) << model;
    EXPECT_NEAR(read2.lambda / lame.lambda, 1.0, 1e-6) << model;
  }
}

// ARAP has no volume term: mu only. Corotated linear elasticity, evaluated without a frozen
// rotation, is linear elasticity near F = I.
TEST(SmallStrainLame, ArapHasNoLambdaAndCorotatedLinearIsLinear) {
  const LameParameters lame = LameParameters::from_young_poisson(1e5, 0.3);
  const LameParameters arap = small_strain_lame<3>(*make_material<3>("arap", lame));
  EXPECT_NEAR(arap.mu / lame.mu, 1.0, 1e-6);
  EXPECT_NEAR(arap.lambda / lame.mu, 0.0, 1e-6);
  const LameParameters corotated = small_strain_lame<3>(*make_material<3>("corotated_linear", lame));
  EXPECT_NEAR(corotated.mu / lame.mu, 1.0, 1e-6);
  EXPECT_NEAR(corotated.lambda / lame.lambda, 1.0, 1e-6);
}

TEST(SmallStrainLame, RefusesAMaterialWithoutStiffness) {
  const LameParameters none{0.0, 0.0};
  EXPECT_THROW(small_strain_lame<3>(*make_material<3>("linear", none)), std::invalid_argument);
}

}  // namespace
}  // namespace softsim
