// MPM's B-spline kernels (mpm/bspline_kernel.hpp) on random particle positions: partition of
// unity, exact reproduction of linear functions (sum w (x_i - x_p) = 0), gradient consistency
// (sum grad w = 0, sum x_i grad w^T = I), derivatives against finite differences, and the APIC
// inertia D = sum w (x_i - x_p)(x_i - x_p)^T equal to dx^2/4 (quadratic) and dx^2/3 (cubic).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "softsim/mpm/bspline_kernel.hpp"

namespace softsim {
namespace {

class KernelTest : public testing::TestWithParam<MpmKernel> {};

TEST_P(KernelTest, PartitionOfUnityLinearReproductionAndGradientConsistency) {
  const MpmKernel k = GetParam();
  const double dx = 0.037;
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> where(0.2, 0.8);
  for (int trial = 0; trial < 200; ++trial) {
    const double x = where(rng);
    const AxisWeights a = axis_weights(k, x, dx);
    double sum = 0, first = 0, second = 0, grad = 0, grad_x = 0;
    for (int n = 0; n < kernel_support(k); ++n) {
      const double xi = (a.base + n) * dx;
      sum += a.w[n];
      first += a.w[n] * (xi - x);
      second += a.w[n] * (xi - x) * (xi - x);
      grad += a.dw[n];
      grad_x += xi * a.dw[n];
    }
    EXPECT_NEAR(sum, 1.0, 1e-14);
    EXPECT_NEAR(first, 0.0, 1e-15);
    EXPECT_NEAR(grad, 0.0, 1e-12);
    // d/dx_p sum_i x_i w_i(x_p) = d/dx_p x_p = 1.
    EXPECT_NEAR(grad_x, 1.0, 1e-12);
    EXPECT_NEAR(second, apic_inertia_scale(k, dx), 1e-15) << "x = " << x;
  }
}

TEST_P(KernelTest, DerivativeMatchesFiniteDifferencesAndSupportEnds) {
  const MpmKernel k = GetParam();
  const double reach = kernel_support(k) / 2.0;
  for (double d = -reach - 0.3; d <= reach + 0.3; d += 0.0173) {
    const double h = 1e-6;
    const double fd = (kernel_value(k, d + h) - kernel_value(k, d - h)) / (2 * h);
    EXPECT_NEAR(kernel_derivative(k, d), fd, 1e-8) << "d = " << d;
    EXPECT_GE(kernel_value(k, d), 0.0);
    if (std::abs(d) >= reach) {
      EXPECT_EQ(kernel_value(k, d), 0.0);
    }
  }
  // Continuity at the breakpoints (the quadratic's 1/2 and 3/2, the cubic's 1 and 2).
  for (double b : k == MpmKernel::quadratic ? std::vector<double>{0.5, 1.5} : std::vector<double>{1.0, 2.0}) {
    EXPECT_NEAR(kernel_value(k, b - 1e-12), kernel_value(k, b + 1e-12), 1e-10);
    EXPECT_NEAR(kernel_derivative(k, b - 1e-12), kernel_derivative(k, b + 1e-12), 1e-10);
  }
}

INSTANTIATE_TEST_SUITE_P(Kernels, KernelTest, testing::Values(MpmKernel::quadratic, MpmKernel::cubic),
                         [](const testing::TestParamInfo<MpmKernel>& info) {
                           return info.param == MpmKernel::quadratic ? "Quadratic" : "Cubic";
                         });

}  // namespace
}  // namespace softsim
