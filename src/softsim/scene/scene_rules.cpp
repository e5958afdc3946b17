#include <fmt/format.h>

#include <algorithm>

#include "softsim/core/errors.hpp"
#include "softsim/scene/scene_sections.hpp"

namespace softsim {

namespace {

// Affine and reduced bodies are solved for their coordinates by the implicit stages in the
// potential form (integrate/subspace_objective.hpp): other steppers would leave the subspace. An
// affine body's vertices cannot be prescribed one by one, only the whole body (a kinematic body;
// checked where the selections are resolved, build_boundary.cpp); a reduced body's fixed vertices
// stay where they start (its basis is zero there).
void check_subspace_bodies(const Scene& scene) {
  const StepperOptions& integ = scene.integrator;
  for (const BodySpec& body : scene.bodies) {
    if (body.kind != BodyKind::affine && !body.reduction) continue;
    const char* kind = body.reduction ? "a reduced body" : "an affine body";
    auto refuse = [&](const std::string& what) {
      throw InputError(fmt::format("{}: {}: {} {}", scene.source(), body.path, kind, what));
    };
    if (integ.type == IntegratorType::forward_euler || integ.type == IntegratorType::symplectic_euler ||
        is_exponential(integ.type))
      refuse(fmt::format("needs an implicit integrator (backward_euler, trapezoidal, implicit_midpoint, bdf2, tr_bdf2, sdirk2, newmark, "
                         "generalized_alpha, static), not integrator.type \"{}\"",
                         name_of(integ.type)));
    if (integ.form() == StageForm::residual)
      refuse("is solved in the potential form: integrator.form \"residual\" (and implicit friction, which needs it) "
             "is not supported");
    if (scene.contact.type == ContactType::constraint)
      refuse("does not take part in contact.type \"constraint\": use \"ipc\" or \"penalty\"");
    if (body.initial_equilibrium) refuse("starts from its mesh: initial_equilibrium is not supported");
    if (!body.slip.empty()) refuse("cannot slip vertex by vertex: \"slip\" is not supported");
    // Holding a vertex that met its target eliminates it alone, out of the subspace. A reduced
    // body's eliminated vertices hold still (its basis is zero there); vertices driven by a
    // penalty stay free in its basis and are pulled through it (a handle dragging the body).
    for (const FixedSpec& f : body.fixed)
      if (f.hold_when_met)
        refuse("moves as a whole: " + f.selection.path + ".hold_when_met (which holds vertices one by one) is not supported");
    if (body.reduction) {
      for (const FixedSpec& f : body.fixed)
        if (!f.penalty && (!f.path.empty() || f.velocity != Vec3::Zero() || f.rotates()))
          refuse("holds its fixed vertices where they start: " + f.selection.path +
                 " cannot move them (drive them with \"method\": \"penalty\")");
    }
  }
}

// The modal integrator steps the linear dynamics of reduced coordinates in closed form
// (integrate/modal_stepper.hpp): every body reduced, nothing that is not linear about the rest
// state (contact, obstacles). A scene that says nothing about contact gets none.
void check_modal_integrator(Scene& scene) {
  for (const BodySpec& body : scene.bodies) {
    if (!body.reduction)
      throw InputError(fmt::format("{}: {}: integrator.type \"modal\" steps reduced bodies only: give the body a "
                                   "\"reduction\", or use an implicit integrator",
                                   scene.source(), body.path));
    for (const LoadSpec& load : body.loads)
      if (load.timed())
        throw InputError(fmt::format("{}: {}: integrator.type \"modal\" linearises the model once for the run: a "
                                     "load switched on and off (from, until) needs another integrator",
                                     scene.source(), load.selection.path));
  }
  if (!scene.obstacles.empty())
    throw InputError(fmt::format("{}: obstacles: integrator.type \"modal\" steps linear dynamics, without contact: "
                                 "remove the obstacles or use an implicit integrator",
                                 scene.source()));
  if (scene.given.contact && scene.contact.enabled)
    throw InputError(fmt::format("{}: contact: integrator.type \"modal\" steps linear dynamics, without contact: set "
                                 "contact.enabled to false or use an implicit integrator",
                                 scene.source()));
  scene.contact.enabled = false;
}

// The position-based integrators (pbd/xpbd_stepper.hpp) project contact with analytic obstacles
// themselves, with positional friction of contact.friction.mu, and in 3D contact between and
// within bodies and with mesh obstacles on the IPC term's collision mesh (docs/pbd.md).
void check_position_based_integrator(Scene& scene) {
  const char* method = name_of(scene.integrator.type);
  // Contact between and within bodies, and with mesh obstacles, is projected on the IPC term's
  // collision mesh (pbd/mesh_collisions.hpp), in 3D; a scene that says nothing about contact
  // gets it in 3D, as under the other integrators.
  const bool mesh_contact = scene.contact.enabled && scene.dim == 3;
  for (const ObstacleSpec& o : scene.obstacles)
    if (!o.is_analytic() && !mesh_contact)
      throw InputError(fmt::format("{}: {}: integrator.type \"{}\" collides with mesh obstacles through the contact "
                                   "section, in 3D only{}",
                                   scene.source(), o.path, method,
                                   scene.dim == 3 ? " (contact.enabled is false)" : ""));
  if (scene.given.contact && scene.contact.enabled && scene.dim != 3 && scene.bodies.size() > 0)
    throw InputError(fmt::format("{}: contact: integrator.type \"{}\" projects contact between bodies in 3D only: set "
                                 "contact.enabled to false",
                                 scene.source(), method));
  if (scene.contact.type != ContactType::barrier)
    throw InputError(fmt::format("{}: contact.type: integrator.type \"{}\" projects contact itself; leave "
                                 "contact.type at \"barrier\"",
                                 scene.source(), method));
  if (!scene.contact.friction.pairs.empty())
    throw InputError(fmt::format("{}: contact.friction.pairs: integrator.type \"{}\" applies one coefficient, "
                                 "contact.friction.mu, to every obstacle",
                                 scene.source(), method));
  if (scene.dim != 3) scene.contact.enabled = false;
  scene.integrator.pbd.friction = scene.contact.friction.mu;
}

// Body and obstacle names name output files (frames/<body>_<frame>.vtu,
// frames/obstacles/<obstacle>_<frame>.vtu) and are what contact.friction.pairs, output.track and
// steering refer to: each is a non-empty file-name part, and no two are the same.
void check_names(const Scene& scene) {
  std::vector<std::pair<std::string, std::string>> named;  // name, JSON path
  for (const BodySpec& b : scene.bodies) named.emplace_back(b.name, b.path);
  for (const ObstacleSpec& o : scene.obstacles) named.emplace_back(o.name, o.path);
  for (std::size_t i = 0; i < named.size(); ++i) {
    const auto& [name, path] = named[i];
    const bool unsafe = name.empty() || name == "." || name == ".." ||
                        std::any_of(name.begin(), name.end(), [](char c) {
                          return c == '/' || c == '\\' || static_cast<unsigned char>(c) < 0x20;
                        });
    if (unsafe)
      throw InputError(fmt::format("{}: {}.name: \"{}\" cannot name output files (no '/', '\\', control "
                                   "characters; not empty, \".\" or \"..\")",
                                   scene.source(), path, name));
    for (std::size_t j = 0; j < i; ++j)
      if (named[j].first == name)
        throw InputError(fmt::format("{}: {}.name: \"{}\" is also the name of {}: bodies and obstacles need "
                                     "different names",
                                     scene.source(), path, name, named[j].second));
  }
}

}  // namespace

// The rules that tie one section of a scene to another, in one place (docs/scene-format.md).
void apply_scene_rules(Scene& scene) {
  check_names(scene);
  StepperOptions& integ = scene.integrator;
  const auto& friction = scene.contact.friction;
  // integrator.form and integrator.nonlinear_solver: the solver decides the form; a residual
  // form without a residual solver named uses damped Newton (Larionov et al. 2022, Alg. 1).
  if (scene.given.form == StageForm::residual && integ.nonlinear_solver == NonlinearSolver::projected_newton)
    integ.nonlinear_solver = NonlinearSolver::damped_newton;
  if (friction.mode == FrictionMode::implicit && friction.any()) {
    // Implicit friction has no potential (Larionov et al. 2022, sec. 4.5): the step is a
    // root-finding problem, so the residual form is the default and the potential form an error.
    if (scene.given.form == StageForm::potential)
      throw InputError(fmt::format("{}: contact.friction.mode: \"implicit\" friction has no potential: it needs "
                                   "integrator.form \"residual\"",
                                   scene.source()));
    if (integ.nonlinear_solver == NonlinearSolver::projected_newton) integ.nonlinear_solver = NonlinearSolver::damped_newton;
  }
  // hold_when_met holds a vertex for the rest of the step's one solve: the one-stage integrator
  // only (a multi-stage one would carry the hold into stages with other targets).
  if (integ.type != IntegratorType::backward_euler) {
    auto refuse = [&](const std::string& path) {
      throw InputError(fmt::format("{}: {}.hold_when_met: needs integrator.type \"backward_euler\" (one solve per "
                                   "step), not \"{}\"",
                                   scene.source(), path, name_of(integ.type)));
    };
    for (const BodySpec& body : scene.bodies)
      for (const FixedSpec& f : body.fixed)
        if (f.hold_when_met) refuse(f.selection.path);
    for (const ObstacleSpec& o : scene.obstacles)
      if (o.motion && o.motion->hold_when_met) refuse(o.path);
  }
  check_subspace_bodies(scene);
  if (integ.type == IntegratorType::modal) check_modal_integrator(scene);
  if (is_position_based(integ.type)) check_position_based_integrator(scene);
  // The exponential integrators step contact-free scenes (docs/integrators.md): a scene that asks
  // for contact is an error; one that says nothing about it gets no self-contact.
  if (is_exponential(integ.type)) {
    const char* method = name_of(integ.type);
    if (!scene.obstacles.empty())
      throw InputError(fmt::format("{}: integrator.type: \"{}\" does not support obstacles (contact): the exponential "
                                   "integrators have no step filter to keep contact intersection-free; use "
                                   "backward_euler, bdf2, tr_bdf2 or sdirk2",
                                   scene.source(), method));
    if (scene.given.contact && scene.contact.enabled)
      throw InputError(fmt::format("{}: integrator.type: \"{}\" does not support contact: set contact.enabled to "
                                   "false, or use backward_euler, bdf2, tr_bdf2 or sdirk2",
                                   scene.source(), method));
    scene.contact.enabled = false;
  }
  // Constraint contact is a step of its own (integrate/constraint/): the linearised backward Euler
  // step with contact multipliers, 3D, on potentials whose Hessian is assembled.
  if (scene.contact.type == ContactType::constraint) {
    if (scene.dim != 3)
      throw InputError(fmt::format("{}: contact.type: \"constraint\" is 3D only (a 2D contact has one tangent)",
                                   scene.source()));
    if (integ.type != IntegratorType::backward_euler)
      throw InputError(fmt::format("{}: integrator.type: \"{}\" cannot step constraint contact: it steps with "
                                   "\"backward_euler\" (linearised, Zeng & Courtecuisse 2023)",
                                   scene.source(), name_of(integ.type)));
    for (std::size_t b = 0; b < scene.bodies.size(); ++b)
      if (!scene.bodies[b].volume_penalties.empty())
        throw InputError(fmt::format("{}: bodies[{}].volume_penalty: not supported with contact.type \"constraint\" "
                                     "(its dense Hessian part would be left out of the compliance)",
                                     scene.source(), b));
    integ.constraint = scene.contact.constraint;
    return;
  }
  // Newton's velocity criterion must resolve the stick-slip velocity, or a body that should
  // start sliding from rest stops after one tiny step: unless solver.tolerance is given, it is at
  // most eps_v / 10 when friction is on.
  if (friction.any() && !scene.given.tolerance)
    integ.newton.tolerance = std::min(integ.newton.tolerance, 0.1 * friction.eps_v);
}

}  // namespace softsim
