// A square bar twisted by a rotating clamp (fixed[j].angular_velocity): one end held, the other
// turned by theta about the bar's axis through its own centre, solved by the static stepper.
// Uniform (Saint-Venant) torsion turns each cross-section in proportion to its distance from the
// held end. The mid-section turning by theta / 2 is exact for any isotropic hyperelastic material
// up to the mesh's asymmetry: a rigid turn by theta / 2 (frame invariance) plus the problem with
// the ends at -theta / 2 and +theta / 2, which is mapped onto itself by a half turn about y, a map
// that takes the mid-section's turn alpha to -alpha. The quarter sections turn by theta / 4 and
// 3 theta / 4 up to the clamps' warping restraint (measured: 0.6% of theta / 4 on a 20 x 4 x 4 mesh).
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "softsim/integrate/stepper.hpp"
#include "softsim/scene/scene.hpp"

namespace softsim {
namespace {

constexpr double kTheta = 0.05;  // rad, the far clamp's turn after the one static step

// The mean turn about x of the vertices of the cross-section at `x_plane` (those off the axis).
double section_turn(const Model& model, const VecX& x, double x_plane) {
  double sum = 0.0;
  int count = 0;
  for (int i = 0; i < model.num_vertices(); ++i) {
    const Vec3 rest = model.rest_positions.segment<3>(3 * i);
    if (std::abs(rest.x() - x_plane) > 1e-9) continue;
    const Eigen::Vector2d r0(rest.y(), rest.z()), r(x[3 * i + 1], x[3 * i + 2]);
    if (r0.norm() < 1e-9) continue;
    sum += std::atan2(r0.x() * r.y() - r0.y() * r.x(), r0.dot(r));
    ++count;
  }
  EXPECT_GT(count, 0) << "no vertex in the section at x = " << x_plane;
  return count ? sum / count : 0.0;
}

TEST(TwistedBar, SectionsTurnInProportionToTheirDistanceFromTheHeldEnd) {
  nlohmann::json j = R"json({
    "dim": 3, "time": {"dt": 1, "steps": 1}, "integrator": {"type": "static"}, "gravity": [0, 0, 0],
    "solver": {"tolerance": 1e-8},
    "bodies": [{
      "generator": {"type": "box", "size": [1, 0.2, 0.2], "resolution": [20, 4, 4]},
      "material": {"model": "neo_hookean", "E": 1e6, "nu": 0.3},
      "fixed": [{"box": [[-0.51, -1, -1], [-0.49, 1, 1]]},
                {"box": [[0.49, -1, -1], [0.51, 1, 1]], "angular_velocity": [0, 0, 0]}]
    }]
  })json"_json;
  j["bodies"][0]["fixed"][1]["angular_velocity"][0] = kTheta;  // rad/s over the 1 s step
  const Scene scene = parse_scene(j, "twist.json");
  Model model = build_model(scene);
  auto stepper = make_stepper(model, scene.integrator);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  const StepResult result = stepper->step(state, scene.dt);
  ASSERT_TRUE(result.converged) << result.failure;

  // The clamps: exactly where they were told to be.
  EXPECT_NEAR(section_turn(model, state.x, -0.5), 0.0, 1e-14);
  EXPECT_NEAR(section_turn(model, state.x, 0.5), kTheta, 1e-12);
  const double quarter = section_turn(model, state.x, -0.25), middle = section_turn(model, state.x, 0.0),
               three_quarters = section_turn(model, state.x, 0.25);
  std::printf("[ twist ] theta %.3g: sections turn %.5g, %.5g, %.5g (theta/4, theta/2, 3 theta/4: %.5g, %.5g, %.5g)\n",
              kTheta, quarter, middle, three_quarters, kTheta / 4, kTheta / 2, 3 * kTheta / 4);
  EXPECT_NEAR(middle, kTheta / 2, 0.001 * kTheta);
  EXPECT_NEAR(quarter, kTheta / 4, 0.0025 * kTheta);  // 1% of theta / 4
  EXPECT_NEAR(three_quarters, 3 * kTheta / 4, 0.0025 * kTheta);
}

}  // namespace
}  // namespace softsim
