#pragma once
// A Stepper advances the state by one time step. Implicit steppers build a step problem and hand
// it to a Newton solver; explicit ones evaluate forces. All share this interface.
#include <memory>
#include <string>

#include "softsim/model/model.hpp"
#include "softsim/model/state.hpp"
#include "softsim/solve/newton.hpp"

namespace softsim {

struct StepResult {
  bool converged = true;
  int newton_iterations = 0;
  int linear_iterations = 0;
  double residual = 0.0;  // the solver's final scaled step (m/s for dynamics), NaN if n/a
  std::string failure;
  double assembly_ms = 0.0, solve_ms = 0.0, line_search_ms = 0.0;

  void accumulate(const NewtonResult& r);
};

class Stepper {
 public:
  virtual ~Stepper() = default;
  virtual std::string name() const = 0;
  // Advances state from t to t + h (state.t is updated).
  virtual StepResult step(State& state, double h) = 0;
};

struct StepperOptions {
  std::string type = "backward_euler";
  NewtonOptions newton;
  std::string linear_solver = "auto";
};

// Throws std::invalid_argument for unknown types.
std::unique_ptr<Stepper> make_stepper(Model& model, const StepperOptions& options);
const std::vector<std::string>& stepper_names();

// Kinetic energy 1/2 v^T M v.
double kinetic_energy(const Model& model, const VecX& v);

}  // namespace softsim
