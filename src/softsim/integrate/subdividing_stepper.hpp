#pragma once
// Step cutback: when a step's Newton solve fails, the step is taken again from its start as two
// steps of h/2, each of which may be halved again, down to h / 2^max_halvings. Newton on contact
// and friction can stall on a kink of the residual (a friction force saturating across its
// stick-slip transition, a contact changing its closest feature) that a shorter step, starting
// closer to the solution, does not meet; the ball-in-a-box scene has such steps. Only for
// one-step integrators (BE, trapezoidal, TR-BDF2, SDIRK2), whose integration state is (x, v, t).
// The energy terms' own adaptive state is not rolled back: IPC's barrier stiffness keeps what the
// failed attempt raised it to (it only grows), and penalty-driven motions measure their travel
// from time, so a retried step does not move their targets twice. If every cutback fails, the
// state is the full step's own attempt (advanced by h), reported as not converged.
#include <memory>

#include "softsim/integrate/stepper.hpp"

namespace softsim {

class SubdividingStepper : public Stepper {
 public:
  SubdividingStepper(std::unique_ptr<Stepper> inner, int max_halvings);
  std::string name() const override { return inner_->name(); }
  // result.substeps counts the steps actually taken (1 when the first attempt converged), and
  // the Newton counts and timings include the failed attempts.
  StepResult step(State& state, double h) override;
  const ModelData& data() const override { return inner_->data(); }
  void save(ArchiveWriter& out) const override { inner_->save(out); }
  void load(ArchiveReader& in) override { inner_->load(in); }
  bool steps_in_coordinates() const override { return inner_->steps_in_coordinates(); }
  std::pair<double, double> energies_in_coordinates(const State& state) override {
    return inner_->energies_in_coordinates(state);
  }

 private:
  StepResult halves(State& state, double h, int depth);
  std::unique_ptr<Stepper> inner_;
  int max_halvings_;
  State start_;  // the step's start, kept from step to step (no allocation per step)
};

}  // namespace softsim
