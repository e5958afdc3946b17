// Rotation-variant SVD and polar decomposition.
#include <gtest/gtest.h>

#include <cstdio>
#include <limits>

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

// The reference the one-sided Jacobi SVD replaced: Eigen's two-sided JacobiSVD, with the
// reflection folded into the last (smallest) singular value.
template <int D>
RotationVariantSvd<D> reference_svd(const MatD<D>& F) {
  Eigen::JacobiSVD<MatD<D>, Eigen::NoQRPreconditioner> svd(F, Eigen::ComputeFullU | Eigen::ComputeFullV);
  RotationVariantSvd<D> out{svd.matrixU(), svd.singularValues(), svd.matrixV()};
  if (out.U.determinant() < 0.0) {
    out.U.col(D - 1) *= -1.0;
    out.sigma(D - 1) *= -1.0;
  }
  if (out.V.determinant() < 0.0) {
    out.V.col(D - 1) *= -1.0;
    out.sigma(D - 1) *= -1.0;
  }
  return out;
}

// Hard cases for a 3x3 SVD: random scales, (nearly) repeated, tiny and zero singular values, and
// inversions, each with random rotations on both sides.
std::vector<std::pair<std::string, Mat3>> hard_samples() {
  std::mt19937 rng(77);
  std::normal_distribution<double> n(0.0, 1.0);
  std::uniform_real_distribution<double> exponent(-6.0, 6.0);
  std::vector<std::pair<std::string, Mat3>> out;
  for (int k = 0; k < 300; ++k) {
    Mat3 F;
    for (int i = 0; i < 9; ++i) F.data()[i] = n(rng);
    out.push_back({"random " + std::to_string(k) + (F.determinant() < 0 ? " (inverted)" : ""),
                   std::pow(10.0, exponent(rng)) * F});
  }
  const std::vector<std::pair<std::string, Vec3>> spectra = {
      {"identity", {1, 1, 1}},
      {"all equal", {0.8, 0.8, 0.8}},
      {"all equal, inverted", {0.8, 0.8, -0.8}},
      {"two equal (large)", {1.3, 1.3, 0.7}},
      {"two equal (small)", {1.3, 0.7, 0.7}},
      {"two equal, inverted", {1.3, 0.7, -0.7}},
      {"nearly equal 1e-9", {1.1, 1.1 + 1e-9, 0.6}},
      {"nearly equal 1e-14", {1.1, 1.1 * (1 + 1e-14), 0.6}},
      {"nearly equal 1e-14, inverted", {1.1, 0.6, -0.6 * (1 + 1e-14)}},
      {"small 1e-3", {1.2, 1e-3, 0.8}},
      {"small 1e-8", {1.2, 1e-8, 0.8}},
      {"two small 1e-8", {1.2, 1e-8, 2e-8}},
      {"small 1e-12, inverted", {1.2, 0.8, -1e-12}},
      {"rank 2 (zero)", {1.2, 0.8, 0.0}},
      {"rank 1", {1.2, 0.0, 0.0}},
      {"zero", {0.0, 0.0, 0.0}},
      {"inverted", {1.1, -0.4, 0.9}},
      {"inverted, reflection", {1.0, -1e-3, 1.0}},
      {"reflection", {1.0, 1.0, -1.0}},
      {"flat inverted", {2.0, 1.0, -1e-6}},
      {"huge spread", {1e6, 1.0, 1e-6}},
  };
  for (int k = 0; k < 5; ++k)
    for (const auto& [label, s] : spectra)
      out.push_back({label + " #" + std::to_string(k), with_singular_values<3>(rng, s)});
  // Exactly diagonal and permuted inputs: no rotation is needed or only a reordering.
  Mat3 P;
  P << 0, 1, 0, 0, 0, 1, 1, 0, 0;
  out.push_back({"diagonal", Vec3(0.5, 2.0, -1.0).asDiagonal().toDenseMatrix()});
  out.push_back({"permutation", P});
  out.push_back({"odd permutation", -P});
  return out;
}

TEST(RotationVariantSvd, AgreesWithEigenJacobiSvd) {
  constexpr double eps = std::numeric_limits<double>::epsilon();
  double worst_factor = 0.0, worst_sigma = 0.0, worst_rotation = 0.0;
  for (const auto& [label, F] : hard_samples()) {
    SCOPED_TRACE(label);
    const RotationVariantSvd<3> svd = rotation_variant_svd<3>(F);
    const RotationVariantSvd<3> ref = reference_svd<3>(F);
    const double scale = ref.sigma.cwiseAbs().maxCoeff();  // ||F||_2
    const Mat3 I = Mat3::Identity();
    // A factorisation with proper rotations, as accurate as the reference.
    const double factor_error = (svd.U * svd.sigma.asDiagonal() * svd.V.transpose() - F).norm();
    EXPECT_LE(factor_error, 10 * eps * scale);
    EXPECT_LE((svd.U.transpose() * svd.U - I).norm(), 10 * eps);
    EXPECT_LE((svd.V.transpose() * svd.V - I).norm(), 10 * eps);
    EXPECT_NEAR(svd.U.determinant(), 1.0, 10 * eps);
    EXPECT_NEAR(svd.V.determinant(), 1.0, 10 * eps);
    // The same signed singular values, in the same order and sign convention: decreasing
    // magnitude, the reflection of an inverted F in the last one.
    const double sigma_error = (svd.sigma - ref.sigma).cwiseAbs().maxCoeff();
    EXPECT_LE(sigma_error, 10 * eps * scale) << svd.sigma.transpose() << " vs " << ref.sigma.transpose();
    EXPECT_GE(svd.sigma(0), svd.sigma(1) - 10 * eps * scale);
    EXPECT_GE(svd.sigma(1), std::abs(svd.sigma(2)) - 10 * eps * scale);
    if (std::abs(F.determinant()) > 1e3 * eps * scale * scale * scale)
      EXPECT_EQ(svd.sigma(2) < 0.0, F.determinant() < 0.0);
    // Where it is unique (sigma_2 + sigma_3 well away from 0), the polar rotation U V^T agrees.
    const double twist_gap = std::abs(ref.sigma(1) + ref.sigma(2));
    double rotation_error = 0.0;
    if (twist_gap > 1e-6 * scale) {
      rotation_error = (svd.U * svd.V.transpose() - ref.U * ref.V.transpose()).norm() * twist_gap / scale;
      EXPECT_LE(rotation_error, 100 * eps);
    }
    worst_factor = std::max(worst_factor, factor_error / std::max(scale, 1e-300));
    worst_sigma = std::max(worst_sigma, sigma_error / std::max(scale, 1e-300));
    worst_rotation = std::max(worst_rotation, rotation_error);
  }
  std::printf("  worst relative errors: factorisation %.1e, sigma %.1e, polar rotation x gap %.1e\n", worst_factor,
              worst_sigma, worst_rotation);
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
