// Rotation-variant SVD and polar decomposition.
#include <gtest/gtest.h>

#include "material/material_test_util.hpp"
#include "softsim/material/svd.hpp"

namespace softsim::test {
namespace {

template <int D>
void check_svd() {
  for (const auto& [sample, F] : deformation_samples<D>(2024u)) {
    SCOPED_TRACE("D=" + std::to_string(D) + " at " + sample.label);
    const RotationVariantSvd<D> svd = rotation_variant_svd<D>(F);
    const MatD<D> I = MatD<D>::Identity();
    EXPECT_LE((svd.U * svd.sigma.asDiagonal() * svd.V.transpose() - F).norm(), 1e-14 * F.norm());
    EXPECT_LE((svd.U.transpose() * svd.U - I).norm(), 1e-14);
    EXPECT_LE((svd.V.transpose() * svd.V - I).norm(), 1e-14);
    EXPECT_NEAR(svd.U.determinant(), 1.0, 1e-14);
    EXPECT_NEAR(svd.V.determinant(), 1.0, 1e-14);
    for (int i = 0; i + 1 < D; ++i) {
      EXPECT_GE(svd.sigma(i), 0.0);
      EXPECT_GE(svd.sigma(i), std::abs(svd.sigma(i + 1)) - 1e-15);
    }
    EXPECT_EQ(svd.sigma(D - 1) < 0.0, sample.inverted);
    EXPECT_EQ(F.determinant() < 0.0, sample.inverted);

    const PolarDecomposition<D> polar = polar_decomposition<D>(F);
    EXPECT_LE((polar.R * polar.S - F).norm(), 1e-14 * F.norm());
    EXPECT_LE((polar.R.transpose() * polar.R - I).norm(), 1e-14);
    EXPECT_NEAR(polar.R.determinant(), 1.0, 1e-14);
    EXPECT_EQ(polar.S, polar.S.transpose());
  }
}

TEST(RotationVariantSvd, FactorsWithProperRotations) {
  check_svd<2>();
  check_svd<3>();
}

TEST(PolarDecomposition, RotationOfAStretchedRotation) {
  std::mt19937 rng(8);
  const Mat3 Q = random_rotation<3>(rng);
  Mat3 S;
  S << 1.5, 0.2, 0.0, 0.2, 0.8, 0.1, 0.0, 0.1, 1.1;  // SPD
  const PolarDecomposition<3> polar = polar_decomposition<3>(Q * S);
  EXPECT_LE((polar.R - Q).norm(), 1e-14);
  EXPECT_LE((polar.S - S).norm(), 1e-14);
}

}  // namespace
}  // namespace softsim::test
