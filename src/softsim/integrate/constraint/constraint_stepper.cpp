#include "softsim/integrate/constraint/constraint_stepper.hpp"

#include <chrono>
#include <stdexcept>

#include "softsim/core/stencil_assembly.hpp"
#include "softsim/solve/solver_timing.hpp"

namespace softsim {

namespace {
using Clock = std::chrono::steady_clock;
}  // namespace

ConstraintStepper::ConstraintStepper(const Model& model, const StepperOptions& options)
    : model_(model), data_(model), options_(options) {
  if (!model.constraint_contact) throw std::invalid_argument("constraint stepper: the model has no constraint contact");
  if (model.dim() != 3) throw std::invalid_argument("constraint contact is 3D only");
  if (model.has_velocity_forces())
    throw std::invalid_argument("constraint contact does not support the force '" + model.forces().front()->name() +
                                "' (a force without a potential)");
  solver_ = make_linear_solver(options.linear_solver, model.num_dofs());
}

bool ConstraintStepper::solve_columns(const MatX& B, MatX& X) {
  MatX reduced = B;
  VecX column;
  for (Eigen::Index j = 0; j < reduced.cols(); ++j) {
    column = reduced.col(j);
    model_.boundary.reduce_gradient(column);
    reduced.col(j) = column;
  }
  if (!solver_->solve_many(reduced, X)) return false;
  for (Eigen::Index j = 0; j < X.cols(); ++j) {
    column = X.col(j);
    model_.boundary.expand_step(column);
    X.col(j) = column;
  }
  return true;
}

StepResult ConstraintStepper::step(State& state, double h) {
  forces_.clear();  // a failed step reports no forces (the state stays at the step's start)
  contacts_.clear();
  StepResult result;
  result.residual = std::numeric_limits<double>::quiet_NaN();
  const Stage stage = Stage::step(state.t, h);
  model_.begin_step(stage, data_, state.x);
  const EvalContext ctx{stage, data_};
  const VecX& x0 = state.x;

  // Free motion (eqs. 5 and 12).
  auto t = Clock::now();
  SparseMat K = model_.layout().pattern();
  VecX gradient = VecX::Zero(x0.size());
  std::vector<Triplet> dynamic;
  AssemblyOutputs out;
  out.gradient = &gradient;
  out.hessian = &K;
  out.dynamic_hessian = &dynamic;
  out.project_psd = options_.newton.project_psd;
  model_.potential(ctx, x0, out);
  if (!dynamic.empty()) {
    SparseMat extra(K.rows(), K.cols());
    extra.setFromTriplets(dynamic.begin(), dynamic.end());
    K += extra;
  }
  const double alpha = model_.rayleigh_alpha, beta = model_.rayleigh_beta;
  SparseMat A = (h * beta + h * h) * K;
  SparseMat mass = model_.mass_matrix();
  A += (1.0 + h * alpha) * mass;
  VecX y = x0 + h * state.v;
  model_.boundary.apply_positions(y, model_.rest_positions, state.t + h);
  const VecX dy = y - x0;
  VecX rhs = -h * h * gradient - model_.mass_times(y - x0 - h * state.v) - (h * h + h * beta) * (K * dy) -
             h * alpha * model_.mass_times(dy);
  result.assembly_ms = ms_since(t);
  t = Clock::now();
  model_.boundary.reduce_hessian(A);
  model_.boundary.reduce_gradient(rhs);
  if (!solver_->compute(A)) {
    result.converged = false;
    result.failure = "the matrix M + h D + h^2 K could not be factorized";
    return result;
  }
  result.factorization_ms = ms_since(t);
  t = Clock::now();
  VecX p;
  if (!solver_->solve(rhs, p)) {
    result.converged = false;
    result.failure = "the free motion's linear solve failed";
    return result;
  }
  model_.boundary.expand_step(p);
  const VecX x_free = y + p;
  result.solve_ms = ms_since(t);
  free_motion_ms_ = result.assembly_ms + result.factorization_ms + result.solve_ms;

  // Contacts at the free positions, then the corrective motion.
  t = Clock::now();
  contacts_ = model_.constraint_contact->detect(x_free);
  const double detection_ms = ms_since(t);
  const CorrectionResult correction = corrective_motion(
      *model_.constraint_contact, contacts_, x0, x_free, h,
      [this](const MatX& B, MatX& X) { return solve_columns(B, X); }, options_.constraint);
  times_ = correction.times;
  times_.detection_ms = detection_ms;
  result.newton_iterations = correction.times.iterations;
  result.linear_iterations = correction.times.pgs_sweeps;
  if (!correction.ok) {
    result.converged = false;
    result.failure = correction.failure;
    return result;
  }
  if (!correction.x.allFinite()) {
    result.converged = false;
    result.failure = "the constraint correction produced a non-finite position";
    return result;
  }
  forces_ = correction.forces;
  state.v = (correction.x - x0) / h;
  state.x = correction.x;
  model_.boundary.apply_positions(state.x, model_.rest_positions, state.t + h);
  model_.boundary.apply_velocities(state.v, model_.rest_positions, state.t + h);
  state.t += h;
  return result;
}

}  // namespace softsim
