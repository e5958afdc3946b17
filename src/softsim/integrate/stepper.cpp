#include "softsim/integrate/stepper.hpp"

#include <stdexcept>

#include "softsim/integrate/backward_euler.hpp"
#include "softsim/integrate/explicit_euler.hpp"
#include "softsim/integrate/static_solve.hpp"

namespace softsim {

void StepResult::accumulate(const NewtonResult& r) {
  converged = converged && r.converged;
  newton_iterations += r.iterations;
  linear_iterations += r.linear_iterations;
  residual = r.scaled_step;
  if (!r.converged && failure.empty()) failure = r.failure;
  assembly_ms += r.assembly_ms;
  solve_ms += r.solve_ms;
  line_search_ms += r.line_search_ms;
}

const std::vector<std::string>& stepper_names() {
  static const std::vector<std::string> names{"forward_euler", "symplectic_euler", "backward_euler", "static"};
  return names;
}

std::unique_ptr<Stepper> make_stepper(Model& model, const StepperOptions& options) {
  if (options.type == "backward_euler") return std::make_unique<BackwardEulerStepper>(model, options);
  if (options.type == "static") return std::make_unique<StaticStepper>(model, options);
  if (options.type == "forward_euler") return std::make_unique<ExplicitEulerStepper>(model, false);
  if (options.type == "symplectic_euler") return std::make_unique<ExplicitEulerStepper>(model, true);
  throw std::invalid_argument("unknown integrator '" + options.type + "'");
}

double kinetic_energy(const Model& model, const VecX& v) { return 0.5 * v.dot(model.mass_times(v)); }

}  // namespace softsim
