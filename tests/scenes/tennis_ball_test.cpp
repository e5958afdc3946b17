// Tennis ball drop (Larionov et al. 2022, §5.3.1, Fig. 10) on a coarser ball (324 tets) at
// h = 2 ms: the integrator decides the bounce. Backward Euler damps the impact's deformation away
// and the ball barely leaves the ground; BDF2 keeps more; SDIRK2 (the higher-order integrator of
// Larionov et al. 2022) keeps most of it. The scenes' full-resolution table is in docs/bounce.md
// (bench/bench_bounce).
#include <gtest/gtest.h>

#include "support/bounce.hpp"
#include "support/scene_file.hpp"

namespace softsim {
namespace {

experiments::BounceResult coarse_drop(const std::string& scene, const std::string& integrator) {
  const std::filesystem::path file = test::scene_file(scene + ".json");
  nlohmann::json j = read_scene_json(file);
  j["bodies"][0]["generator"]["resolution"] = 3;
  const experiments::BounceResult r = experiments::run_bounce(j, file, integrator, 0.002);
  std::printf("[ bounce ] %s %s: impact %.3f s, contact %.1f ms, compression %.1f%%, bounce %.3f m (%.1f%%), %.1f s\n",
              scene.c_str(), integrator.c_str(), r.impact_time, 1e3 * r.contact_duration, 100 * r.max_compression,
              r.bounce_height, 100 * r.ratio(), r.seconds);
  EXPECT_TRUE(r.converged);
  EXPECT_GT(r.min_gap, 0.0);  // never through the ground
  // Free fall from 2.54 m takes sqrt(2 h / g) = 0.720 s.
  EXPECT_NEAR(r.impact_time, std::sqrt(2 * 2.54 / 9.81), 0.005);
  return r;
}

TEST(TennisBall, HigherOrderIntegrationKeepsTheBounce) {
  const auto be = coarse_drop("tennis_ball_drop", "backward_euler");
  const auto bdf2 = coarse_drop("tennis_ball_drop", "bdf2");
  const auto sdirk2 = coarse_drop("tennis_ball_drop", "sdirk2");
  EXPECT_LT(be.ratio(), 0.1);
  EXPECT_GT(bdf2.ratio(), 3 * be.ratio());
  EXPECT_GT(sdirk2.ratio(), bdf2.ratio() + 0.1);
  EXPECT_LT(sdirk2.ratio(), 1.0);  // no energy from nowhere
}

}  // namespace
}  // namespace softsim
