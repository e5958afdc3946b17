#pragma once
// BDF2 (Ascher et al. 2022, eq. 7; incremental-potential form eq. 15): u1 = (4 u0 - u_{-1}) / 3 + 2h/3 F(u1),
// i.e. q1 = q~ + 2h/3 v1, M (v1 - v~) = 2h/3 f(q1, v1) with q~ = (4 q0 - q_{-1}) / 3,
// v~ = (4 v0 - v_{-1}) / 3: one implicit stage with k = 2h/3 (predictor q~ + 2h/3 v~, weight
// 4h^2/9). The first step, and any step after a change of h or a jump in time, is backward
// Euler. semi_implicit gives SBDF2.
// A model evaluated in its subspace's coordinates (StageSolver::in_coordinates) is stepped in
// (y, y_dot) as the DIRK methods are (dirk.hpp): the combination (4 u0 - u_{-1}) / 3 is affine
// with weights summing to one, so it is the same in coordinates, and the history is kept there.
#include "softsim/integrate/implicit_stage.hpp"

namespace softsim {

class Bdf2Stepper : public Stepper {
 public:
  Bdf2Stepper(const Model& model, const StepperOptions& options) : stage_(model, options) {}
  std::string name() const override { return "bdf2"; }
  StepResult step(State& state, double h) override;
  const ModelData& data() const override { return stage_.data(); }
  void save(ArchiveWriter& out) const override;
  void load(ArchiveReader& in) override;
  bool steps_in_coordinates() const override { return stage_.in_coordinates(); }
  std::pair<double, double> energies_in_coordinates(const State& state) override {
    return stage_.energies_in_coordinates(state);
  }

 private:
  StageSolver stage_;
  bool has_history_ = false;
  // The previous step's start: positions, or coordinates when the model steps in coordinates
  // (a stepper's space does not change, so a checkpoint's history is read back into the same).
  VecX x_prev_, v_prev_;
  double t_prev_end_ = 0.0, h_prev_ = 0.0;
};

}  // namespace softsim
