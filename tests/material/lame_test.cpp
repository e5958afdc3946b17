// Young's modulus / Poisson ratio <-> Lame parameters.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "softsim/material/material.hpp"

namespace softsim {
namespace {

TEST(LameParameters, KnownValue) {
  const LameParameters lame = LameParameters::from_young_poisson(1e5, 0.4);
  EXPECT_NEAR(lame.mu, 35714.285714285714, 1e-9);
  EXPECT_NEAR(lame.lambda, 142857.14285714286, 1e-8);
  EXPECT_NEAR(lame.youngs_modulus(), 1e5, 1e-9);
  EXPECT_NEAR(lame.poisson_ratio(), 0.4, 1e-15);
}

TEST(LameParameters, RoundTrip) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> logE(0.0, 10.0), nu(-0.95, 0.499);
  for (int k = 0; k < 100; ++k) {
    const double E = std::pow(10.0, logE(rng));
    const double n = nu(rng);
    const LameParameters lame = LameParameters::from_young_poisson(E, n);
    EXPECT_NEAR(lame.youngs_modulus() / E, 1.0, 1e-12);
    EXPECT_NEAR(lame.poisson_ratio(), n, 1e-12);
    const LameParameters back = LameParameters::from_young_poisson(lame.youngs_modulus(), lame.poisson_ratio());
    EXPECT_NEAR(back.mu / lame.mu, 1.0, 1e-12);
    EXPECT_NEAR(back.lambda, lame.lambda, 1e-11 * (std::abs(lame.lambda) + lame.mu));
  }
}

TEST(LameParameters, RejectsOutOfRangePoissonRatio) {
  EXPECT_THROW(LameParameters::from_young_poisson(1e5, 0.5), std::invalid_argument);
  EXPECT_THROW(LameParameters::from_young_poisson(1e5, -1.0), std::invalid_argument);
  EXPECT_THROW(LameParameters::from_young_poisson(-1.0, 0.3), std::invalid_argument);
}

}  // namespace
}  // namespace softsim
