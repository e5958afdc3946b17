#include "softsim/integrate/stepper.hpp"

#include <stdexcept>

#include "softsim/integrate/bdf2.hpp"
#include "softsim/integrate/dirk.hpp"
#include "softsim/integrate/generalized_alpha.hpp"
#include "softsim/integrate/explicit_euler.hpp"
#include "softsim/integrate/static_solve.hpp"
#include "softsim/integrate/subdividing_stepper.hpp"

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
  factorization_ms += r.factorization_ms;
}

void StepResult::add_costs(const StepResult& other) {
  newton_iterations += other.newton_iterations;
  linear_iterations += other.linear_iterations;
  assembly_ms += other.assembly_ms;
  solve_ms += other.solve_ms;
  line_search_ms += other.line_search_ms;
  factorization_ms += other.factorization_ms;
}

const std::vector<std::string>& stepper_names() {
  static const std::vector<std::string> names{"forward_euler", "symplectic_euler", "backward_euler", "static",
                                                "trapezoidal",   "bdf2",             "tr_bdf2",        "sdirk2",
                                                "newmark",       "generalized_alpha"};
  return names;
}

namespace {

std::unique_ptr<Stepper> make_plain_stepper(const Model& model, const StepperOptions& options) {
  using M = DirkStepper::Method;
  if (options.type == "backward_euler") return std::make_unique<DirkStepper>(model, options, M::BackwardEuler);
  if (options.type == "trapezoidal") return std::make_unique<DirkStepper>(model, options, M::Trapezoidal);
  if (options.type == "tr_bdf2") return std::make_unique<DirkStepper>(model, options, M::TrBdf2);
  if (options.type == "sdirk2") return std::make_unique<DirkStepper>(model, options, M::Sdirk2);
  if (options.type == "bdf2") return std::make_unique<Bdf2Stepper>(model, options);
  if (options.type == "newmark")
    return std::make_unique<GeneralizedAlphaStepper>(
        model, options, AlphaParameters::newmark(options.newmark_beta, options.newmark_gamma), "newmark");
  if (options.type == "generalized_alpha")
    return std::make_unique<GeneralizedAlphaStepper>(model, options, AlphaParameters::chung_hulbert(options.rho_inf),
                                                     "generalized_alpha");
  if (options.type == "static") return std::make_unique<StaticStepper>(model, options);
  if (options.type == "forward_euler") return std::make_unique<ExplicitEulerStepper>(model, false);
  if (options.type == "symplectic_euler") return std::make_unique<ExplicitEulerStepper>(model, true);
  throw std::invalid_argument("unknown integrator '" + options.type + "'");
}

}  // namespace

std::unique_ptr<Stepper> make_stepper(const Model& model, const StepperOptions& options) {
  std::unique_ptr<Stepper> stepper = make_plain_stepper(model, options);
  // One-step methods only: BDF2 and generalized-alpha / Newmark carry state between steps that a
  // retry would have to restore; the semi-implicit variants accept their one iteration anyway.
  const bool one_step = options.type == "backward_euler" || options.type == "trapezoidal" ||
                        options.type == "tr_bdf2" || options.type == "sdirk2";
  if (one_step && !options.semi_implicit && options.max_step_halvings > 0)
    return std::make_unique<SubdividingStepper>(std::move(stepper), options.max_step_halvings);
  return stepper;
}

double kinetic_energy(const Model& model, const VecX& v) { return 0.5 * v.dot(model.mass_times(v)); }

}  // namespace softsim
