#pragma once
// Quasi-static equilibrium: minimise the potential P(x) under loads and boundary conditions at
// the step's end time; velocities are set to zero. A model evaluated in its subspace's
// coordinates (reduced bodies by cubature, no term in positions: implicit_stage.hpp) is solved
// for y, with its positions written as the DIRK steppers write them (State).
#include "softsim/integrate/incremental_potential.hpp"
#include "softsim/integrate/reduced_incremental_potential.hpp"
#include "softsim/integrate/subspace_objective.hpp"
#include "softsim/integrate/stepper.hpp"
#include "softsim/solve/linear_solver.hpp"

namespace softsim {

class StaticStepper : public Stepper {
 public:
  StaticStepper(const Model& model, const StepperOptions& options);
  std::string name() const override { return "static"; }
  StepResult step(State& state, double h) override;
  const ModelData& data() const override { return data_; }
  void save(ArchiveWriter& out) const override { data_.save(model_, out); }
  void load(ArchiveReader& in) override { data_.load(model_, in); }
  bool steps_in_coordinates() const override { return coordinates_ != nullptr; }
  std::pair<double, double> energies_in_coordinates(const State& state) override;

 private:
  const Model& model_;
  ModelData data_;
  StepperOptions options_;
  IncrementalPotential objective_;
  // The same potential over the subspace coordinates when the model has affine bodies.
  std::unique_ptr<SubspaceObjective> subspace_objective_;
  ReducedIncrementalPotential* coordinates_ = nullptr;  // subspace_objective_ when solved in coordinates
  std::unique_ptr<LinearSolver> solver_;
  double diagonal_;  // of the rest positions' bounding box: the tolerance's length scale, once

  StepResult step_in_coordinates(State& state, double h, const NewtonOptions& newton);
};

}  // namespace softsim
