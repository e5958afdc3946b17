#include "softsim/integrate/implicit_stage.hpp"

#include <Eigen/SparseCholesky>
#include <algorithm>
#include <limits>
#include <stdexcept>

#include "softsim/integrate/rayleigh_damping.hpp"
#include "softsim/integrate/reduced_incremental_potential.hpp"
#include "softsim/solve/damped_newton.hpp"
#include "softsim/solve/inexact_newton.hpp"
#include "softsim/solve/projected_newton.hpp"

namespace softsim {

namespace {

// r(v) = (1/s) grad E(anchor + s v), J = Hessian of E (unprojected), reduced for the boundary.
class StageResidual : public ResidualProblem {
 public:
  StageResidual(Objective& objective, const VecX& anchor, double s) : objective_(objective), anchor_(anchor), s_(s) {}
  bool residual(const VecX& v, VecX& r) override {
    const double E = objective_.evaluate(anchor_ + s_ * v, &r, nullptr, false);
    if (!std::isfinite(E)) return false;
    r /= s_;
    objective_.reduce(r, nullptr);
    return r.allFinite();
  }
  bool jacobian(const VecX& v, SparseMat& J) override { return assemble(v, J, false); }
  bool projected_jacobian(const VecX& v, SparseMat& J) override { return assemble(v, J, true); }
  bool has_projected_jacobian() const override { return true; }
  void expand(VecX& step) const override { objective_.expand(step); }
  void jacobian_rank_one(const VecX& v, std::vector<RankOneHessian>& out) override {
    objective_.rank_one_hessian(anchor_ + s_ * v, out);
  }
  // r = (1/s) grad E(anchor + s v) => J d = Hess E d: forward-mode, matrix-free.
  std::function<void(const VecX& d, VecX& out)> jacobian_operator(const VecX& v) override {
    auto hessian = objective_.hessian_operator(anchor_ + s_ * v);
    if (!hessian) return {};
    return [this, hessian](const VecX& d, VecX& out) {
      VecX world = d;
      objective_.expand(world);
      hessian(world, out);
      objective_.reduce(out, nullptr);
    };
  }
  double max_step_fraction(const VecX& v, const VecX& p) override {
    return objective_.max_step_fraction(anchor_ + s_ * v, s_ * p);
  }
  bool end_iteration(const VecX& v) override { return objective_.end_iteration(anchor_ + s_ * v); }

 private:
  bool assemble(const VecX& v, SparseMat& J, bool project_psd) {
    VecX g(v.size());
    const double E = objective_.evaluate(anchor_ + s_ * v, &g, &J, project_psd);
    if (!std::isfinite(E)) return false;
    objective_.reduce(g, &J);
    return true;
  }

  Objective& objective_;
  const VecX& anchor_;
  double s_;
};

}  // namespace

StageSolver::StageSolver(const Model& model, const StepperOptions& options)
    : model_(model), data_(model), options_(options), objective_(model, data_) {
  const bool residual = options.form() == StageForm::residual;
  if (!model.subspace.empty() && residual)
    throw std::invalid_argument("bodies in a subspace (affine bodies) are solved in the potential form only");
  subspace_objective_ = make_subspace_objective(objective_, model);
  // Steps in coordinates need no positions until a frame: only when no term is evaluated in
  // positions (contact's step hooks read them).
  coordinates_ = coordinates_objective(subspace_objective_.get());
  solver_ = make_linear_solver(residual ? nonsymmetric_direct_solver(options.linear_solver) : options.linear_solver,
                               num_unknowns(model.subspace, model.num_dofs()));
  has_damping_ = model.rayleigh_alpha != 0.0 || model.rayleigh_beta != 0.0;
  // A solve's gradient norms, one per iterate: no allocation as a solve iterates (penalty
  // re-solves, which append to the same history, may still grow it).
  history_.reserve(options.newton.max_iterations + 1);
  // Forces without a potential (implicit friction) have no incremental potential to minimise.
  if (model.has_velocity_forces() && !residual)
    throw std::invalid_argument("the force '" + model.forces().front()->name() +
                                "' has no potential: use the residual form (integrator.form \"residual\")");
}

void StageSolver::begin_step(const VecX& x_start, double t, double h) {
  t_start_ = t;
  h_ = h;
  const Stage stage = Stage::step(t, h);
  model_.begin_step(stage, data_, x_start);
  if (has_damping_) {
    damping_ = rayleigh_damping_matrix(model_, EvalContext{stage, data_}, x_start);
    objective_.set_damping(&damping_);
  }
  // A model in a subspace solved in coordinates freezes its own beta K_r (ReducedIncrementalPotential).
  if (model_.rayleigh_beta != 0.0)
    if (auto* reduced = dynamic_cast<ReducedIncrementalPotential*>(subspace_objective_.get()))
      reduced->set_stiffness_damping_start(model_.subspace.coordinates(x_start));
}

VecX StageSolver::force(const VecX& q, const VecX& v) const {
  VecX g = VecX::Zero(q.size());
  AssemblyOutputs out{&g, nullptr, 1.0, false};
  // Forces are evaluated at the step start t0 (a0 = M^-1 f(q^n, v^n)): time-dependent penalty
  // targets are at x^n there (stage fraction 0), not at their end-of-step positions (which made
  // the penalty force kappa m h v, and a0, explode as kappa grew). Terms that measure velocities
  // through displacements (lagged friction) see v: the map v = (x - (q - h v)) / h evaluated at
  // x = q (Larionov et al. 2022, eq. 27: f_lag(q^t, q^t, v^t)).
  Stage stage = Stage::step(t_start_, h_);
  stage.fraction = 0.0;
  if (h_ > 0.0) {
    stage.velocity_reference = q - h_ * v;
    stage.velocity_scale = 1.0 / h_;
  }
  const EvalContext ctx{stage, data_};
  model_.potential(ctx, q, out);
  VecX f = -g;
  model_.add_velocity_forces(ctx, q, v, 0.0, 1.0, &f, nullptr);
  if (has_damping_) f -= damping_ * v;
  return f;
}

VecX StageSolver::solve_mass(const VecX& f) {
  const SubspaceMap& subspace = model_.subspace;
  if (!mass_ready_) {  // factorised on first use (not needed by backward Euler)
    inverse_lumped_mass_ = model_.mass_times(VecX::Ones(model_.num_dofs())).cwiseInverse();
    // In a subspace the acceleration is B (B^T M B)^-1 B^T f: Galerkin, so it stays in the subspace.
    auto ldlt = std::make_unique<Eigen::SimplicialLDLT<SparseMat>>(
        subspace.empty() ? model_.mass_matrix() : subspace.pull_back(model_.mass_matrix()));
    if (ldlt->info() == Eigen::Success) mass_ldlt_ = std::move(ldlt);
    mass_ready_ = true;
  }
  VecX a;
  if (!subspace.empty()) {
    if (!mass_ldlt_) throw std::runtime_error("the reduced mass matrix of the subspace is singular");
    a = subspace.to_positions(mass_ldlt_->solve(subspace.pull_back(f)));
  } else {
    a = mass_ldlt_ ? VecX(mass_ldlt_->solve(f)) : VecX(inverse_lumped_mass_.cwiseProduct(f));
  }
  // Constrained directions do not accelerate: fixed DOFs and the eliminated local coordinates of
  // slip vertices (reduce_gradient rotates into the slip frames and zeroes them; expand_step
  // rotates back). Otherwise Newmark / generalized-alpha velocities would leave a slip plane.
  model_.boundary.reduce_gradient(a);
  model_.boundary.expand_step(a);
  return a;
}

Stage StageSolver::stage_at(double t_stage) const {
  // Time-dependent penalty targets follow the stage: a stage ending at t0 + c h pulls towards
  // x^n + c h v (the first TR-BDF2 stage ends at t0 + h/2, generalized-alpha's unknown lives at
  // t0 + (1 - alpha_f) h).
  Stage stage = Stage::step(t_start_, h_);
  stage.fraction = h_ > 0.0 ? std::clamp((t_stage - t_start_) / h_, 0.0, 1.0) : 1.0;
  if (std::abs(stage.fraction - 1.0) < 1e-9) stage.fraction = 1.0;  // end-of-step stages use the targets exactly
  return stage;
}

NewtonOptions StageSolver::stage_newton_options(double velocity_scale) const {
  NewtonOptions newton = options_.newton;
  newton.step_scale = velocity_scale;
  if (options_.semi_implicit) {
    newton.max_iterations = 1;
    newton.tolerance = 0.0;  // always take (and accept) the one iteration
    newton.gradient_tolerance = -1.0;
  }
  return newton;
}

void StageSolver::accept_semi_implicit(NewtonResult& r, const VecX& q) const {
  if (options_.semi_implicit && r.iterations == 1 && q.allFinite()) {
    r.converged = true;
    r.failure.clear();
  }
}

void StageSolver::solve(VecX& q, const VecX& q_pred, double w, const VecX& q_ref, double w_d, double t_stage,
                        double velocity_scale, StepResult& result) {
  objective_.set_step(stage_at(t_stage), q_pred, 1.0, w, q_ref, w_d);
  const NewtonOptions newton = stage_newton_options(velocity_scale);
  model_.boundary.apply_positions(q, model_.rest_positions, t_stage);
  history_.clear();
  // Terms that ask for it after a converged solve (penalty-driven motions that missed their
  // targets, Li & Jiang 2025, §11.1; lagged friction's fixed-point passes; penalty contact's stiffness
  // bump) have the stage solved again from the current iterate (at most 30 times). This is the
  // one place every implicit stage (BE, trapezoidal, BDF2, TR-BDF2, SDIRK2, Newmark,
  // generalized-alpha; potential or residual form; semi-implicit too) goes through.
  const bool residual_form = options_.form() == StageForm::residual;
  for (int attempt = 0;; ++attempt) {
    NewtonResult r;
    if (!residual_form) {
      r = projected_newton_on_positions(objective_, subspace_objective_.get(), q, *solver_, newton, &history_,
                                        &newton_workspace_);
    } else {
      // Unknown v with q = anchor + s v, anchor = the start guess q (BCs applied). Algorithm 1
      // starts from the previous velocities, i.e. q = q_pred; the semi-implicit variant
      // linearises at the start-of-step positions (eq. 6), so it starts at v = 0. A penalty
      // re-solve starts from the current iterate.
      VecX anchor = q;
      VecX v = VecX::Zero(q.size());
      if (!options_.semi_implicit && attempt == 0) {
        VecX guess = q_pred;
        model_.boundary.apply_positions(guess, model_.rest_positions, t_stage);
        if (guess.allFinite() && objective_.max_step_fraction(anchor, guess - anchor) >= 1.0)
          v = (guess - anchor) / velocity_scale;
      }
      StageResidual problem(objective_, anchor, velocity_scale);
      // The unknown is already a velocity: the test is ||dv||_inf < tolerance (m/s), as for the
      // potential form's ||dq||_inf / s (dividing dv by s again made it 1/s times stricter).
      NewtonOptions residual_newton = newton;
      residual_newton.step_scale = 1.0;
      if (options_.nonlinear_solver == NonlinearSolver::inexact_newton)
        r = inexact_newton(problem, v, residual_newton, {}, &history_);
      else
        r = damped_newton(problem, v, *solver_, residual_newton, &history_);
      q = anchor + velocity_scale * v;
    }
    accept_semi_implicit(r, q);
    result.accumulate(r);
    if (attempt >= kMaxPenaltyRetries || !result.converged || !model_.after_solve(objective_.stage(), data_, q)) break;
  }
}

void StageSolver::dirk_stage(const VecX& Q, const VecX& V, double k, double t_stage, const VecX& x_start, VecX& q_s,
                             VecX& v_s, StepResult& result) {
  q_s = x_start;
  stage_predictor_ = Q + k * V;  // into kept storage: no allocation per stage
  solve(q_s, stage_predictor_, k * k, Q, k, t_stage, k, result);
  v_s = (q_s - Q) / k;
}

void StageSolver::begin_step_in_coordinates(double t, double h, const VecX& y_start) {
  t_start_ = t;
  h_ = h;
  if (model_.rayleigh_beta != 0.0) coordinates_->set_stiffness_damping_start(y_start);
}

VecX StageSolver::acceleration_in_coordinates(const VecX& y, const VecX& y_dot) {
  VecX g;
  coordinates_->potential(y, &g);
  if (model_.rayleigh_alpha != 0.0) g += model_.rayleigh_alpha * (coordinates_->reduced_mass() * y_dot);
  if (model_.rayleigh_beta != 0.0) coordinates_->add_stiffness_damping_force(y_dot, g);
  return -coordinates_->solve_reduced_mass(g);
}

void StageSolver::dirk_stage_in_coordinates(const VecX& Q, const VecX& V, double k, double t_stage,
                                            const VecX& y_start, VecX& y_s, VecX& v_s, StepResult& result) {
  y_s = y_start;
  stage_predictor_ = Q + k * V;
  solve_in_coordinates(y_s, stage_predictor_, k * k, Q, k, t_stage, k, result);
  v_s = (y_s - Q) / k;
}

void StageSolver::solve_in_coordinates(VecX& y, const VecX& y_pred, double w, const VecX& y_ref, double w_d,
                                       double t_stage, double velocity_scale, StepResult& result) {
  static const VecX kNoPositions;  // the stage's predictor and reference are given in coordinates
  objective_.set_step(stage_at(t_stage), kNoPositions, 1.0, w, kNoPositions, w_d);
  coordinates_->set_coordinate_step(y_pred, y_ref);
  history_.clear();
  NewtonResult r = projected_newton(*coordinates_, y, *solver_, stage_newton_options(velocity_scale), &history_,
                                    &newton_workspace_);
  accept_semi_implicit(r, y);
  result.accumulate(r);
}

void StageSolver::start_step(const State& state, double h, VecX& x0, VecX& v0) {
  if (!in_coordinates()) {
    x0 = state.x;
    v0 = state.v;
    begin_step(x0, state.t, h);
    return;
  }
  start_coordinates(model_.subspace, state, x0, v0);
  begin_step_in_coordinates(state.t, h, x0);
}

void StageSolver::finish_step(State& state, VecX& q1, VecX& v1, double t1) const {
  if (in_coordinates()) return finish_coordinates(model_.subspace, state, q1, v1, t1);
  state.x.swap(q1);
  state.v.swap(v1);
  state.t = t1;
}

std::pair<double, double> StageSolver::energies_in_coordinates(const State& state) {
  if (!in_coordinates() || !state.coordinates_current)
    throw std::logic_error("energies_in_coordinates: the state was not stepped in coordinates");
  return {kinetic_energy_in_coordinates(state.y_dot), potential_in_coordinates(state.y)};
}

double StageSolver::potential_in_coordinates(const VecX& y) { return coordinates_->potential(y, nullptr); }

double StageSolver::kinetic_energy_in_coordinates(const VecX& y_dot) const {
  return 0.5 * y_dot.dot(coordinates_->reduced_mass() * y_dot);
}

}  // namespace softsim
