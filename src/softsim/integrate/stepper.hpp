#pragma once
// A Stepper advances the state by one time step. Implicit steppers build a step problem and hand
// it to a Newton solver; explicit ones evaluate forces. All share this interface.
#include <memory>
#include <string>

#include "softsim/model/model.hpp"
#include "softsim/model/state.hpp"
#include "softsim/solve/newton_options.hpp"

namespace softsim {

struct StepResult {
  bool converged = true;
  int newton_iterations = 0;
  int linear_iterations = 0;
  double residual = 0.0;  // the solver's final scaled step (m/s for dynamics), NaN if n/a
  std::string failure;
  int substeps = 1;  // > 1 when the step was cut back (SubdividingStepper)
  double assembly_ms = 0.0, solve_ms = 0.0, line_search_ms = 0.0, factorization_ms = 0.0;  // see NewtonResult

  void accumulate(const NewtonResult& r);
  // Adds another attempt's iterations and timings; keeps this result's convergence and failure.
  void add_costs(const StepResult& other);
};

class Stepper {
 public:
  virtual ~Stepper() = default;
  virtual std::string name() const = 0;
  // Advances state from t to t + h (state.t is updated).
  virtual StepResult step(State& state, double h) = 0;
  // What the run wrote besides the state: every term's adaptive and lagged data (the barrier
  // stiffness, frozen friction contacts, corotated rotations), for outputs and inspection.
  virtual const ModelData& data() const = 0;
};

struct StepperOptions {
  std::string type = "backward_euler";
  NewtonOptions newton;
  std::string linear_solver = "auto";
  // Semi-implicit variant (seed 000 eq. 6): one Newton iteration per implicit stage from the
  // start-of-step guess, accepted as the stage solution.
  bool semi_implicit = false;
  // "potential": minimise the stage's incremental potential (seed 000 eq. 14-15);
  // "residual": find a root of the stage's momentum residual r(v) (seed 003 eq. 22-24).
  std::string form = "potential";
  // "projected_newton" (potential form), "damped_newton" (seed 003 Alg. 1) or
  // "inexact_newton" (seed 003 Alg. 2); the latter two imply the residual form.
  std::string nonlinear_solver = "projected_newton";
  double newmark_beta = 0.25, newmark_gamma = 0.5;  // Newmark parameters
  double rho_inf = 0.5;  // generalized-alpha spectral radius at infinite frequency, in [0, 1]
  // A failed step of a one-step integrator is retried as halves, down to h / 2^max_step_halvings
  // (subdividing_stepper.hpp); 0 disables the cutback.
  int max_step_halvings = 3;
};

// Throws std::invalid_argument for unknown types.
std::unique_ptr<Stepper> make_stepper(const Model& model, const StepperOptions& options);
const std::vector<std::string>& stepper_names();

// Kinetic energy 1/2 v^T M v.
double kinetic_energy(const Model& model, const VecX& v);

}  // namespace softsim
