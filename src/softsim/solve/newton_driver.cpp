#include "softsim/solve/newton_driver.hpp"

#include <chrono>
#include <cstdio>
#include <optional>

#include "softsim/core/debug_output.hpp"

namespace softsim {

NewtonResult run_newton(NewtonVariant& variant, VecX& x, const NewtonOptions& options,
                        std::vector<double>* history, NewtonWorkspace* workspace) {
  NewtonResult result;
  std::optional<NewtonWorkspace> own;  // made only when none is given (an empty SparseMat allocates)
  if (!workspace) workspace = &own.emplace();
  VecX& p = workspace->step;
  VecX& x_trial = workspace->trial;
  p.resize(x.size());
  x_trial.resize(x.size());
  const bool debug = newton_debug_enabled();
  for (int it = 0; it < options.max_iterations; ++it) {
    if (!variant.evaluate(x, result)) {
      result.failure = variant.evaluation_failure();
      return result;
    }
    if (history) history->push_back(variant.history_norm());
    result.gradient_norm = variant.stationarity();
    result.energy = variant.merit();
    if (result.gradient_norm <= options.gradient_tolerance) {
      result.converged = true;
      result.scaled_step = 0.0;
      return result;
    }
    bool accepted = false, solved = false, last = false;
    // Where the last step is not taken, a bound on it below the tolerance decides as the step
    // would (the iteration counts: it is the one that stops the solve).
    bool stop_hooks_ran = false;
    double bound = 0.0;
    if (!options.take_last_step && variant.bounded_step_norm(x, options.vertex_l1_dim, bound) &&
        bound / options.step_scale < options.tolerance) {
      ++result.iterations;
      result.scaled_step = bound / options.step_scale;
      if (debug)
        std::fprintf(stderr, "%s %d: merit=%.10g |g|=%.3g step bounded by %.3g, not solved\n", variant.name(), it,
                     result.energy, result.gradient_norm, result.scaled_step);
      if (!variant.before_stop(x)) {
        result.converged = true;
        return result;
      }
      // The problem changed: go on along the step, solved now from the Hessian and gradient as
      // they were evaluated (the stop hooks change values, not which DOFs are held: energy.hpp).
      stop_hooks_ran = true;
    }
    for (int attempt = 0;; ++attempt) {
      const NewtonVariant::Direction d = variant.direction(x, attempt, p, result);
      if (d == NewtonVariant::Direction::none_left) break;
      if (d == NewtonVariant::Direction::failed) continue;
      if (!solved) {  // the iteration's first direction measures the step
        result.scaled_step = variant.step_norm(p, options.vertex_l1_dim) / options.step_scale;
        if (!stop_hooks_ran) {  // and counts the iteration, unless its bound did both already
          ++result.iterations;
          last = result.scaled_step < options.tolerance;
          if (last && !options.take_last_step) {
            if (!variant.before_stop(x)) {
              result.converged = true;
              return result;
            }
            last = false;  // the problem changed (a penalty stiffened): go on along p
          }
        }
      }
      solved = true;
      accepted = variant.line_search(x, p, attempt, last, x_trial, result);
      if (debug)
        std::fprintf(stderr, "%s %d.%d: merit=%.10g |g|=%.3g step=%.3g (tested %.3g) %s\n", variant.name(), it,
                     attempt, result.energy, result.gradient_norm, p.lpNorm<Eigen::Infinity>() / options.step_scale,
                     result.scaled_step, accepted ? "accepted" : "no decrease");
      if (accepted || last) break;
    }
    if (!accepted && last) {  // the last step lost to round-off: converged where we are
      result.converged = true;
      return result;
    }
    if (!accepted) {
      result.failure = solved ? "line search found no decrease" : variant.direction_failure();
      return result;
    }
    x = x_trial;
    variant.accept(x);
    variant.end_iteration(x);
    if (last) {
      result.converged = true;
      return result;
    }
  }
  result.failure = "maximum Newton iterations reached";
  return result;
}

}  // namespace softsim
