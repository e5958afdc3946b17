// Barriers of a squared distance, both forms: derivatives vs central finite differences and known
// values.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "softsim/contact/barrier/barrier.hpp"
#include "support/finite_difference.hpp"

namespace softsim {
namespace {

TEST(Barrier, IpcDerivativesMatchFiniteDifferences) {
  const double shat = 1e-2;
  for (double s : {1e-5, 1e-4, 3e-3, 9e-3}) {
    const double h = 1e-4 * s;
    EXPECT_NEAR(ipc_barrier_first_derivative(s, shat), test::central_difference([&](double x) { return ipc_barrier(x, shat); }, s, h),
                1e-6 * std::abs(ipc_barrier_first_derivative(s, shat)));
    EXPECT_NEAR(ipc_barrier_second_derivative(s, shat),
                test::central_difference([&](double x) { return ipc_barrier_first_derivative(x, shat); }, s, h),
                1e-6 * std::abs(ipc_barrier_second_derivative(s, shat)));
  }
  EXPECT_EQ(ipc_barrier(shat, shat), 0);
  EXPECT_EQ(ipc_barrier(2 * shat, shat), 0);
  EXPECT_NEAR(ipc_barrier_first_derivative(shat * (1 - 1e-9), shat), 0, 1e-12);  // C1 (and C2) at shat
  EXPECT_GT(ipc_barrier(1e-6, shat), 0);
  EXPECT_LT(ipc_barrier_first_derivative(1e-6, shat), 0);  // pushes only
}

TEST(Barrier, BookDerivativesMatchFiniteDifferences) {
  const double dhat = 0.1, kappa = 1e5;
  for (double d : {1e-4, 1e-3, 0.03, 0.09}) {
    const double h = 1e-4 * d;
    EXPECT_NEAR(book_barrier_first_derivative(d, dhat, kappa),
                test::central_difference([&](double x) { return book_barrier(x, dhat, kappa); }, d, h),
                1e-6 * std::abs(book_barrier_first_derivative(d, dhat, kappa)));
    EXPECT_NEAR(book_barrier_second_derivative(d, dhat, kappa),
                test::central_difference([&](double x) { return book_barrier_first_derivative(x, dhat, kappa); }, d, h),
                1e-6 * std::abs(book_barrier_second_derivative(d, dhat, kappa)));
  }
  // Known value: b(dhat/e) = (kappa/2)(1/e - 1)(-1)
  EXPECT_NEAR(book_barrier(dhat / std::exp(1.0), dhat, kappa), 0.5 * kappa * (1 - 1 / std::exp(1.0)), 1e-9);
}

TEST(Barrier, OfSquaredDistanceEveryForm) {
  const double dhat = 0.1, kappa = 3.0;
  for (auto form : {BarrierForm::ipc_squared, BarrierForm::book_unsquared, BarrierForm::book_squared})
    for (double s : {1e-5, 1e-3, 8e-3}) {
      const double h = 1e-4 * s;
      const auto b = barrier_of_squared_distance(form, s, dhat, kappa);
      EXPECT_NEAR(b.first, test::central_difference([&](double x) { return barrier_of_squared_distance(form, x, dhat, kappa).value; }, s, h),
                  1e-6 * std::abs(b.first));
      EXPECT_NEAR(b.second,
                  test::central_difference([&](double x) { return barrier_of_squared_distance(form, x, dhat, kappa).first; }, s, h),
                  1e-6 * std::abs(b.second));
    }
  EXPECT_NEAR(barrier_of_squared_distance(BarrierForm::book_unsquared, 0.0025, 0.1, 2.0).value,
              book_barrier(0.05, 0.1, 2.0), 1e-15);
  EXPECT_NEAR(barrier_of_squared_distance(BarrierForm::ipc_squared, 0.0025, 0.1, 2.0).value,
              2.0 * ipc_barrier(0.0025, 0.01), 1e-15);
  // Li & Jiang 2025, Implementation 21.3.1 (without its A_p dhat / 2 weight): (kappa/8)(r - 1) ln r, r = s / dhat^2,
  // zero from dhat on.
  EXPECT_NEAR(barrier_of_squared_distance(BarrierForm::book_squared, 0.0025, 0.1, 2.0).value,
              2.0 / 8 * (0.25 - 1) * std::log(0.25), 1e-15);
  EXPECT_EQ(barrier_of_squared_distance(BarrierForm::book_squared, 0.0101, 0.1, 2.0).value, 0.0);
  EXPECT_EQ(barrier_of_squared_distance(BarrierForm::book_squared, 0.0101, 0.1, 2.0).first, 0.0);
}

}  // namespace
}  // namespace softsim
