#pragma once
// Explicit Euler methods with the lumped mass (Li & Jiang 2025, §1.4): forward Euler
// x += h v^n, v += h M^-1 f(x^n); symplectic Euler v += h M^-1 f(x^n), x += h v^{n+1}.
#include "softsim/integrate/stepper.hpp"

namespace softsim {

class ExplicitEulerStepper : public Stepper {
 public:
  ExplicitEulerStepper(const Model& model, bool symplectic);
  std::string name() const override { return symplectic_ ? "symplectic_euler" : "forward_euler"; }
  StepResult step(State& state, double h) override;
  const ModelData& data() const override { return data_; }
  void save(ArchiveWriter& out) const override { data_.save(model_, out); }
  void load(ArchiveReader& in) override { data_.load(model_, in); }

 private:
  const Model& model_;
  ModelData data_;
  bool symplectic_;
  VecX inverse_lumped_mass_;
};

}  // namespace softsim
