#pragma once
// Backward Euler as an incremental potential (seed 000 eq. 14; the book ch. 2):
// x^{n+1} = argmin 1/2 ||x - (x^n + h v^n)||_M^2 + h^2 P(x) (+ h/2 ||x - x^n||_D^2 damping),
// v^{n+1} = (x^{n+1} - x^n) / h.
#include "softsim/integrate/implicit_stage.hpp"
#include "softsim/integrate/stepper.hpp"

namespace softsim {

class BackwardEulerStepper : public Stepper {
 public:
  BackwardEulerStepper(Model& model, const StepperOptions& options);
  std::string name() const override { return "backward_euler"; }
  StepResult step(State& state, double h) override;

 private:
  StageSolver stage_;  // one stage: U = (x^n, v^n), k = h (with the shared penalty retry)
};

}  // namespace softsim
