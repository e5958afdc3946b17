#pragma once
// Explicit Euler methods with the lumped mass (the book ch. 1): forward Euler
// x += h v^n, v += h M^-1 f(x^n); symplectic Euler v += h M^-1 f(x^n), x += h v^{n+1}.
#include "softsim/integrate/stepper.hpp"

namespace softsim {

class ExplicitEulerStepper : public Stepper {
 public:
  ExplicitEulerStepper(Model& model, bool symplectic);
  std::string name() const override { return symplectic_ ? "symplectic_euler" : "forward_euler"; }
  StepResult step(State& state, double h) override;

 private:
  Model& model_;
  bool symplectic_;
  VecX inverse_lumped_mass_;
};

}  // namespace softsim
