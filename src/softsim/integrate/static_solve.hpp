#pragma once
// Quasi-static equilibrium: minimise the potential P(x) under loads and boundary conditions at
// the step's end time; velocities are set to zero.
#include "softsim/integrate/incremental_potential.hpp"
#include "softsim/integrate/stepper.hpp"

namespace softsim {

class StaticStepper : public Stepper {
 public:
  StaticStepper(Model& model, const StepperOptions& options);
  std::string name() const override { return "static"; }
  StepResult step(State& state, double h) override;

 private:
  Model& model_;
  StepperOptions options_;
  IncrementalPotential objective_;
  std::unique_ptr<LinearSolver> solver_;
};

}  // namespace softsim
