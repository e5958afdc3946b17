// The case studies of Li & Jiang 2025 (scenes/book_*.json) against trajectories of the book's own
// companion code (the solid-sim-tutorial repository), recorded by
// tools/book_reference/make_book_references.py into tests/data/book/<case>.csv: every node (the
// moving ceiling's pose last, as there) at step 0, 1, every 10th step and the last. Each scene
// sets the code's exact setup (mesh and node order, masses, constants, contact areas, which
// contacts friction applies to, Newton's tolerance and stopping rule), so the same scene gives
// the same numbers: within kFirstStep of the side length after the first step, and within the
// case's bound over the whole run (book_cases.hpp: tighter than the 1e-3 the comparison was first asked
// for, since the runs agree to round-off; looser only where the book's code is inexact). Each
// run must also end where the book's does: slope stop distances, the ceilings' final heights and
// which square ends where follow from the positions and are asserted physically in
// book_2d_contact_test.cpp and square_on_slope_test.cpp, and computed from both trajectories and
// compared in book_outcomes_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "softsim/integrate/stepper.hpp"
#include "softsim/scene/scene.hpp"
#include "support/book_cases.hpp"
#include "support/book_reference.hpp"

namespace softsim {
namespace {

constexpr double kFirstStep = 1e-6;  // x side length

using test::BookCase;

class BookReference : public ::testing::TestWithParam<BookCase> {};

TEST_P(BookReference, SameSceneGivesTheBookCodesNumbers) {
  const BookCase& c = GetParam();
  const test::BookTrajectory ref = test::read_book_trajectory(c);
  ASSERT_FALSE(ref.positions.empty());
  const Scene scene = test::book_case_scene(c);
  Model model = build_model(scene);
  ASSERT_EQ(model.num_dofs(), ref.positions.begin()->second.size()) << "node count differs from the book's";
  auto stepper = make_stepper(model, scene.integrator);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  EXPECT_LT((state.x - ref.positions.at(0)).lpNorm<Eigen::Infinity>(), 1e-12 * c.side) << "initial positions";
  double worst = 0.0, first = -1.0;
  int worst_step = 0;
  for (int n = 1; n <= ref.last_step; ++n) {
    const StepResult r = stepper->step(state, scene.dt);
    ASSERT_TRUE(r.converged) << c.name << " step " << n << ": " << r.failure;
    const auto it = ref.positions.find(n);
    if (it == ref.positions.end()) continue;
    const double error = (state.x - it->second).lpNorm<Eigen::Infinity>() / c.side;
    if (n == 1) first = error;
    if (error > worst) {
      worst = error;
      worst_step = n;
    }
  }
  std::printf("[ book ] %-22s first step %.2e, worst %.2e x side (step %d of %d)\n", c.name, first, worst, worst_step,
              ref.last_step);
  EXPECT_LT(first, kFirstStep);
  EXPECT_LT(worst, c.run_bound) << "at step " << worst_step;
}

INSTANTIATE_TEST_SUITE_P(Cases, BookReference, ::testing::ValuesIn(test::kBookCases),
                         [](const ::testing::TestParamInfo<BookCase>& info) {
                           std::string name = info.param.name;
                           for (char& ch : name)
                             if (ch == '.') ch = '_';
                           return name;
                         });

}  // namespace
}  // namespace softsim
