// Implicit integrators keep slip vertices on their line: the bob of the spring pendulum may only
// slide along x, so its y coordinate and y velocity stay zero (gravity and the spring pull it
// off the line in every step).
#include <gtest/gtest.h>

#include "softsim/fem/mass_spring.hpp"
#include "softsim/integrate/stepper.hpp"
#include "support/names.hpp"

namespace softsim {
namespace {

std::unique_ptr<Model> sliding_pendulum() {
  auto model = std::make_unique<Model>(2);
  MatX vertices(2, 2);
  vertices << 0.0, 0.5, 1.0, 0.0;  // pivot above the line y = 0
  model->add_vertices(vertices);
  model->add_lumped_mass(0, 1.0);
  model->add_lumped_mass(1, 1.0);
  MatXi edges(1, 2);
  edges << 0, 1;
  model->add_energy(std::make_unique<MassSpring<2>>(edges, vertices, 50.0));
  model->gravity = Vec3(0.0, -9.81, 0.0);
  model->boundary.set_dimensions(2, 2);
  PrescribedMotion fixed;
  fixed.vertices = {0};
  fixed.offset = [](double) { return VecX(VecX::Zero(2)); };
  model->boundary.add_motion(std::move(fixed));
  SlipCondition slip;
  slip.vertices = {1};
  slip.direction = Vec2(1.0, 0.0);
  slip.line = true;
  model->boundary.add_slip(slip);
  model->finalize();
  return model;
}

class SlipTest : public ::testing::TestWithParam<const char*> {};

TEST_P(SlipTest, StaysOnTheLine) {
  auto model = sliding_pendulum();
  StepperOptions options;
  options.type = test::named<IntegratorType>(GetParam());
  options.newton.tolerance = 1e-8;
  auto stepper = make_stepper(*model, options);
  State s;
  s.x = model->rest_positions;
  s.v = VecX::Zero(4);
  s.v[2] = 1.0;
  double max_slide = 0.0;
  for (int i = 0; i < 50; ++i) {
    ASSERT_TRUE(stepper->step(s, 0.01).converged);
    max_slide = std::max(max_slide, std::abs(s.x[2] - 1.0));
    ASSERT_NEAR(s.x[3], 0.0, 1e-10) << "step " << i;
    ASSERT_NEAR(s.v[3], 0.0, 1e-8) << "step " << i;
  }
  EXPECT_NEAR(s.x[3], 0.0, 1e-10);
  EXPECT_NEAR(s.v[3], 0.0, 1e-8);
  EXPECT_GT(max_slide, 1e-2);  // it did slide
}

INSTANTIATE_TEST_SUITE_P(Integrators, SlipTest,
                         ::testing::Values("backward_euler", "trapezoidal", "bdf2", "tr_bdf2", "sdirk2", "newmark",
                                           "generalized_alpha"));

}  // namespace
}  // namespace softsim
