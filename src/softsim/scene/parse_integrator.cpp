#include "softsim/scene/scene_sections.hpp"
#include "softsim/solve/linear_solver.hpp"

namespace softsim {

void read_integrator(const JsonReader& i, Scene& scene) {
  StepperOptions& integ = scene.integrator;
  integ.type = i.choice("type", integ.type);
  integ.semi_implicit = i.boolean("semi_implicit", integ.semi_implicit);
  if (i.has("form")) scene.given.form = i.choice("form", StageForm::potential);
  integ.nonlinear_solver = i.choice("nonlinear_solver", integ.nonlinear_solver);
  integ.newmark_beta = i.number("beta", integ.newmark_beta, 0.0, 0.5, true);
  integ.newmark_gamma = i.number("gamma", integ.newmark_gamma, 0.0, 1.0, true);
  integ.rho_inf = i.number("rho_inf", integ.rho_inf, 0.0, 1.0);
  ExponentialOptions& e = integ.exponential;
  e.modes = i.integer("modes", e.modes, 0, 100000);
  e.refresh_every = i.integer("refresh_every", e.refresh_every, 0, 1000000000);
  e.krylov_tolerance = i.positive("krylov_tolerance", e.krylov_tolerance);
  e.krylov_max_dimension = i.integer("krylov_max_dimension", e.krylov_max_dimension, 2, 1000);
  e.history = i.choice("history", e.history);
  PbdOptions& p = integ.pbd;
  p.substeps = i.integer("substeps", p.substeps, 1, 100000);
  p.iterations = i.integer("iterations", p.iterations, 1, 100000);
  p.stiffness = i.number("pbd_stiffness", p.stiffness, 0.0, 1.0);
  p.stiffness_correction = i.boolean("stiffness_correction", p.stiffness_correction);
  {
    using EC = PbdOptions::ElasticConstraints;
    const char* current = p.elastic_constraints == EC::strain          ? "strain"
                          : p.elastic_constraints == EC::energy_scalar ? "energy_scalar"
                                                                       : "energy";
    const std::string c = i.string("elastic_constraints", current, {"energy", "energy_scalar", "strain"});
    p.elastic_constraints = c == "strain" ? EC::strain : c == "energy_scalar" ? EC::energy_scalar : EC::energy;
  }
  p.damping = i.number("momentum_damping", p.damping, 0.0, 1.0);
  p.drag = i.number("velocity_damping", p.drag, 0.0, 0.99);
  p.collision_margin = i.number("collision_margin", p.collision_margin, 0.0, HUGE_VAL);
  if (i.has("static_friction")) p.static_friction = i.number("static_friction", 0.0, 0.0, HUGE_VAL);
  i.finish();
}

void read_solver(const JsonReader& s, Scene& scene) {
  NewtonOptions& n = scene.integrator.newton;
  scene.given.tolerance = s.has("tolerance");
  n.tolerance = s.positive("tolerance", n.tolerance);
  n.max_iterations = s.integer("max_iterations", n.max_iterations, 1, 100000);
  scene.integrator.max_step_halvings = s.integer("max_step_halvings", scene.integrator.max_step_halvings, 0, 20);
  n.project_psd = s.boolean("project_psd", n.project_psd);
  n.take_last_step = s.boolean("take_last_step", n.take_last_step);
  const std::string norm = s.string("step_norm", "max_entry", {"max_entry", "max_vertex_l1"});
  n.vertex_l1_dim = norm == "max_vertex_l1" ? scene.dim : 0;
  n.armijo = s.number("armijo", n.armijo, 0.0, 0.5, false);
  scene.integrator.linear_solver = s.string("linear_solver", scene.integrator.linear_solver, linear_solver_names());
  scene.on_failure = s.choice("on_failure", scene.on_failure);
  scene.inversion_filter = s.boolean("inversion_filter", scene.inversion_filter);
  s.finish();
}

}  // namespace softsim
