// P against central differences of Psi and dP/dF against central differences of P, for every
// model in 2D and 3D, at random, near-degenerate, identity and (where defined) inverted F.
//
// Step: h = 1e-5 * min(1, sigma_min(F)). Psi varies on the length scale of the smallest singular
// value (ln J, 1/sigma terms), so the central-difference truncation error is ~(h/sigma_min)^2
// ~ 1e-10 relative, while round-off is ~eps |Psi| / h: ~1e-11 for sigma_min ~ 1 and up to ~1e-7
// for sigma_min = 1e-3 (h = 1e-8), the observed worst case. A smaller h is round-off bound, a
// larger one truncation bound near the small singular value. Tolerance: 1e-6 relative (floor
// 1e-3 (mu + lambda) where P vanishes, at F = I); a 1e-5 relative error in a single eigenmode
// of dP/dF fails it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "material/material_test_util.hpp"
#include "support/finite_difference.hpp"

namespace softsim::test {
namespace {

constexpr double kTolerance = 1e-6;

struct Worst {
  double P = 0.0;
  double dPdF = 0.0;
};

template <int D>
Worst check_model(const std::string& model) {
  Worst worst;
  for (const LameParameters& lame : test_lame_parameters()) {
    const auto material = make_material<D>(model, lame);
    // Error floor for quantities that vanish (P at F = I): a fraction of the stiffness scale.
    const double floor = 1e-3 * (lame.mu + lame.lambda);
    for (const auto& [sample, F] : deformation_samples<D>(1234u + D)) {
      if (sample.inverted && !material->defined_when_inverted()) continue;
      SCOPED_TRACE(model + " D=" + std::to_string(D) + " at " + sample.label);
      const double h = 1e-5 * std::min(1.0, smallest_singular_value<D>(F));
      MatD<D> P;
      MatD<D * D> dPdF;
      material->evaluate(F, &P, &dPdF, false);

      const auto psi = [&](const VecX& f) { return material->energy_density(mat_of<D>(f)); };
      const VecX P_fd = fd_gradient(psi, vec_of<D>(F), h);
      const double eP = relative_error(vec_of<D>(P), P_fd, floor);
      EXPECT_LT(eP, kTolerance) << "P =\n" << P << "\nFD =\n" << mat_of<D>(P_fd);

      const auto stress = [&](const VecX& f) {
        MatD<D> Pf;
        material->evaluate(mat_of<D>(f), &Pf, nullptr, false);
        return vec_of<D>(Pf);
      };
      const MatX dPdF_fd = fd_jacobian(stress, vec_of<D>(F), h);
      const double eK = relative_error(MatX(dPdF), dPdF_fd, floor);
      EXPECT_LT(eK, kTolerance) << "dPdF =\n" << dPdF << "\nFD =\n" << dPdF_fd;
      worst.P = std::max(worst.P, eP);
      worst.dPdF = std::max(worst.dPdF, eK);
    }
  }
  return worst;
}

class MaterialDerivatives : public ::testing::TestWithParam<std::string> {};

TEST_P(MaterialDerivatives, StressAndTangentMatchFiniteDifferences) {
  const Worst w2 = check_model<2>(GetParam());
  const Worst w3 = check_model<3>(GetParam());
  std::printf("  [%s] worst relative FD error: P %.2e / %.2e, dPdF %.2e / %.2e (2D / 3D)\n",
              GetParam().c_str(), w2.P, w3.P, w2.dPdF, w3.dPdF);
}

INSTANTIATE_TEST_SUITE_P(AllModels, MaterialDerivatives, ::testing::ValuesIn(material_model_names()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace softsim::test
