#pragma once
// A time step with constraint contact (contact.type "constraint"; Zeng & Courtecuisse 2023,
// Duriez et al. 2006; docs/constraint-contact.md):
//  1. the linearised implicit Euler step without contact forces, the free motion (eqs. 1-5 and 12):
//       A p = h^2 f(x_t) - M (y - x_t - h v_t) - (h^2 K + h D)(y - x_t),   x_free = y + p,
//     A = M + h D + h^2 K (K the per-element PSD-projected stiffness at x_t, D = alpha M + beta K),
//     y = x_t + h v_t with the prescribed DOFs at their positions at t + h;
//  2. the contacts at x_free (ConstraintContact::detect), frozen for the step;
//  3. the recursive corrective motion (corrective_motion.hpp) with A's factorization;
//  4. v_{t+h} = (x_{t+h} - x_t) / h.
// A is factorized once per step. The step has no Newton loop on the elastic forces (the paper's
// linearised step), so it is the semi-implicit (SI) backward Euler step of softsim's other
// integrators plus contact forces.
#include "softsim/integrate/constraint/corrective_motion.hpp"
#include "softsim/integrate/stepper.hpp"
#include "softsim/solve/linear_solver.hpp"

namespace softsim {

class ConstraintStepper : public Stepper {
 public:
  // model.constraint_contact must be set; throws std::invalid_argument for what the step cannot
  // take (2D, forces without a potential).
  ConstraintStepper(const Model& model, const StepperOptions& options);
  std::string name() const override { return "backward_euler"; }
  StepResult step(State& state, double h) override;
  const ModelData& data() const override { return data_; }
  void save(ArchiveWriter& out) const override { data_.save(model_, out); }
  void load(ArchiveReader& in) override { data_.load(model_, in); }
  const std::vector<ContactForce>* contact_forces() const override { return &forces_; }

  // The last step's phases (ms) and the free-motion part (assembly and factorization).
  const ConstraintPhaseTimes& last_times() const { return times_; }
  double last_free_motion_ms() const { return free_motion_ms_; }
  // The last step's contacts as found at x_free.
  const std::vector<ContactConstraint>& last_contacts() const { return contacts_; }

 private:
  bool solve_columns(const MatX& B, MatX& X);

  const Model& model_;
  ModelData data_;
  StepperOptions options_;
  std::unique_ptr<LinearSolver> solver_;
  std::vector<ContactConstraint> contacts_;
  std::vector<ContactForce> forces_;
  ConstraintPhaseTimes times_;
  double free_motion_ms_ = 0.0;
};

}  // namespace softsim
