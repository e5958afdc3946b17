#pragma once
// One implicit stage shared by the implicit integrators. Every stage of BE, trapezoidal, BDF2,
// TR-BDF2, SDIRK2, Newmark and generalized-alpha reduces to finding q with
//   M (q - q_pred) + w grad P(q) + w_d D (q - q_ref) = 0,                        (*)
// the stationarity condition of the incremental potential (Ascher et al. 2022, eqs. 14-15), D = alpha M +
// beta K(x^n) frozen at the step start. It is solved either
//  - form "potential": projected Newton on the incremental potential, or
//  - form "residual": root finding on r(v) = (1/s) lhs(*)(q_anchor + s v), which for BE (s = h,
//    anchor x^n) is exactly Larionov et al. 2022, eq. 23, M (v - v^n) - h f(x^n + h v, v); J = dr/dv is the
//    unprojected Hessian. Damped Newton (Alg. 1, sparse LU) or inexact Newton (Alg. 2).
// Semi-implicit: one Newton iteration from the start-of-step positions, accepted (Ascher et al. 2022, eq. 6).
#include <Eigen/SparseCholesky>
#include <memory>
#include <vector>

#include "softsim/integrate/incremental_potential.hpp"
#include "softsim/integrate/subspace_objective.hpp"
#include "softsim/integrate/stepper.hpp"
#include "softsim/solve/linear_solver.hpp"

namespace softsim {

class ReducedIncrementalPotential;

class StageSolver {
 public:
  static constexpr int kMaxPenaltyRetries = 30;
  StageSolver(const Model& model, const StepperOptions& options);

  // Call once per step before anything else: begins the model's step (its terms' step hooks on
  // the run's data) and freezes D.
  void begin_step(const VecX& x_start, double t = 0.0, double h = 0.0);
  // f(q, v) = -grad P(q) - D v (elastic + external + Rayleigh with the frozen D), at the step's
  // start time (time-dependent penalty targets at stage fraction 0).
  VecX force(const VecX& q, const VecX& v) const;
  // M^{-1} f with zero along constrained (fixed, slip) directions.
  VecX solve_mass(const VecX& f);  // projected onto the unconstrained directions
  VecX acceleration(const VecX& q, const VecX& v) { return solve_mass(force(q, v)); }

  // Solves (*) for q. Terms that ask for it after a converged solve (penalty-driven motions
  // that missed their targets stiffen; Model::after_solve) have the stage solved again from the
  // current iterate, at most kMaxPenaltyRetries times; their targets follow the stage time (fraction
  // (t_stage - t0) / h of the step). q enters as the start-of-step positions (the start guess); t_stage is the
  // time of the stage (for prescribed positions); velocity_scale s relates q to the stage velocity
  // (dq = s dv), used for the convergence test ||dv||_inf < tolerance and by the residual form.
  void solve(VecX& q, const VecX& q_pred, double w, const VecX& q_ref, double w_d, double t_stage,
             double velocity_scale, StepResult& result);

  // Diagonally implicit stage u_s = U + k F(u_s), u = (q, v), F(u) = (v, M^{-1} f(q, v)):
  //   q_s = Q + k v_s,  M (v_s - V) = k f(q_s, v_s)
  //   <=> (*) with q_pred = Q + k V, w = k^2, q_ref = Q, w_d = k;  then v_s = (q_s - Q) / k.
  // x_start is the start guess. k = kappa * h.
  void dirk_stage(const VecX& Q, const VecX& V, double k, double t_stage, const VecX& x_start, VecX& q_s, VecX& v_s,
                  StepResult& result);

  // A model evaluated without leaving its coordinates (reduced bodies by cubature:
  // reduced_incremental_potential.hpp) is stepped in them: the stage's vectors are y and y_dot
  // (x = offset + B y), and nothing in a step is proportional to the mesh. The three calls below
  // are begin_step, acceleration and dirk_stage in coordinates; such a model has no step hooks
  // (its only terms are cubature elasticities) and no Dirichlet DOF that moves (a reduced
  // body's basis is zero at its fixed DOFs).
  bool in_coordinates() const { return coordinates_ != nullptr; }
  // y_start: the step's start, where stiffness damping freezes beta K_r.
  void begin_step_in_coordinates(double t, double h, const VecX& y_start);
  // -(B^T M B)^-1 (grad P(y) + (alpha B^T M B + beta K_r) y_dot): the Galerkin acceleration.
  VecX acceleration_in_coordinates(const VecX& y, const VecX& y_dot);
  void dirk_stage_in_coordinates(const VecX& Q, const VecX& V, double k, double t_stage, const VecX& y_start,
                                 VecX& y_s, VecX& v_s, StepResult& result);
  // solve() in coordinates: the stage (*) with predictor y_pred (weight w) and damping reference
  // y_ref (weight w_d), from y (the start guess) to its solution.
  void solve_in_coordinates(VecX& y, const VecX& y_pred, double w, const VecX& y_ref, double w_d, double t_stage,
                            double velocity_scale, StepResult& result);
  // A step of h from the state, in whichever space this solver works (in_coordinates): its start
  // (x0, v0) is x and v, or y and y_dot (the state's own when it defers its positions and holds
  // them, else taken from x and v, which may have been changed since the last step); then
  // begin_step or begin_step_in_coordinates.
  void start_step(const State& state, double h, VecX& x0, VecX& v0);
  // The step's end (q1, v1) at t1 becomes the state's (swapped in, so storage is reused); in
  // coordinates x and v are written from y and y_dot unless the state defers them (State).
  void finish_step(State& state, VecX& q1, VecX& v1, double t1) const;
  // Stepper::energies_in_coordinates of a state this solver's stepper stepped in coordinates
  // (throws std::logic_error for any other state).
  std::pair<double, double> energies_in_coordinates(const State& state);
  // The model's potential and kinetic energy at (y, y_dot), in coordinates.
  double potential_in_coordinates(const VecX& y);
  double kinetic_energy_in_coordinates(const VecX& y_dot) const;

  const Model& model() const { return model_; }
  // The run's data: every term's adaptive and lagged data (model_data.hpp).
  const ModelData& data() const { return data_; }
  // Checkpoints: the run's data (the frozen damping and the mass factorization are remade).
  void save(ArchiveWriter& out) const { data_.save(model_, out); }
  void load(ArchiveReader& in) { data_.load(model_, in); }
  // Residual norms ||r_k|| of the last residual-form solve, or the reduced gradient norms
  // ||g_k|| of the last projected-Newton solve (one per iterate).
  const std::vector<double>& last_history() const { return history_; }

 private:
  const Model& model_;
  ModelData data_;
  StepperOptions options_;
  IncrementalPotential objective_;
  // The same objective over the subspace coordinates when the model has bodies in a subspace.
  std::unique_ptr<SubspaceObjective> subspace_objective_;
  ReducedIncrementalPotential* coordinates_ = nullptr;  // subspace_objective_ when it stays in coordinates
  std::unique_ptr<LinearSolver> solver_;
  double t_start_ = 0.0, h_ = 0.0;  // of the current step
  SparseMat damping_;  // alpha M + beta K(x^n), frozen at the step start
  bool has_damping_ = false;
  // M's factorization for solve_mass, made on first use (backward Euler never needs it).
  std::unique_ptr<Eigen::SimplicialLDLT<SparseMat>> mass_ldlt_;
  VecX inverse_lumped_mass_;
  bool mass_ready_ = false;
  std::vector<double> history_;
  // The stage of the current step that ends at t_stage (time-dependent targets follow it), and
  // the Newton options of a stage whose unknown is velocity_scale times its velocity.
  Stage stage_at(double t_stage) const;
  NewtonOptions stage_newton_options(double velocity_scale) const;
  // A semi-implicit stage accepts its one iteration.
  void accept_semi_implicit(NewtonResult& r, const VecX& q) const;
  // Kept from stage to stage so that a step of an unchanged problem allocates nothing: the
  // Newton solver's buffers and a DIRK stage's predictor.
  NewtonWorkspace newton_workspace_;
  VecX stage_predictor_;
};

}  // namespace softsim
