// The 2D neo-Hookean tangent from invariants against the singular-value path: the same matrix,
// projected or not, wherever it claims to know it; the claim made exactly where the projection
// is at most the twist's; and refused where the SVD must decide (stretch beyond the flip's sign
// change, J <= 0).
#include "softsim/material/neo_hookean_tangent_2d.hpp"

#include <gtest/gtest.h>

#include "material/material_test_util.hpp"
#include "softsim/material/models.hpp"

namespace softsim::test {
namespace {

TEST(NeoHookeanTangent2D, EqualsTheSingularValuePathProjectedOrNot) {
  int twist_projected = 0;
  for (const LameParameters& lame : test_lame_parameters()) {
    const NeoHookeanMaterial<2> material(lame);
    std::mt19937 rng(17);
    auto samples = deformation_samples<2>(99u);
    for (const double s0 : {0.3, 0.6, 0.9, 1.0, 1.2})
      for (const double s1 : {0.25, 0.7, 1.0, 1.1})
        samples.push_back({{"sigma " + std::to_string(s0) + ", " + std::to_string(s1), false},
                           with_singular_values<2>(rng, sv<2>(s0, s1, 0.0))});
    for (const auto& [sample, F] : samples) {
      if (sample.inverted) continue;
      SCOPED_TRACE(sample.label);
      for (const bool project : {false, true}) {
        Eigen::Matrix4d K, K_svd;
        material.evaluate_by_svd(F, nullptr, &K_svd, project);
        const double scale = std::max(lame.mu + lame.lambda, K_svd.norm());
        if (!neo_hookean_tangent_2d(F, lame, project, K)) {
          // Refused only where the projection would touch more than the twist.
          EXPECT_TRUE(project);
          continue;
        }
        EXPECT_LE((K - K_svd).norm(), 1e-12 * scale) << "closed form\n" << K << "\nSVD\n" << K_svd;
        if (project) {
          Eigen::Matrix4d unprojected;
          material.evaluate_by_svd(F, nullptr, &unprojected, false);
          if (min_eigenvalue<2>(unprojected) < -1e-9 * scale) ++twist_projected;
        }
      }
    }
  }
  // Not vacuous: compressed samples have a negative twist, projected off in closed form.
  EXPECT_GT(twist_projected, 5);
}

TEST(NeoHookeanTangent2D, LeavesStrongStretchAndInversionToTheSvd) {
  const LameParameters lame{1.0, 10.0};
  std::mt19937 rng(3);
  Eigen::Matrix4d K = Eigen::Matrix4d::Constant(7.0);
  // J = 2: the flip mu - a/J = 1 - (10 ln 2 - 1)/2 < 0.
  const Mat2 stretched = with_singular_values<2>(rng, sv<2>(2.0, 1.0, 0.0));
  EXPECT_FALSE(neo_hookean_tangent_2d(stretched, lame, true, K));
  EXPECT_EQ(K, Eigen::Matrix4d::Constant(7.0));
  EXPECT_TRUE(neo_hookean_tangent_2d(stretched, lame, false, K));  // unprojected: always known
  Mat2 inverted = Mat2::Identity();
  inverted(1, 1) = -0.5;
  EXPECT_FALSE(neo_hookean_tangent_2d(inverted, lame, false, K));
  EXPECT_FALSE(neo_hookean_tangent_2d(Mat2::Zero(), lame, true, K));
}

}  // namespace
}  // namespace softsim::test
