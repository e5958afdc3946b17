#include "softsim/integrate/implicit_stage.hpp"

#include <Eigen/SparseCholesky>
#include <limits>

#include "softsim/solve/damped_newton.hpp"
#include "softsim/solve/inexact_newton.hpp"

namespace softsim {

bool uses_residual_form(const StepperOptions& options) {
  return options.form == "residual" || options.nonlinear_solver == "damped_newton" ||
         options.nonlinear_solver == "inexact_newton";
}

namespace {

// r(v) = (1/s) grad E(anchor + s v), J = Hessian of E (unprojected), reduced for the boundary.
class StageResidual : public ResidualProblem {
 public:
  StageResidual(Objective& objective, const VecX& anchor, double s) : objective_(objective), anchor_(anchor), s_(s) {
    J_ = objective.hessian_pattern();
  }
  bool residual(const VecX& v, VecX& r) override {
    const double E = objective_.evaluate(anchor_ + s_ * v, &r, nullptr, false);
    if (!std::isfinite(E)) return false;
    r /= s_;
    objective_.reduce(r, nullptr);
    return r.allFinite();
  }
  bool jacobian(const VecX& v, SparseMat& J) override {
    VecX g(v.size());
    if (J.nonZeros() != J_.nonZeros()) J = J_;
    const double E = objective_.evaluate(anchor_ + s_ * v, &g, &J, false);
    if (!std::isfinite(E)) return false;
    objective_.reduce(g, &J);
    return true;
  }
  void expand(VecX& step) const override { objective_.expand(step); }
  double max_step_fraction(const VecX& v, const VecX& p) override {
    return objective_.max_step_fraction(anchor_ + s_ * v, s_ * p);
  }

 private:
  Objective& objective_;
  const VecX& anchor_;
  double s_;
  SparseMat J_;
};

// Model::begin_step gains (t, h) for time-dependent penalty targets in a concurrent change; call
// that overload when it exists, the one-argument form otherwise.
template <class M>
auto begin_model_step(M& model, const VecX& x, double t, double h, int) -> decltype(model.begin_step(x, t, h)) {
  return model.begin_step(x, t, h);
}
template <class M>
void begin_model_step(M& model, const VecX& x, double, double, long) {
  model.begin_step(x);
}

std::string direct_solver_name(const std::string& requested) {
  return requested == "umfpack" || requested == "lu" ? requested : "lu";
}

}  // namespace

StageSolver::StageSolver(Model& model, const StepperOptions& options)
    : model_(model), options_(options), objective_(model) {
  solver_ = uses_residual_form(options) ? make_linear_solver(direct_solver_name(options.linear_solver), model.num_dofs())
                                        : make_linear_solver(options.linear_solver, model.num_dofs());
  has_damping_ = model.rayleigh_alpha != 0.0 || model.rayleigh_beta != 0.0;
  inverse_lumped_mass_ = model.mass_times(VecX::Ones(model.num_dofs())).cwiseInverse();
  auto ldlt = std::make_unique<Eigen::SimplicialLDLT<SparseMat>>(model.mass_matrix());
  if (ldlt->info() == Eigen::Success) mass_ldlt_ = std::move(ldlt);
}

void StageSolver::begin_step(const VecX& x_start, double t, double h) {
  begin_model_step(model_, x_start, t, h, 0);
  objective_.freeze_damping_stiffness(x_start);
  if (!has_damping_) return;
  damping_ = model_.layout().pattern();
  if (model_.rayleigh_beta != 0.0) {
    AssemblyOutputs out;
    out.hessian = &damping_;
    out.weight = model_.rayleigh_beta;
    out.project_psd = true;
    model_.potential(x_start, out);
  }
  model_.add_mass_to(damping_, model_.rayleigh_alpha);
}

VecX StageSolver::force(const VecX& q, const VecX& v) const {
  VecX g = VecX::Zero(q.size());
  AssemblyOutputs out{&g, nullptr, 1.0, false};
  model_.potential(q, out);
  VecX f = -g;
  if (has_damping_) f -= damping_ * v;
  return f;
}

VecX StageSolver::solve_mass(const VecX& f) const {
  VecX a = mass_ldlt_ ? VecX(mass_ldlt_->solve(f)) : VecX(inverse_lumped_mass_.cwiseProduct(f));
  // Constrained directions do not accelerate: fixed DOFs and the eliminated local coordinates of
  // slip vertices (reduce_gradient rotates into the slip frames and zeroes them; expand_step
  // rotates back). Otherwise Newmark / generalized-alpha velocities would leave a slip plane.
  model_.boundary.reduce_gradient(a);
  model_.boundary.expand_step(a);
  return a;
}

void StageSolver::solve(VecX& q, const VecX& q_pred, double w, const VecX& q_ref, double w_d, double t_stage,
                        double velocity_scale, StepResult& result) {
  objective_.set_step(q_pred, 1.0, w, q_ref, w_d);
  NewtonOptions newton = options_.newton;
  newton.step_scale = velocity_scale;
  if (options_.semi_implicit) {
    newton.max_iterations = 1;
    newton.tolerance = 0.0;  // always take (and accept) the one iteration
    newton.gradient_tolerance = -1.0;
  }
  const VecX x_start = q;
  model_.boundary.apply_positions(q, model_.rest_positions, t_stage);
  NewtonResult r;
  history_.clear();
  if (!uses_residual_form(options_)) {
    r = minimize(objective_, q, *solver_, newton);
  } else {
    // Unknown v with q = anchor + s v, anchor = the start guess q (BCs applied). Algorithm 1
    // starts from the previous velocities, i.e. q = q_pred; the semi-implicit variant linearises
    // at the start-of-step positions (eq. 6), so it starts at v = 0.
    VecX anchor = q;
    VecX v = VecX::Zero(q.size());
    if (!options_.semi_implicit) {
      VecX guess = q_pred;
      model_.boundary.apply_positions(guess, model_.rest_positions, t_stage);
      if (guess.allFinite() && model_.max_step_fraction(anchor, guess - anchor) >= 1.0)
        v = (guess - anchor) / velocity_scale;
    }
    StageResidual problem(objective_, anchor, velocity_scale);
    if (options_.nonlinear_solver == "inexact_newton")
      r = inexact_newton(problem, v, newton, {}, &history_);
    else
      r = damped_newton(problem, v, *solver_, newton, &history_);
    q = anchor + velocity_scale * v;
  }
  if (options_.semi_implicit && r.iterations == 1 && q.allFinite()) {
    r.converged = true;
    r.failure.clear();
  }
  (void)x_start;
  result.accumulate(r);
}

void StageSolver::dirk_stage(const VecX& Q, const VecX& V, double k, double t_stage, const VecX& x_start, VecX& q_s,
                             VecX& v_s, StepResult& result) {
  q_s = x_start;
  solve(q_s, Q + k * V, k * k, Q, k, t_stage, k, result);
  v_s = (q_s - Q) / k;
}

}  // namespace softsim
