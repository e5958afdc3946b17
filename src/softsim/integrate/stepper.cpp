#include "softsim/integrate/stepper.hpp"

#include <stdexcept>

#include "softsim/integrate/bdf2.hpp"
#include "softsim/integrate/constraint/constraint_stepper.hpp"
#include "softsim/integrate/dirk.hpp"
#include "softsim/integrate/generalized_alpha.hpp"
#include "softsim/integrate/modal_stepper.hpp"
#include "softsim/pbd/xpbd_stepper.hpp"
#include "softsim/integrate/explicit_euler.hpp"
#include "softsim/integrate/exponential/exponential_stepper.hpp"
#include "softsim/integrate/static_solve.hpp"
#include "softsim/integrate/subdividing_stepper.hpp"

namespace softsim {

std::pair<double, double> Stepper::energies_in_coordinates(const State&) {
  throw std::logic_error(name() + " does not step in coordinates");
}

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

namespace {

std::unique_ptr<Stepper> make_plain_stepper(const Model& model, const StepperOptions& options) {
  using M = DirkStepper::Method;
  using T = IntegratorType;
  switch (options.type) {
    case T::backward_euler: return std::make_unique<DirkStepper>(model, options, M::BackwardEuler);
    case T::trapezoidal: return std::make_unique<DirkStepper>(model, options, M::Trapezoidal);
    case T::tr_bdf2: return std::make_unique<DirkStepper>(model, options, M::TrBdf2);
    case T::sdirk2: return std::make_unique<DirkStepper>(model, options, M::Sdirk2);
    case T::implicit_midpoint: return std::make_unique<DirkStepper>(model, options, M::ImplicitMidpoint);
    case T::bdf2: return std::make_unique<Bdf2Stepper>(model, options);
    case T::newmark:
      return std::make_unique<GeneralizedAlphaStepper>(
          model, options, AlphaParameters::newmark(options.newmark_beta, options.newmark_gamma), "newmark");
    case T::generalized_alpha:
      return std::make_unique<GeneralizedAlphaStepper>(model, options, AlphaParameters::chung_hulbert(options.rho_inf),
                                                       "generalized_alpha");
    case T::static_equilibrium: return std::make_unique<StaticStepper>(model, options);
    case T::forward_euler: return std::make_unique<ExplicitEulerStepper>(model, false);
    case T::symplectic_euler: return std::make_unique<ExplicitEulerStepper>(model, true);
    case T::ere:
    case T::siere:
    case T::beere:
    case T::bdf2ere:
    case T::sbdf2ere:
    case T::str_sbdf2ere: return std::make_unique<ExponentialStepper>(model, options);
    case T::modal: return std::make_unique<ModalStepper>(model);
    case T::xpbd: return std::make_unique<XpbdStepper>(model, options.pbd, true);
    case T::pbd: return std::make_unique<XpbdStepper>(model, options.pbd, false);
  }
  throw std::invalid_argument("unknown integrator");
}

}  // namespace

std::unique_ptr<Stepper> make_stepper(const Model& model, const StepperOptions& options) {
  if (model.constraint_contact) {
    if (options.type != IntegratorType::backward_euler)
      throw std::invalid_argument(std::string("constraint contact steps with backward_euler (linearised), not '") +
                                  name_of(options.type) + "'");
    return std::make_unique<ConstraintStepper>(model, options);
  }
  std::unique_ptr<Stepper> stepper = make_plain_stepper(model, options);
  // One-step methods only: BDF2 and generalized-alpha / Newmark carry state between steps that a
  // retry would have to restore; the semi-implicit variants accept their one iteration anyway.
  if (is_one_step(options.type) && !options.semi_implicit && options.max_step_halvings > 0)
    return std::make_unique<SubdividingStepper>(std::move(stepper), options.max_step_halvings);
  return stepper;
}

double kinetic_energy(const Model& model, const VecX& v) { return 0.5 * v.dot(model.mass_times(v)); }

}  // namespace softsim
