#include "softsim/integrate/exponential/exponential_stepper.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "softsim/solve/solver_timing.hpp"

namespace softsim {

namespace {
using Clock = std::chrono::steady_clock;
constexpr const char* kFactorizationFailed = "the matrix M + c D + c^2 K could not be factorized";
}  // namespace

void check_exponential_compatible(const Model& model, IntegratorType type) {
  const std::string method(name_of(type));
  for (const auto& term : model.energies()) {
    const std::string name = term->name();
    if (name == "ipc_contact" || name == "obstacle_barrier" || name == "penalty_contact" || name == "lagged_friction")
      throw std::invalid_argument("integrator '" + method + "' does not support the term '" + name +
                                  "': the exponential integrators are linearly implicit and have no step filter to "
                                  "keep contact intersection-free; use backward_euler, bdf2, tr_bdf2 or sdirk2");
  }
  if (model.has_velocity_forces())
    throw std::invalid_argument("integrator '" + method + "' does not support the force '" +
                                model.forces().front()->name() + "' (a force without a potential)");
  if (model.boundary.has_slip())
    throw std::invalid_argument("integrator '" + method + "' does not support slip conditions");
}

ExponentialStepper::ExponentialStepper(const Model& model, const StepperOptions& options)
    : model_(model), data_(model), options_(options), system_(model, options.newton.project_psd), split_(system_, options.linear_solver) {
  check_exponential_compatible(model, options.type);
}

std::string ExponentialStepper::name() const { return std::string(name_of(options_.type)); }

ExponentialCosts ExponentialStepper::costs() const {
  ExponentialCosts c = costs_;
  c.split = split_.costs;
  return c;
}

StepResult ExponentialStepper::step(State& state, double h) {
  using T = IntegratorType;
  const Stage stage = Stage::step(state.t, h);
  model_.begin_step(stage, data_, state.x);
  const EvalContext ctx{stage, data_};
  StepResult result;
  result.residual = std::numeric_limits<double>::quiet_NaN();
  if (options_.type == T::ere) {
    result = step_ere(state, h, ctx);
  } else {
    const VecX q0 = state.x, v0 = state.v;
    auto t = Clock::now();
    const SparseMat K0 = system_.stiffness(ctx, q0);
    system_.set_damping(K0);
    const VecX f0 = system_.force(ctx, q0, v0);
    const VecX a0 = system_.solve_mass(f0);
    costs_.assembly_ms += ms_since(t);
    const int refresh = options_.exponential.refresh_every;
    if (modes_.modes.rows() == 0 || (refresh > 0 && steps_ % refresh == 0)) {
      t = Clock::now();
      ModalOptions mo;
      mo.count = options_.exponential.modes;
      try {
        modes_ = lowest_modes(K0, model_.mass_matrix(), model_.boundary.fixed_dofs(), mo);
      } catch (const std::runtime_error& e) {  // the step fails, the state stays at its start
        result.converged = false;
        result.failure = e.what();
        return result;
      }
      costs_.eigen_ms += ms_since(t);
      ++costs_.decompositions;
    }
    const MatX& X = modes_.modes;
    result.krylov_dimension = 2 * modes_.count();
    VecX q1, v1, dq, dv, e_q, e_v, h_q, h_v;
    const bool two_step = options_.type == T::bdf2ere || options_.type == T::sbdf2ere;
    T method = options_.type;
    // First step, or h changed, or the state was set elsewhere: the two-step formulas assume
    // equal consecutive steps (as bdf2.cpp).
    const bool history_usable = previous_ && std::abs(h - previous_h_) <= 1e-12 * h &&
                                std::abs(state.t - previous_end_) <= 1e-9 * std::max(1.0, std::abs(state.t)) + 1e-3 * h;
    if (two_step && !history_usable) method = method == T::bdf2ere ? T::beere : T::siere;
    auto fail = [&](const std::string& why) {
      result.converged = false;
      result.failure = why;
    };
    switch (method) {
      case T::siere:
      case T::sbdf2ere: {
        const double c = method == T::siere ? h : 2.0 * h / 3.0;
        if (!split_.prepare(K0, X, c)) {
          fail(kFactorizationFailed);
          break;
        }
        split_.subspace_ere(h, v0, f0, e_q, e_v);
        split_.h_part(v0, f0, a0, h_q, h_v);
        VecX r_q = h * h_q + e_q, r_v = h * h_v + e_v;
        if (method == T::sbdf2ere) {  // (u0 - u_-1)/3 + 2h/3 H(u0) + 2/3 h phi_1(h J_G) G(u0)
          VecX d_q = system_.masked(q0 - previous_->first), d_v = system_.masked(v0 - previous_->second);
          if (options_.exponential.history == SubspaceHistory::complement) {
            split_.complement(d_q, d_v);
            r_q = (d_q + 2.0 * h * h_q) / 3.0 + e_q;
            r_v = (d_v + 2.0 * h * h_v) / 3.0 + e_v;
          } else {
            r_q = (d_q + 2.0 * r_q) / 3.0;
            r_v = (d_v + 2.0 * r_v) / 3.0;
          }
        }
        if (!split_.solve(r_q, r_v, dq, dv)) fail("the linear solve failed");
        q1 = q0 + dq;
        v1 = v0 + dv;
        result.newton_iterations = 1;
        break;
      }
      case T::beere:
      case T::bdf2ere: {
        const double c = method == T::bdf2ere ? 2.0 * h / 3.0 : h;
        if (!split_.prepare(K0, X, c)) {
          fail(kFactorizationFailed);
          break;
        }
        split_.subspace_ere(h, v0, f0, e_q, e_v);
        VecX base_q = q0 + e_q, base_v = v0 + e_v;
        if (method == T::bdf2ere) {  // u^ = (4 u0 - u_-1 + 2 h phi_1(h J_G) G(u0)) / 3
          if (options_.exponential.history == SubspaceHistory::complement) {
            VecX d_q = system_.masked(q0 - previous_->first), d_v = system_.masked(v0 - previous_->second);
            split_.complement(d_q, d_v);
            base_q = q0 + d_q / 3.0 + e_q;
            base_v = v0 + d_v / 3.0 + e_v;
          } else {
            base_q = (4.0 * q0 - previous_->first + 2.0 * e_q) / 3.0;
            base_v = (4.0 * v0 - previous_->second + 2.0 * e_v) / 3.0;
          }
        }
        q1 = q0;
        v1 = v0;
        newton_split(ctx, base_q, base_v, c, f0, a0, q1, v1, result);
        break;
      }
      case T::str_sbdf2ere: {
        // Trapezoidal half step, semi-implicit in the full space (no split): (I - h/4 J) du = h/2 F(u0).
        if (!split_.prepare(K0, MatX(q0.size(), 0), 0.25 * h)) {
          fail(kFactorizationFailed);
          break;
        }
        if (!split_.solve(0.5 * h * system_.masked(v0), 0.5 * h * a0, dq, dv)) {
          fail("the linear solve failed");
          break;
        }
        const VecX qh = q0 + dq, vh = v0 + dv;
        t = Clock::now();
        const SparseMat Kh = system_.stiffness(ctx, qh);
        const VecX fh = system_.force(ctx, qh, vh);
        const VecX ah = system_.solve_mass(fh);
        costs_.assembly_ms += ms_since(t);
        if (!split_.prepare(Kh, X, h / 3.0)) {
          fail(kFactorizationFailed);
          break;
        }
        split_.subspace_ere(0.5 * h, vh, fh, e_q, e_v);  // h/2 phi_1(h/2 J_G) G(u1/2)
        split_.h_part(vh, fh, ah, h_q, h_v);
        // (u1/2 - u0)/3 + h/3 (H + phi_1(h/2 J_G) G)(u1/2)
        VecX r_q = (dq + h * h_q + 2.0 * e_q) / 3.0, r_v = (dv + h * h_v + 2.0 * e_v) / 3.0;
        if (options_.exponential.history == SubspaceHistory::complement) {
          VecX d_q = system_.masked(dq), d_v = system_.masked(dv);
          split_.complement(d_q, d_v);
          r_q = (d_q + h * h_q) / 3.0 + e_q;
          r_v = (d_v + h * h_v) / 3.0 + e_v;
        }
        VecX dq2, dv2;
        if (!split_.solve(r_q, r_v, dq2, dv2)) fail("the linear solve failed");
        q1 = qh + dq2;
        v1 = vh + dv2;
        result.newton_iterations = 2;
        break;
      }
      default: throw std::logic_error("not an additive exponential method");
    }
    if (q1.size() == 0) {
      q1 = q0;
      v1 = v0;
    }
    previous_ = std::make_pair(q0, v0);
    previous_h_ = h;
    previous_end_ = state.t + h;
    state.x = std::move(q1);
    state.v = std::move(v1);
  }
  model_.boundary.apply_positions(state.x, model_.rest_positions, state.t + h);
  model_.boundary.apply_velocities(state.v, model_.rest_positions, state.t + h);
  state.t += h;
  ++steps_;
  if (!state.x.allFinite() || !state.v.allFinite()) {
    result.converged = false;
    if (result.failure.empty()) result.failure = "the state became non-finite";
  }
  return result;
}

StepResult ExponentialStepper::step_ere(State& state, double h, const EvalContext& ctx) {
  StepResult result;
  result.residual = std::numeric_limits<double>::quiet_NaN();
  auto t = Clock::now();
  const SparseMat K = system_.stiffness(ctx, state.x);
  system_.set_damping(K);
  const VecX f = system_.force(ctx, state.x, state.v);
  costs_.assembly_ms += ms_since(t);
  t = Clock::now();
  const int n = system_.size();
  VecX F(2 * n);
  F << system_.masked(state.v), system_.solve_mass(f);
  const LinearOperator J = [&](const VecX& u, VecX& out) {
    VecX jq, jv;
    system_.jacobian_times(K, u.head(n), u.tail(n), jq, jv);
    out.resize(2 * n);
    out << jq, jv;
  };
  KrylovPhiOptions ko;
  ko.tolerance = options_.exponential.krylov_tolerance;
  ko.max_dimension = options_.exponential.krylov_max_dimension;
  KrylovPhiResult r;
  try {
    r = phi1_action(J, F, h, ko);
  } catch (const std::runtime_error& e) {  // non-finite products, too many sub-steps
    result.converged = false;
    result.failure = std::string("ERE: ") + e.what();
    return result;
  }
  costs_.krylov_ms += ms_since(t);
  state.x += r.value.head(n);
  state.v += r.value.tail(n);
  result.krylov_dimension = r.max_dimension_used;
  result.linear_iterations = r.products;
  result.newton_iterations = r.substeps;
  return result;
}

void ExponentialStepper::newton_split(const EvalContext& ctx, const VecX& base_q, const VecX& base_v, double c,
                                      VecX f, VecX a, VecX& q, VecX& v, StepResult& result) {
  const NewtonOptions& newton = options_.newton;
  const MatX& X = modes_.modes;
  SparseMat K;  // outlives the iteration's solve (the split keeps a pointer to it)
  for (int k = 0; k < newton.max_iterations; ++k) {
    if (k > 0) {  // the first iterate is the start, assembled and prepared by the caller
      const auto t = Clock::now();
      K = system_.stiffness(ctx, q);
      f = system_.force(ctx, q, v);
      a = system_.solve_mass(f);
      costs_.assembly_ms += ms_since(t);
      if (!split_.prepare(K, X, c)) {
        result.converged = false;
        result.failure = kFactorizationFailed;
        return;
      }
    }
    VecX h_q, h_v, dq, dv;
    split_.h_part(v, f, a, h_q, h_v);
    // -R(u) = base + c H(u) - u (free DOFs)
    const VecX r_q = system_.masked(base_q + c * h_q - q), r_v = system_.masked(base_v + c * h_v - v);
    if (!split_.solve(r_q, r_v, dq, dv)) {
      result.converged = false;
      result.failure = "the linear solve failed";
      return;
    }
    q += dq;
    v += dv;
    result.newton_iterations = k + 1;
    result.residual = dv.lpNorm<Eigen::Infinity>();
    if (result.residual < newton.tolerance) return;
  }
  result.converged = false;
  result.failure = "Newton did not converge in " + std::to_string(newton.max_iterations) + " iterations";
}

// The modes are saved, not recomputed: with refresh_every != 1 they were computed at an earlier
// state than the checkpoint's.
void ExponentialStepper::save(ArchiveWriter& out) const {
  data_.save(model_, out);
  out.tag("exponential");
  out.integer(steps_);
  out.matrix(modes_.modes);
  out.vector(modes_.eigenvalues);
  out.flag(previous_.has_value());
  if (previous_) {
    out.vector(previous_->first);
    out.vector(previous_->second);
  }
  out.real(previous_h_);
  out.real(previous_end_);
}

void ExponentialStepper::load(ArchiveReader& in) {
  data_.load(model_, in);
  in.expect("exponential");
  steps_ = static_cast<int>(in.integer(0, 1 << 30, "step count"));
  modes_.modes = in.matrix();
  modes_.eigenvalues = in.vector();
  previous_.reset();
  if (in.flag()) {
    VecX q = in.vector();
    VecX v = in.vector();
    previous_ = std::make_pair(std::move(q), std::move(v));
  }
  previous_h_ = in.real();
  previous_end_ = in.real();
}

}  // namespace softsim
