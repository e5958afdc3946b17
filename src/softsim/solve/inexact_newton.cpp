#include "softsim/solve/inexact_newton.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "softsim/solve/merit_line_search.hpp"
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

NewtonResult inexact_newton(ResidualProblem& problem, VecX& v, const NewtonOptions& options,
                            const InexactNewtonOptions& inexact, std::vector<double>* history) {
  NewtonResult result;
  const Eigen::Index n = v.size();
  const double phi = 0.5 * (1.0 + std::sqrt(5.0));
  VecX r(n), p(n), v_trial(n), r_trial(n), r_eps(n);
  auto t0 = std::chrono::steady_clock::now();
  if (!problem.residual(v, r) || !r.allFinite()) {
    result.failure = "non-finite residual";
    return result;
  }
  result.assembly_ms += ms_since(t0);
  double r_prev_norm = -1.0;
  for (int it = 0; it < options.max_iterations; ++it) {
    const double r_norm = r.norm();
    if (history) history->push_back(r_norm);
    result.gradient_norm = r.lpNorm<Eigen::Infinity>();
    result.energy = 0.5 * r_norm * r_norm;
    if (result.gradient_norm <= options.gradient_tolerance) {
      result.converged = true;
      result.scaled_step = 0.0;
      return result;
    }
    // Eisenstat-Walker forcing term (seed 003 sec. 4.3).
    const double sigma =
        r_prev_norm > 0.0 ? std::min(std::pow(r_norm / r_prev_norm, phi), inexact.sigma_max) : inexact.sigma_max;
    // Matrix-free J p by forward-mode AD when the problem provides it, else a forward
    // directional finite difference of the residual.
    const double v_norm = v.norm();
    auto jvp = [&](const VecX& d, VecX& out) {
      if (problem.jacobian_times(v, d, out)) return;
      const double d_norm = d.norm();
      if (d_norm == 0.0) {
        out.setZero(n);
        return;
      }
      const double eps = std::sqrt(std::numeric_limits<double>::epsilon()) * (1.0 + v_norm) / d_norm;
      VecX dw = d;
      problem.expand(dw);
      if (!problem.residual(v + eps * dw, r_eps)) r_eps.setConstant(std::numeric_limits<double>::quiet_NaN());
      out = (r_eps - r) / eps;
    };
    t0 = std::chrono::steady_clock::now();
    p.setZero(n);
    double rel = 0.0;
    result.linear_iterations += bicgstab(jvp, -r, p, sigma, inexact.max_linear_iterations, &rel);
    result.solve_ms += ms_since(t0);
    if (!p.allFinite()) {
      result.failure = "BiCGSTAB produced a non-finite direction";
      return result;
    }
    problem.expand(p);
    ++result.iterations;
    result.scaled_step = p.lpNorm<Eigen::Infinity>() / options.step_scale;
    // Below tolerance: converged, but the step is still taken (as in minimize()).
    const bool last = result.scaled_step < options.tolerance;
    // Merit-function line search; along an inexact direction the slope is <= -(1 - rel) ||r||^2.
    t0 = std::chrono::steady_clock::now();
    const double decrease = std::max(1.0 - rel, 0.0);
    const bool accepted = merit_line_search(problem, v, p, r_norm, decrease, options, v_trial, r_trial);
    result.line_search_ms += ms_since(t0);
    if (!accepted && last) {  // the last step lost to round-off: converged where we are
      problem.residual(v, r);
      result.converged = true;
      return result;
    }
    if (!accepted) {
      result.failure = "line search found no decrease";
      return result;
    }
    r_prev_norm = r_norm;
    v = v_trial;
    r = r_trial;
    if (last) {
      result.converged = true;
      return result;
    }
  }
  result.failure = "maximum Newton iterations reached";
  return result;
}

}  // namespace softsim
