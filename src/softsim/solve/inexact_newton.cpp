#include "softsim/solve/inexact_newton.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "softsim/solve/residual_newton.hpp"
#include "softsim/solve/solver_timing.hpp"

namespace softsim {

int bicgstab(const std::function<void(const VecX&, VecX&)>& apply, const VecX& b, VecX& x, double rel_tol,
             int max_iterations, double* relative_residual) {
  const double b_norm = b.norm();
  if (b_norm == 0.0) {
    x.setZero(b.size());
    if (relative_residual) *relative_residual = 0.0;
    return 0;
  }
  VecX Ax(b.size()), r(b.size()), r_hat, p, v, s, t;
  apply(x, Ax);
  r = b - Ax;
  r_hat = r;
  double rho = 1.0, alpha = 1.0, omega = 1.0;
  v = VecX::Zero(b.size());
  p = VecX::Zero(b.size());
  int it = 0;
  double res = r.norm() / b_norm;
  while (res > rel_tol && it < max_iterations) {
    ++it;
    const double rho_new = r_hat.dot(r);
    if (rho_new == 0.0) {  // breakdown: restart from the current iterate
      r_hat = r;
      rho = 1.0, alpha = 1.0, omega = 1.0;
      v.setZero();
      p.setZero();
      continue;
    }
    const double beta = (rho_new / rho) * (alpha / omega);
    rho = rho_new;
    p = r + beta * (p - omega * v);
    apply(p, v);
    alpha = rho / r_hat.dot(v);
    s = r - alpha * v;
    if (s.norm() / b_norm <= rel_tol) {
      x += alpha * p;
      r = s;
      res = r.norm() / b_norm;
      break;
    }
    apply(s, t);
    const double tt = t.squaredNorm();
    omega = tt > 0.0 ? t.dot(s) / tt : 0.0;
    x += alpha * p + omega * s;
    r = s - omega * t;
    res = r.norm() / b_norm;
    if (omega == 0.0) break;
  }
  if (relative_residual) *relative_residual = res;
  return it;
}

namespace {

// Inexact Newton's direction: BiCGSTAB on J p = -r to the Eisenstat-Walker forcing term.
class InexactNewton : public ResidualNewtonVariant {
 public:
  InexactNewton(ResidualProblem& problem, const NewtonOptions& options, const InexactNewtonOptions& inexact,
                Eigen::Index n)
      : ResidualNewtonVariant(problem, options, n), inexact_(inexact), r_eps_(n) {}

  const char* name() const override { return "inexact newton"; }

  Direction direction(const VecX& v, int attempt, VecX& p, NewtonResult& result) override {
    if (attempt > 0) return Direction::none_left;
    const double phi = 0.5 * (1.0 + std::sqrt(5.0));
    const double sigma = r_prev_norm_ > 0.0 ? std::min(std::pow(r_norm_ / r_prev_norm_, phi), inexact_.sigma_max)
                                            : inexact_.sigma_max;
    const PhaseTimer timer;
    // J p by the problem's operator (forward mode, built once for all Krylov iterations here),
    // else a forward directional finite difference of the residual.
    const auto jacobian = problem_.jacobian_operator(v);
    const double v_norm = v.norm();
    const Eigen::Index n = v.size();
    auto jvp = [&](const VecX& d, VecX& out) {
      if (jacobian) {
        jacobian(d, out);
        if (out.allFinite()) return;
      }
      const double d_norm = d.norm();
      if (d_norm == 0.0) {
        out.setZero(n);
        return;
      }
      const double eps = std::sqrt(std::numeric_limits<double>::epsilon()) * (1.0 + v_norm) / d_norm;
      VecX dw = d;
      problem_.expand(dw);
      if (!problem_.residual(v + eps * dw, r_eps_)) r_eps_.setConstant(std::numeric_limits<double>::quiet_NaN());
      out = (r_eps_ - r_) / eps;
    };
    p.setZero(n);
    relative_residual_ = 0.0;
    result.linear_iterations += bicgstab(jvp, -r_, p, sigma, inexact_.max_linear_iterations, &relative_residual_);
    timer.add_to(result.solve_ms);
    if (!p.allFinite()) return Direction::failed;
    problem_.expand(p);
    return Direction::found;
  }
  std::string direction_failure() const override { return "BiCGSTAB produced a non-finite direction"; }

  // Along an inexact direction the merit's slope is <= -(1 - rel) ||r||^2.
  bool line_search(const VecX& v, const VecX& p, int, bool, VecX& v_trial, NewtonResult& result) override {
    return merit_search(v, p, std::max(1.0 - relative_residual_, 0.0), v_trial, result);
  }
  void accept(const VecX& v) override {
    r_prev_norm_ = r_norm_;
    ResidualNewtonVariant::accept(v);
  }

 private:
  const InexactNewtonOptions& inexact_;
  VecX r_eps_;
  double r_prev_norm_ = -1.0, relative_residual_ = 0.0;
};

}  // namespace

NewtonResult inexact_newton(ResidualProblem& problem, VecX& v, const NewtonOptions& options,
                            const InexactNewtonOptions& inexact, std::vector<double>* history) {
  InexactNewton variant(problem, options, inexact, v.size());
  return run_newton(variant, v, options, history);
}

}  // namespace softsim
