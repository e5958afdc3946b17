// The three volume laws of Larionov et al. 2022, §3.4: derivatives against finite differences, values at
// points of Figure 3, the sign convention (minimum at V0, growing under compression) and the
// second-order agreement of the quadratic law with the ideal gas for kappa_v = 1 atm^-1.
#include <gtest/gtest.h>

#include <cmath>

#include "softsim/volume/volume_law.hpp"
#include "volume/all_volume_models.hpp"

namespace softsim {
namespace {

VolumeLaw law(VolumeModel model, double kappa_atm = 1.0, double V0 = 1.0) {
  VolumeLaw w;
  w.model = model;
  w.rest_volume = V0;
  w.compressibility = kappa_atm / kAtmosphere;
  return w;
}

TEST(VolumeLaw, DerivativesMatchFiniteDifferences) {
  for (VolumeModel m : test::kAllVolumeModels) {
    SCOPED_TRACE(to_string(m));
    const VolumeLaw w = law(m, 0.3, 2.0);
    for (double V : {0.4, 1.3, 2.0, 2.7, 5.0}) {
      const double h = 1e-6 * V;
      const double dW = (w.energy(V + h) - w.energy(V - h)) / (2 * h);
      const double d2W = (w.derivative(V + h) - w.derivative(V - h)) / (2 * h);
      EXPECT_NEAR(w.derivative(V), dW, 1e-6 * std::max(1.0, std::abs(dW)));
      EXPECT_NEAR(w.second_derivative(V), d2W, 1e-6 * std::abs(d2W));
    }
  }
}

TEST(VolumeLaw, MinimalAtRestVolumeAndGrowingUnderCompression) {
  for (VolumeModel m : test::kAllVolumeModels) {
    SCOPED_TRACE(to_string(m));
    const VolumeLaw w = law(m);
    EXPECT_EQ(w.energy(1.0), 0.0);
    EXPECT_EQ(w.derivative(1.0), 0.0);
    double previous = 0.0;
    for (double V = 0.95; V > 0.2; V -= 0.05) {  // compression: energy grows, pressure pushes out
      EXPECT_GT(w.energy(V), previous);
      EXPECT_GT(w.gauge_pressure(V), 0.0);
      previous = w.energy(V);
    }
    EXPECT_GT(w.energy(1.5), 0.0);
    EXPECT_LT(w.gauge_pressure(1.5), 0.0);  // expansion: the ambient pressure pushes in
    EXPECT_GT(w.second_derivative(0.5), 0.0);
  }
}

TEST(VolumeLaw, ValuesOfFigure3) {
  // V0 = 1 m^3, kappa_v = 1 atm^-1, P0 = 1 atm (energies in atm m^3).
  const double P0 = kAtmosphere;
  const VolumeLaw w2 = law(VolumeModel::Quadratic), ig = law(VolumeModel::IdealGas),
                  ni = law(VolumeModel::NearlyIncompressible);
  // Half the volume: eq. 18: 1/2 - (1 + ln 1/2); eq. 19: 1 - 1/2 (1 - ln 1/2); eq. 20: 1/8.
  EXPECT_NEAR(ig.energy(0.5) / P0, 0.5 - (1.0 + std::log(0.5)), 1e-14);
  EXPECT_NEAR(ni.energy(0.5) / P0, 1.0 - 0.5 * (1.0 - std::log(0.5)), 1e-14);
  EXPECT_NEAR(w2.energy(0.5) / P0, 0.125, 1e-14);
  // "too weak for excessive compression but too strong during large expansion"
  EXPECT_LT(w2.energy(0.5), ni.energy(0.5));
  EXPECT_LT(ni.energy(0.5), ig.energy(0.5));
  EXPECT_GT(w2.energy(2.0), ni.energy(2.0));
  EXPECT_GT(w2.energy(2.0), ig.energy(2.0));
  // Pressures: Boyle's law and the logarithmic law of a constant compressibility.
  EXPECT_NEAR(ig.gauge_pressure(0.5), P0, 1e-9);  // P = 2 P0
  EXPECT_NEAR(ni.gauge_pressure(0.5), P0 * std::log(2.0), 1e-9);
  EXPECT_NEAR(w2.gauge_pressure(0.5), 0.5 * P0, 1e-9);
}

TEST(VolumeLaw, QuadraticIsTheSecondOrderApproximation) {
  // W2 - W_ig = O(e^3) for kappa_v = 1 atm^-1 (eq. 20 and the text after it), and W2 - W_ni =
  // O(e^3) for any kappa_v: halving e divides the difference by 8.
  for (auto [other, kappa] : {std::pair{VolumeModel::IdealGas, 1.0}, std::pair{VolumeModel::NearlyIncompressible, 0.01}}) {
    SCOPED_TRACE(to_string(other));
    const VolumeLaw w2 = law(VolumeModel::Quadratic, kappa), wo = law(other, kappa);
    for (double sign : {-1.0, 1.0}) {
      const double e = sign * 0.02;
      const double d1 = w2.energy(1.0 + e) - wo.energy(1.0 + e);
      const double d2 = w2.energy(1.0 + e / 2) - wo.energy(1.0 + e / 2);
      EXPECT_NEAR(d1 / d2, 8.0, 0.2);
      EXPECT_LT(std::abs(d1), 0.02 * w2.energy(1.0 + e));
    }
  }
}

TEST(VolumeLaw, PressurisedIdealGasBalancesAtBoylesVolume) {
  VolumeLaw w = law(VolumeModel::IdealGas);
  w.rest_pressure = 2.0 * kAtmosphere;  // a tennis ball: 1 atm above the ambient pressure
  EXPECT_NEAR(w.gauge_pressure(1.0), kAtmosphere, 1e-9);
  EXPECT_NEAR(w.derivative(2.0), 0.0, 1e-9);  // P V = 2 P0 V0 = P0 (2 V0)
  EXPECT_TRUE(std::isinf(w.energy(0.0)));
  EXPECT_TRUE(std::isinf(law(VolumeModel::NearlyIncompressible).energy(-0.1)));
}

}  // namespace
}  // namespace softsim
