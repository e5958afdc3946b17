// What kind of method an integrator type is: kept apart from make_stepper (stepper.cpp), which
// builds every integrator, so that scene parsing can ask without linking them.
#include "softsim/integrate/stepper.hpp"

namespace softsim {

bool is_one_step(IntegratorType type) {
  using T = IntegratorType;
  return type == T::backward_euler || type == T::trapezoidal || type == T::tr_bdf2 || type == T::sdirk2 ||
         type == T::implicit_midpoint;
}

bool is_exponential(IntegratorType type) {
  using T = IntegratorType;
  return type == T::ere || type == T::siere || type == T::beere || type == T::bdf2ere || type == T::sbdf2ere ||
         type == T::str_sbdf2ere;
}

bool is_position_based(IntegratorType type) { return type == IntegratorType::xpbd || type == IntegratorType::pbd; }

}  // namespace softsim
