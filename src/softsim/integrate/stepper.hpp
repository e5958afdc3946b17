#pragma once
// A Stepper advances the state by one time step. Implicit steppers build a step problem and hand
// it to a Newton solver; explicit ones evaluate forces. All share this interface.
#include <memory>
#include <string>
#include <vector>

#include "softsim/core/binary_archive.hpp"
#include "softsim/model/model.hpp"
#include "softsim/model/state.hpp"
#include "softsim/core/enum_names.hpp"
#include "softsim/integrate/constraint/constraint_options.hpp"
#include "softsim/pbd/pbd_options.hpp"
#include "softsim/solve/newton_options.hpp"

namespace softsim {

struct ContactForce;  // integrate/constraint/corrective_motion.hpp

struct StepResult {
  bool converged = true;
  int newton_iterations = 0;
  int linear_iterations = 0;
  double residual = 0.0;  // the solver's final scaled step (m/s for dynamics), NaN if n/a
  std::string failure;
  int substeps = 1;  // > 1 when the step was cut back (SubdividingStepper)
  // Exponential integrators: the largest Krylov dimension of the step's phi_1 product (ERE), or
  // the size 2s of the subspace matrix (the additive methods); 0 for the others.
  int krylov_dimension = 0;
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
  // Constraint contact: every contact of the last step with its force (normal and tangential
  // multipliers); null for steppers without contact multipliers.
  virtual const std::vector<ContactForce>* contact_forces() const { return nullptr; }
  // Whether the stepper steps a model in a subspace in its coordinates (State::y): a driver may
  // then defer the positions (State::defer_positions) and take the energies there.
  virtual bool steps_in_coordinates() const { return false; }
  // The kinetic and potential energy of a state it stepped in coordinates, from y and y_dot only
  // (the values Model::potential and kinetic_energy give at its positions, to round-off).
  virtual std::pair<double, double> energies_in_coordinates(const State& state);
  // Checkpoints (sim/checkpoint.hpp): everything the stepper carries from one step to the next
  // (the run's data, a multistep method's previous step, a carried acceleration, the modes), so
  // that a run continued from a checkpoint ends bitwise where an uninterrupted one does. load()
  // reads what save() wrote for the same model and options; it throws ArchiveError otherwise.
  virtual void save(ArchiveWriter& out) const = 0;
  virtual void load(ArchiveReader& in) = 0;
};

// The time integrators (integrator.type; docs/integrators.md).
enum class IntegratorType {
  forward_euler, symplectic_euler, backward_euler, static_equilibrium, trapezoidal, bdf2, tr_bdf2, sdirk2,
  newmark, generalized_alpha,
  // Exponential Rosenbrock-Euler and the additive exponential methods (Ascher et al. 2022, sec. 3.5).
  ere, siere, beere, bdf2ere, sbdf2ere, str_sbdf2ere,
  // The implicit midpoint rule: symplectic, and it conserves linear and angular momentum exactly
  // for forces of a rotation-invariant potential.
  implicit_midpoint,
  // Reduced bodies' linear modal dynamics stepped in closed form (integrate/modal_stepper.hpp).
  modal,
  // Position-based dynamics: XPBD (compliance from the material) and plain PBD (pbd/xpbd_stepper.hpp).
  xpbd, pbd
};
template <>
struct EnumNames<IntegratorType> {
  using T = IntegratorType;
  static constexpr std::pair<T, const char*> table[] = {
      {T::forward_euler, "forward_euler"}, {T::symplectic_euler, "symplectic_euler"},
      {T::backward_euler, "backward_euler"}, {T::static_equilibrium, "static"}, {T::trapezoidal, "trapezoidal"},
      {T::bdf2, "bdf2"}, {T::tr_bdf2, "tr_bdf2"}, {T::sdirk2, "sdirk2"}, {T::implicit_midpoint, "implicit_midpoint"}, {T::newmark, "newmark"},
      {T::generalized_alpha, "generalized_alpha"}, {T::ere, "ere"}, {T::siere, "siere"}, {T::beere, "beere"},
      {T::bdf2ere, "bdf2ere"}, {T::sbdf2ere, "sbdf2ere"}, {T::str_sbdf2ere, "str_sbdf2ere"}, {T::modal, "modal"},
      {T::xpbd, "xpbd"}, {T::pbd, "pbd"}};
};

// How an implicit stage is posed: minimise its incremental potential (Ascher et al. 2022,
// eqs. 14-15), or find a root of its momentum residual r(v) (Larionov et al. 2022, eqs. 22-24).
enum class StageForm { potential, residual };
template <>
struct EnumNames<StageForm> {
  static constexpr std::pair<StageForm, const char*> table[] = {{StageForm::potential, "potential"},
                                                                {StageForm::residual, "residual"}};
};

// Projected Newton (the potential form), damped Newton (Larionov et al. 2022, Alg. 1) or inexact
// Newton (Alg. 2); the latter two solve the residual form.
enum class NonlinearSolver { projected_newton, damped_newton, inexact_newton };
template <>
struct EnumNames<NonlinearSolver> {
  using T = NonlinearSolver;
  static constexpr std::pair<T, const char*> table[] = {{T::projected_newton, "projected_newton"},
                                                        {T::damped_newton, "damped_newton"},
                                                        {T::inexact_newton, "inexact_newton"}};
};

// How the two-step and two-stage additive methods (bdf2ere, sbdf2ere, str_sbdf2ere) treat their
// difference ("history") terms u0 - u_-1 and u_1/2 - u0: on the complement of the modal subspace
// only, the subspace advancing by the exponential flow (softsim's default: a mode inside the
// subspace is integrated exactly, as by ERE), or on the full state as Ascher et al. 2022 print
// eqs. 22, 23 and 27 (first order, and it amplifies the subspace modes: docs/integrators.md).
enum class SubspaceHistory { complement, full };
template <>
struct EnumNames<SubspaceHistory> {
  static constexpr std::pair<SubspaceHistory, const char*> table[] = {{SubspaceHistory::complement, "complement"},
                                                                      {SubspaceHistory::full, "full"}};
};

// The exponential integrators' settings (integrator.exponential in a scene; docs/integrators.md).
struct ExponentialOptions {
  // s, the number of lowest modes K x = lambda M x integrated exponentially by the additive
  // methods (siere, beere, bdf2ere, sbdf2ere, str_sbdf2ere); 0 makes them their plain difference
  // method (SI, BE, BDF2, SBDF2, STR-SBDF2).
  int modes = 10;
  // Steps between two eigen-decompositions: 0 = once, at the first step's start; 1 = every step
  // (the default: soft bodies change their modes as they deform, docs/integrators.md).
  int refresh_every = 1;
  double krylov_tolerance = 1e-8;  // ERE's phi_1 product: relative error over the step
  int krylov_max_dimension = 30;   // Arnoldi vectors per sub-step
  SubspaceHistory history = SubspaceHistory::complement;
};

struct StepperOptions {
  IntegratorType type = IntegratorType::backward_euler;
  NewtonOptions newton;
  std::string linear_solver = "auto";  // a name of linear_solver_names()
  // Semi-implicit variant (Ascher et al. 2022, eq. 6): one Newton iteration per implicit stage
  // from the start-of-step guess, accepted as the stage solution.
  bool semi_implicit = false;
  // The solver decides the form: projected Newton solves the potential form, damped and inexact
  // Newton the residual form (scene/scene_rules.cpp reconciles integrator.form with it).
  NonlinearSolver nonlinear_solver = NonlinearSolver::projected_newton;
  StageForm form() const {
    return nonlinear_solver == NonlinearSolver::projected_newton ? StageForm::potential : StageForm::residual;
  }
  double newmark_beta = 0.25, newmark_gamma = 0.5;  // Newmark parameters
  double rho_inf = 0.5;  // generalized-alpha spectral radius at infinite frequency, in [0, 1]
  // A failed step of a one-step integrator is retried as halves, down to h / 2^max_step_halvings
  // (subdividing_stepper.hpp); 0 disables the cutback.
  int max_step_halvings = 3;
  ExponentialOptions exponential;
  // Constraint contact (contact.type "constraint", contact.constraint in a scene): the step is
  // integrate/constraint/constraint_stepper.hpp (type backward_euler, linearised whatever
  // semi_implicit says).
  ConstraintSolveOptions constraint;
  // xpbd and pbd: substeps, sweeps, PBD stiffness, damping, positional friction (pbd/pbd_options.hpp).
  PbdOptions pbd;
};

std::unique_ptr<Stepper> make_stepper(const Model& model, const StepperOptions& options);
// ere, siere, beere, bdf2ere, sbdf2ere, str_sbdf2ere (integrate/exponential/).
bool is_exponential(IntegratorType type);
// xpbd and pbd (pbd/): positions projected onto constraints instead of a Newton solve.
bool is_position_based(IntegratorType type);
// One-step methods, whose failed steps can be retried as shorter ones (their state is (x, v, t)).
bool is_one_step(IntegratorType type);

// Kinetic energy 1/2 v^T M v.
double kinetic_energy(const Model& model, const VecX& v);

}  // namespace softsim
