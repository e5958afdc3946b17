// Larionov et al. 2022, §5.1.1 (issue 6): with fully implicit friction and backward Euler, the block stops
// within 5% of the analytic distance (0.769 m) and time (15.38 s) for h = 0.1, 0.05, 0.025, 0.01 s.
#include <gtest/gtest.h>

#include <cstdio>

#include "support/block_slide.hpp"

namespace softsim {
namespace {

using experiments::BlockSlide;

class ImplicitBlockSlide : public ::testing::TestWithParam<double> {};

TEST_P(ImplicitBlockSlide, StopsWithinFivePercentOfTheAnalyticDistanceAndTime) {
  const double h = GetParam();
  const auto r = experiments::run_block_slide("implicit", 1, "backward_euler", h);
  const double dx = (r.distance - BlockSlide::stop_distance()) / BlockSlide::stop_distance();
  const double dt = (r.stop_time - BlockSlide::stop_time()) / BlockSlide::stop_time();
  std::printf("implicit BE h = %.3f: stops at %.3f s after %.4f m (errors %+.2f%% / %+.2f%%), %.2f Newton its/step, %.2f s\n",
              h, r.stop_time, r.distance, 100 * dt, 100 * dx, double(r.newton_iterations) / r.steps, r.seconds);
  EXPECT_TRUE(r.converged);
  ASSERT_TRUE(r.stopped);
  EXPECT_LT(std::abs(dx), 0.05);
  EXPECT_LT(std::abs(dt), 0.05);
}

INSTANTIATE_TEST_SUITE_P(StepSizes, ImplicitBlockSlide, ::testing::Values(0.1, 0.05, 0.025, 0.01));

// The same with the contact model of Larionov et al. 2022: the cubic penalty with adaptive stiffness.
class ImplicitBlockSlidePenalty : public ::testing::TestWithParam<double> {};

TEST_P(ImplicitBlockSlidePenalty, StopsWithinFivePercentOfTheAnalyticDistanceAndTime) {
  const double h = GetParam();
  const auto r = experiments::run_block_slide("implicit", 1, "backward_euler", h, 30.0, "penalty");
  const double dx = (r.distance - BlockSlide::stop_distance()) / BlockSlide::stop_distance();
  const double dt = (r.stop_time - BlockSlide::stop_time()) / BlockSlide::stop_time();
  std::printf("implicit BE, penalty contact, h = %.3f: stops at %.3f s after %.4f m (errors %+.2f%% / %+.2f%%), %.2f Newton its/step\n",
              h, r.stop_time, r.distance, 100 * dt, 100 * dx, double(r.newton_iterations) / r.steps);
  EXPECT_TRUE(r.converged);
  ASSERT_TRUE(r.stopped);
  EXPECT_LT(std::abs(dx), 0.05);
  EXPECT_LT(std::abs(dt), 0.05);
}

INSTANTIATE_TEST_SUITE_P(StepSizes, ImplicitBlockSlidePenalty, ::testing::Values(0.1, 0.05, 0.025, 0.01));

}  // namespace
}  // namespace softsim
