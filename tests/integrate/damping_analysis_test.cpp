// Damping curves d/omega(omega h) = -2 ln rho(T(omega h)) / (omega h) (Ascher et al. 2022, §3.2) and the
// scalar amplification factors of Ascher et al. 2022, Example 2.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>

#include "softsim/integrate/damping_analysis.hpp"
#include "support/names.hpp"

namespace softsim {
namespace {

double d(const std::string& m, double z) { return damping_ratio(DampingMethod{test::named<IntegratorType>(m)}, z); }

TEST(DampingCurve, TrapezoidalAndSymplecticDoNotDamp) {
  for (double z : {0.01, 0.1, 0.5, 1.0, 1.5, 1.9}) {
    EXPECT_NEAR(d("trapezoidal", z), 0.0, 1e-12) << z;
    EXPECT_NEAR(d("symplectic_euler", z), 0.0, 1e-12) << z;  // stable for omega h < 2
  }
  for (double z : {10.0, 100.0, 1000.0}) EXPECT_NEAR(d("trapezoidal", z), 0.0, 1e-12) << z;
  // Newmark with beta = 1/4, gamma = 1/2 is the trapezoidal rule; rho_inf = 1 also does not damp.
  for (double z : {0.1, 1.0, 10.0}) {
    EXPECT_NEAR(d("newmark", z), 0.0, 1e-12) << z;
    EXPECT_NEAR(damping_ratio(DampingMethod{IntegratorType::generalized_alpha, 0.25, 0.5, 1.0}, z), 0.0, 1e-12) << z;
  }
}

TEST(DampingCurve, BackwardEulerIsAboutTwiceBdf2AtLargeOmegaH) {
  for (double z : {30.0, 100.0, 1000.0}) {
    const double ratio = d("backward_euler", z) / d("bdf2", z);
    std::printf("[ damping ] omega h = %g: BE %.5f, BDF2 %.5f, ratio %.3f\n", z, d("backward_euler", z), d("bdf2", z),
                ratio);
    EXPECT_GT(ratio, 1.5) << z;
    EXPECT_LT(ratio, 2.5) << z;
  }
}

TEST(DampingCurve, DirkMethodsAreCloseAndBelowBdf2AtSmallOmegaH) {
  for (double z : {0.3, 0.5, 1.0}) {
    const double tr = d("tr_bdf2", z), sd = d("sdirk2", z), bdf = d("bdf2", z);
    std::printf("[ damping ] omega h = %g: TR-BDF2 %.5f, SDIRK2 %.5f, BDF2 %.5f\n", z, tr, sd, bdf);
    EXPECT_GT(tr, 0.0);
    EXPECT_GT(sd, 0.0);
    EXPECT_LT(tr, bdf) << z;
    EXPECT_LT(sd, bdf) << z;
    EXPECT_LT(std::abs(tr - sd), 0.25 * std::max(tr, sd)) << z;
  }
}

TEST(DampingCurve, SecondOrderMethodsDampLessThanBackwardEulerAtSmallOmegaH) {
  // Damping of a p-th order method vanishes like (omega h)^p.
  for (const char* m : {"bdf2", "tr_bdf2", "sdirk2", "generalized_alpha"}) {
    const double ratio = d(m, 0.05) / d(m, 0.1);
    EXPECT_NEAR(ratio, 0.125, 0.03) << m;  // third power: d/omega ~ (omega h)^3
  }
  EXPECT_NEAR(d("backward_euler", 0.05) / d("backward_euler", 0.1), 0.5, 0.05);
}

TEST(Example2, Bdf2StaysNonNegativeTrapezoidalStagesOvershoot) {
  const double z = -1000.0 * 0.1;
  // BDF2 from a constant history, and the backward Euler start the bdf2 stepper uses.
  EXPECT_GE(scalar_bdf2(z, 1.0, 1.0), 0.0);
  EXPECT_LT(scalar_bdf2(z, 1.0, 1.0), 0.02);  // 3/203
  EXPECT_GE(scalar_backward_euler(z), 0.0);
  // The trapezoidal stages of TR-BDF2 (8a, to t0 + h/2) and SDIRK2 (9a, to t0 + gamma h).
  const double tr_stage = scalar_trapezoidal_stage(z, 0.5);
  const double sd_stage = scalar_trapezoidal_stage(z, 2.0 - std::sqrt(2.0));
  std::printf("[ example 2 ] BDF2 u1 = %.4g, TR-BDF2 u_1/2 = %.4f, SDIRK2 u_gamma = %.4f\n", scalar_bdf2(z, 1.0, 1.0),
              tr_stage, sd_stage);
  EXPECT_LT(tr_stage, -0.9);
  EXPECT_LT(sd_stage, -0.9);
  // Both are L-stable: the full steps are small (R ~ 5/z for TR-BDF2).
  EXPECT_LT(std::abs(scalar_tr_bdf2(z)), 0.1);
  EXPECT_LT(std::abs(scalar_sdirk2(z)), 0.1);
}

TEST(DampingCurve, ScalarFactorsMatchTheMatrices) {
  // u' = lambda u with real lambda = -1 over h: TR-BDF2's 2x2 T on the decoupled... check
  // instead that the matrix BDF2 companion and the DIRK matrices reduce to the known R(z) for
  // the oscillator: |R(i z)| = rho(T(z)).
  for (double z : {0.3, 2.0, 20.0}) {
    const std::complex<double> iz(0.0, z);
    const std::complex<double> tr = (1.0 + 0.25 * iz) / (1.0 - 0.25 * iz);
    const std::complex<double> trbdf2 = (4.0 * tr - 1.0) / 3.0 / (1.0 - iz / 3.0);
    EXPECT_NEAR(std::abs(trbdf2), spectral_radius(amplification_matrix({IntegratorType::tr_bdf2}, z)), 1e-12);
    EXPECT_NEAR(1.0 / std::abs(1.0 - iz), spectral_radius(amplification_matrix({IntegratorType::backward_euler}, z)), 1e-12);
  }
}

// The exponential methods: ERE is exact on the oscillator (no numerical damping at any omega h),
// the additive methods are exact for a mode inside the subspace and their difference method for a
// mode outside. With the history terms on the full state, as Ascher et al. 2022 print eqs. 22-23
// and 27, a subspace mode grows (d < 0): measured d/omega = -0.096 (bdf2ere) and -0.017
// (str_sbdf2ere) at omega h = 0.1.
TEST(DampingCurve, ExponentialMethods) {
  using T = IntegratorType;
  for (double z : {0.01, 0.3, 1.0, 5.0}) {
    EXPECT_NEAR(damping_ratio({T::ere}, z), 0.0, 1e-9) << z;
    for (T t : {T::siere, T::beere, T::bdf2ere, T::sbdf2ere, T::str_sbdf2ere}) {
      DampingMethod inside{t};
      inside.in_subspace = true;
      EXPECT_NEAR(damping_ratio(inside, z), 0.0, 1e-9) << name_of(t) << " " << z;
    }
    EXPECT_NEAR(damping_ratio({T::siere}, z), damping_ratio({T::backward_euler}, z), 1e-12);
    EXPECT_NEAR(damping_ratio({T::beere}, z), damping_ratio({T::backward_euler}, z), 1e-12);
    EXPECT_NEAR(damping_ratio({T::bdf2ere}, z), damping_ratio({T::bdf2}, z), 1e-12);
    EXPECT_NEAR(damping_ratio({T::str_sbdf2ere}, z), damping_ratio({T::tr_bdf2}, z), 1e-12);
  }
  for (T t : {T::bdf2ere, T::str_sbdf2ere}) {
    DampingMethod printed{t};
    printed.in_subspace = true;
    printed.history = SubspaceHistory::full;
    EXPECT_LT(damping_ratio(printed, 0.1), -0.01) << name_of(t) << ": the printed form amplifies subspace modes";
  }
}

}  // namespace
}  // namespace softsim
