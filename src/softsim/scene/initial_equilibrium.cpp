#include "softsim/scene/initial_equilibrium.hpp"

#include <fmt/format.h>

#include "softsim/core/bounding_box.hpp"
#include "softsim/core/errors.hpp"
#include "softsim/integrate/stepper.hpp"

namespace softsim {

Eigen::MatrixXd initial_equilibrium(const Scene& scene, const BodySpec& body) {
  constexpr double kStep = 1.0;         // s: H of the proximal iterations
  constexpr int kMaxIterations = 50;
  Scene alone = scene;
  alone.bodies = {body};
  BodySpec& spec = alone.bodies.front();
  spec.initial_equilibrium = false;
  spec.loads.clear();
  spec.tractions.clear();
  spec.initial_velocity.setZero();
  spec.initial_angular_velocity.setZero();
  for (FixedSpec& f : spec.fixed) {  // prescribed vertices hold their t = 0 positions
    f.velocity.setZero();
    f.angular_velocity.setZero();
    f.path.clear();
  }
  alone.gravity.setZero();
  alone.obstacles.clear();
  alone.contact = ContactSpec{};
  alone.contact.enabled = false;
  alone.rayleigh_alpha = alone.rayleigh_beta = 0.0;
  alone.integrator = StepperOptions{};  // backward Euler, potential form, projected Newton
  alone.integrator.linear_solver = scene.integrator.linear_solver;
  alone.integrator.newton.max_iterations = 200;
  Model model = build_model(alone);

  const int dim = scene.dim;
  const Eigen::MatrixXd start = as_rows(model.rest_positions, dim);
  const double size = bounding_box_diagonal(start);
  // Settled once an iteration moves no vertex by more than 1e-7 of the body's size; Newton
  // stops each iteration an order of magnitude below that (round-off in stiff, nearly
  // incompressible bodies leaves Newton steps of ~1e-10 of the size).
  const double settled = 1e-7 * size;
  alone.integrator.newton.tolerance = 0.1 * settled / kStep;
  auto stepper = make_stepper(model, alone.integrator);
  State state{model.rest_positions, VecX::Zero(model.num_dofs()), 0.0};
  const std::string key = fmt::format("{}: {}.initial_equilibrium", scene.file.empty() ? "(scene)" : scene.file.string(), body.path);
  for (int k = 0; k < kMaxIterations; ++k) {
    const VecX before = state.x;
    const StepResult r = stepper->step(state, kStep);
    if (!r.converged) throw InputError(fmt::format("{}: the static solve failed ({})", key, r.failure));
    state.v.setZero();
    state.t = 0.0;
    if ((state.x - before).lpNorm<Eigen::Infinity>() <= settled) return as_rows(state.x, dim);
  }
  throw InputError(fmt::format("{}: the body did not settle in {} iterations (is it unstable under its own forces?)",
                               key, kMaxIterations));
}

}  // namespace softsim
