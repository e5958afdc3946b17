// MPM constitutive models (mpm/mpm_material.hpp): each stress is the derivative of its energy
// density (written here independently, in principal stretches) against finite differences, is
// zero at rest and rotates with F; the return mappings land on their yield surfaces and leave
// states inside them alone.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <random>

#include "softsim/material/svd.hpp"
#include "softsim/mpm/mpm_material.hpp"

namespace softsim {
namespace {

template <int D>
double energy_density(const MpmMaterial& m, const MatD<D>& F) {
  const VecD<D> s = rotation_variant_svd<D>(F).sigma;
  if (m.elasticity == MpmElasticity::fixed_corotated)
    return m.mu() * (s.array() - 1.0).square().sum() + 0.5 * m.lambda() * std::pow(s.prod() - 1.0, 2);
  const VecD<D> l = s.array().log().matrix();
  return m.mu() * l.squaredNorm() + 0.5 * m.lambda() * l.sum() * l.sum();
}

template <int D>
MatD<D> random_deformation(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-0.25, 0.25);
  MatD<D> F = MatD<D>::Identity();
  for (int i = 0; i < D; ++i)
    for (int j = 0; j < D; ++j) F(i, j) += u(rng);
  return F;
}

template <int D>
void check_stress(MpmElasticity elasticity) {
  MpmMaterial m;
  m.elasticity = elasticity;
  m.youngs_modulus = 3e4;
  m.poisson_ratio = 0.3;
  EXPECT_LT(mpm_stress<D>(m, MatD<D>::Identity()).norm(), 1e-12);
  std::mt19937 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    const MatD<D> F = random_deformation<D>(rng);
    const MatD<D> P = mpm_stress<D>(m, F);
    MatD<D> fd;
    for (int i = 0; i < D; ++i)
      for (int j = 0; j < D; ++j) {
        const double h = 1e-6;
        MatD<D> a = F, b = F;
        a(i, j) += h;
        b(i, j) -= h;
        fd(i, j) = (energy_density<D>(m, a) - energy_density<D>(m, b)) / (2 * h);
      }
    EXPECT_LT((P - fd).norm(), 1e-6 * std::max(1.0, P.norm())) << "trial " << trial;
    // Objectivity: P(RF) = R P(F).
    const MatD<D> R = polar_decomposition<D>(random_deformation<D>(rng)).R;
    EXPECT_LT((mpm_stress<D>(m, R * F) - R * P).norm(), 1e-9 * P.norm());
  }
}

TEST(MpmMaterial, StressIsTheEnergyDerivative) {
  check_stress<2>(MpmElasticity::fixed_corotated);
  check_stress<3>(MpmElasticity::fixed_corotated);
  check_stress<2>(MpmElasticity::stvk_hencky);
  check_stress<3>(MpmElasticity::stvk_hencky);
}

template <int D>
VecD<D> hencky_strain(const MatD<D>& F) {
  return rotation_variant_svd<D>(F).sigma.array().log().matrix();
}

MpmMaterial plastic_hencky(MpmPlasticity plasticity, double youngs_modulus) {
  MpmMaterial m;
  m.elasticity = MpmElasticity::stvk_hencky;
  m.plasticity = plasticity;
  m.youngs_modulus = youngs_modulus;
  return m;
}

TEST(MpmMaterial, VonMisesReturnsToTheCylinder) {
  MpmMaterial m = plastic_hencky(MpmPlasticity::von_mises, 1e5);
  m.yield_stress = 500.0;
  const double radius = std::sqrt(2.0 / 3.0) * m.yield_stress / (2.0 * m.mu());
  std::mt19937 rng(11);
  int projected = 0, left_alone = 0;
  for (int trial = 0; trial < 40; ++trial) {
    // Half the trials near rest, where the strain lies inside the cylinder (radius 0.005).
    const MatD<3> F = trial % 2 ? random_deformation<3>(rng)
                                : MatD<3>(MatD<3>::Identity() + 0.004 * (random_deformation<3>(rng) - MatD<3>::Identity()));
    double correction = 0.0, plastic = 0.0;
    const MatD<3> Fe = mpm_return_mapping<3>(m, F, correction, plastic);
    const VecD<3> e = hencky_strain<3>(Fe), e0 = hencky_strain<3>(F);
    const VecD<3> dev = e - VecD<3>::Constant(e.sum() / 3), dev0 = e0 - VecD<3>::Constant(e0.sum() / 3);
    if (dev0.norm() > radius) {
      EXPECT_NEAR(dev.norm(), radius, 1e-10);
      EXPECT_NEAR(e.sum(), e0.sum(), 1e-10);  // plastic flow is isochoric
      EXPECT_NEAR(plastic, dev0.norm() - radius, 1e-10);
      ++projected;
    } else {
      EXPECT_LT((Fe - F).norm(), 1e-12);
      EXPECT_EQ(plastic, 0.0);
      ++left_alone;
    }
  }
  EXPECT_GT(projected, 5);
  EXPECT_GT(left_alone, 5);
}

TEST(MpmMaterial, DruckerPragerProjectsOntoTheCone) {
  MpmMaterial m = plastic_hencky(MpmPlasticity::drucker_prager, 3.537e5);
  m.friction_angle = 25.0;
  const double sin_phi = std::sin(25.0 * M_PI / 180.0);
  const double alpha = std::sqrt(2.0 / 3.0) * 2.0 * sin_phi / (3.0 - sin_phi);
  const double k = (2 * m.lambda() + 2.0 * m.mu()) / (2.0 * m.mu());  // D = 2
  // Stretched (tr eps > 0): the cone's tip, F_E = R, and the lost volume is remembered.
  {
    const MatD<2> F = Eigen::Vector2d(1.1, 1.05).asDiagonal();
    double correction = 0.0, plastic = 0.0;
    const MatD<2> Fe = mpm_return_mapping<2>(m, F, correction, plastic);
    EXPECT_LT((Fe - MatD<2>::Identity()).norm(), 1e-12);
    EXPECT_NEAR(correction, std::log(1.1 * 1.05), 1e-12);
  }
  // Compressed and sheared beyond the cone: onto it, |dev eps| = -k alpha tr eps.
  {
    const MatD<2> F = Eigen::Vector2d(1.05, 0.9).asDiagonal();
    double correction = 0.0, plastic = 0.0;
    const VecD<2> e = hencky_strain<2>(mpm_return_mapping<2>(m, F, correction, plastic));
    const double trace = e.sum();
    EXPECT_LT(trace, 0.0);
    EXPECT_NEAR((e - VecD<2>::Constant(trace / 2)).norm(), -k * alpha * trace, 1e-7);
    EXPECT_GT(plastic, 0.0);
  }
  // Pure compression lies inside: unchanged.
  {
    const MatD<2> F = Eigen::Vector2d(0.95, 0.95).asDiagonal();
    double correction = 0.0, plastic = 0.0;
    EXPECT_LT((mpm_return_mapping<2>(m, F, correction, plastic) - F).norm(), 1e-12);
    EXPECT_EQ(plastic, 0.0);
  }
}

TEST(MpmMaterial, SnowClampsTheStretchesAndHardensUnderCompaction) {
  MpmMaterial snow;
  snow.plasticity = MpmPlasticity::snow;
  snow.youngs_modulus = 1.4e5;
  snow.poisson_ratio = 0.2;
  const MatD<2> R = Eigen::Rotation2Dd(0.3).toRotationMatrix();
  // Inside the band: untouched.
  double lnJp = 0.0, plastic = 0.0;
  const MatD<2> inside = R * VecD<2>(0.99, 1.005).asDiagonal();
  EXPECT_EQ(mpm_return_mapping<2>(snow, inside, lnJp, plastic), inside);
  EXPECT_EQ(lnJp, 0.0);
  // Compressed by 10% along one axis and stretched 5% along the other: clamped to 0.975 and
  // 1.0075, the rotation kept, the cut-off volume moved to J_P.
  const MatD<2> F = R * VecD<2>(0.9, 1.05).asDiagonal();
  const MatD<2> Fe = mpm_return_mapping<2>(snow, F, lnJp, plastic);
  EXPECT_LT((Fe - R * VecD<2>(0.975, 1.0075).asDiagonal()).norm(), 1e-14);
  EXPECT_NEAR(lnJp, std::log(0.9 * 1.05) - std::log(0.975 * 1.0075), 1e-14);
  EXPECT_NEAR(plastic, VecD<2>(std::log(0.975 / 0.9), std::log(1.0075 / 1.05)).norm(), 1e-14);
  // Compaction (J_P < 1) stiffens: mu and lambda times exp(xi (1 - J_P)); no plasticity, no change.
  MpmMaterial elastic = snow;
  elastic.plasticity = MpmPlasticity::none;
  const double scale = std::exp(10.0 * (1.0 - std::exp(lnJp)));
  EXPECT_GT(scale, 1.3);
  EXPECT_LT((mpm_stress<2>(snow, Fe, lnJp) - scale * mpm_stress<2>(elastic, Fe)).norm(),
            1e-12 * mpm_stress<2>(elastic, Fe).norm() * scale);
  EXPECT_EQ(mpm_stress<2>(elastic, Fe, lnJp), mpm_stress<2>(elastic, Fe));
  EXPECT_DOUBLE_EQ(snow.hardening_scale(lnJp), scale);
  // 3D: every singular value lands in the band.
  std::mt19937 rng(3);
  for (int trial = 0; trial < 20; ++trial) {
    const MatD<3> G = random_deformation<3>(rng);
    double l = 0.0, e = 0.0;
    const VecD<3> s = rotation_variant_svd<3>(mpm_return_mapping<3>(snow, G, l, e)).sigma;
    EXPECT_GE(s.minCoeff(), 0.975 - 1e-12);
    EXPECT_LE(s.maxCoeff(), 1.0075 + 1e-12);
    EXPECT_NEAR(l, std::log(std::abs(G.determinant())) - std::log(std::abs(s.prod())), 1e-12);
  }
}

}  // namespace
}  // namespace softsim
