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
    for (int attempt = 0;; ++attempt) {
      const NewtonVariant::Direction d = variant.direction(x, attempt, p, result);
      if (d == NewtonVariant::Direction::none_left) break;
      if (d == NewtonVariant::Direction::failed) continue;
      if (!solved) {  // the iteration's first direction counts it and measures the step
        ++result.iterations;
        result.scaled_step = variant.step_norm(p, options.vertex_l1_dim) / options.step_scale;
        last = result.scaled_step < options.tolerance;
        if (last && !options.take_last_step) {
          if (!variant.before_stop(x)) {
            result.converged = true;
            return result;
          }
          last = false;  // the problem changed (a penalty stiffened): go on along p
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
