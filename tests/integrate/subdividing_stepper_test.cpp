// Step cutback (integrate/subdividing_stepper.hpp): a failed step is retried from its start as
// halves, recursively, and only fails when h / 2^max_halvings fails too.
#include <gtest/gtest.h>

#include "softsim/integrate/subdividing_stepper.hpp"
#include "support/names.hpp"

namespace softsim {
namespace {

// x' = 1 on one DOF; "converges" only for steps no longer than max_h, and counts its calls. A
// failed step leaves garbage behind, which the cutback must not keep.
class PickyStepper : public Stepper {
 public:
  explicit PickyStepper(double max_h, int* calls) : max_h_(max_h), calls_(calls) {}
  std::string name() const override { return "picky"; }
  const ModelData& data() const override { return data_; }
  void save(ArchiveWriter&) const override {}
  void load(ArchiveReader&) override {}
  StepResult step(State& state, double h) override {
    ++*calls_;
    StepResult r;
    r.newton_iterations = 10;
    if (h > max_h_ * (1 + 1e-12)) {
      state.x.setConstant(1e9);
      state.t += h;
      r.converged = false;
      r.failure = "too long";
      return r;
    }
    state.x.array() += h;
    state.t += h;
    return r;
  }

 private:
  double max_h_;
  int* calls_;
  ModelData data_;
};

State start() { return State{VecX::Zero(1), VecX::Zero(1), 0.3}; }

TEST(SubdividingStepper, ConvergedStepsPassThrough) {
  int calls = 0;
  SubdividingStepper stepper(std::make_unique<PickyStepper>(1.0, &calls), 3);
  State s = start();
  const StepResult r = stepper.step(s, 0.1);
  EXPECT_TRUE(r.converged);
  EXPECT_EQ(r.substeps, 1);
  EXPECT_EQ(calls, 1);
  EXPECT_DOUBLE_EQ(s.x[0], 0.1);
}

TEST(SubdividingStepper, FailedStepIsRetriedAsQuarters) {
  int calls = 0;
  SubdividingStepper stepper(std::make_unique<PickyStepper>(0.025, &calls), 3);
  State s = start();
  const StepResult r = stepper.step(s, 0.1);
  EXPECT_TRUE(r.converged) << r.failure;
  EXPECT_EQ(r.substeps, 4);
  // The full step, the first half (fails), its two quarters, the second half (fails), its two.
  EXPECT_EQ(calls, 7);
  EXPECT_EQ(r.newton_iterations, 70);  // failed attempts count
  EXPECT_NEAR(s.x[0], 0.1, 1e-15);     // nothing of the failed attempts is kept
  EXPECT_EQ(s.t, 0.3 + 0.1);           // exactly the end of the step
}

TEST(SubdividingStepper, FailsOnceTheHalvingsAreUsedUp) {
  int calls = 0;
  SubdividingStepper stepper(std::make_unique<PickyStepper>(0.01, &calls), 3);  // 0.1 / 8 > 0.01
  State s = start();
  const StepResult r = stepper.step(s, 0.1);
  EXPECT_FALSE(r.converged);
  EXPECT_EQ(r.failure, "too long (also with the step halved 3 times)");
  // The full step's own attempt is what is left (the clock advanced by h), as without cutback.
  EXPECT_EQ(r.substeps, 1);
  EXPECT_DOUBLE_EQ(s.t, 0.4);
  EXPECT_EQ(s.x[0], 1e9);
  // The full step, then the first 0.05 fails, its first 0.025 fails, and its first 0.0125 fails
  // at depth 3, which ends the cutback: 1 + 1 + 1 + 1.
  EXPECT_EQ(calls, 4);
}

TEST(SubdividingStepper, MakeStepperWrapsOneStepIntegratorsOnly) {
  Model model(3);
  model.add_vertices(Eigen::MatrixXd::Zero(1, 3));
  model.add_lumped_mass(0, 1.0);
  model.finalize();
  model.boundary.set_dimensions(1, 3);
  for (const std::string type : {"backward_euler", "trapezoidal", "tr_bdf2", "sdirk2", "bdf2", "newmark"}) {
    StepperOptions options;
    options.type = test::named<IntegratorType>(type);
    const bool wrapped = dynamic_cast<SubdividingStepper*>(make_stepper(model, options).get()) != nullptr;
    EXPECT_EQ(wrapped, type != "bdf2" && type != "newmark") << type;
    options.max_step_halvings = 0;
    EXPECT_EQ(dynamic_cast<SubdividingStepper*>(make_stepper(model, options).get()), nullptr) << type;
  }
}

}  // namespace
}  // namespace softsim
