#pragma once
// Settings of the position-based integrators (integrator.type "xpbd" or "pbd", integrator.pbd in
// a scene; docs/pbd.md). A step of length h is cut into `substeps` substeps; each predicts the
// positions, projects every constraint `iterations` times in Gauss-Seidel sweeps (colour by
// colour, in parallel inside a colour) and sets v = (x - x_prev) / h_sub (Li & Jiang 2025,
// §32.2; Macklin et al. 2019, "Small Steps in Physics Simulation").
namespace softsim {

struct PbdOptions {
  int substeps = 10;
  int iterations = 1;  // Gauss-Seidel sweeps per substep
  // Plain PBD only: the stiffness k in [0, 1] of every elastic constraint (XPBD takes its
  // compliance from the material instead), corrected per sweep to k' = 1 - (1 - k)^(1/n) so that
  // n sweeps remove the fraction k of the error whatever n is (Li & Jiang 2025, §32.5).
  double stiffness = 1.0;
  bool stiffness_correction = true;
  // How solids and shell membranes become constraints (integrator.elastic_constraints; docs/pbd.md):
  //   energy:        each element's energy E_e; XPBD projects it as a block, one Newton step of
  //                  the element's own backward Euler problem with its whole Hessian (plain PBD
  //                  projects C_e = sqrt(2 E_e) to zero);
  //   energy_scalar: each element as the one scalar constraint C_e = sqrt(2 E_e) of compliance 1
  //                  (converges only while w k h^2 stays below ~1: a soft material or many substeps);
  //   strain:        strain-based dynamics (Müller et al. 2014): per element a stretch constraint per
  //                  rest axis, a shear constraint per pair of axes and a volume (area) constraint,
  //                  with compliances from the material's small-strain Lame parameters
  //                  (pbd/strain_constraints.hpp).
  enum class ElasticConstraints { energy, energy_scalar, strain };
  ElasticConstraints elastic_constraints = ElasticConstraints::energy;
  // Momentum-conserving damping of each body's deviation from its rigid motion, applied once
  // per substep: v_i += damping (v_cm + omega x r_i - v_i) (Li & Jiang 2025, Method 32.5.1).
  double damping = 0.0;
  // Drag: the fraction of every free vertex's velocity removed per substep (v *= 1 - drag). It
  // damps rigid motion too: for quasi-static runs that must come to rest (a clamped beam's swing
  // is nearly rigid, which the damping above keeps).
  double drag = 0.0;
  // Positional friction against obstacles (Li & Jiang 2025, §33.2): a contact whose tangential
  // displacement over the substep is at most static_friction times its penetration sticks;
  // otherwise the displacement is reduced by friction times the penetration. Negative
  // static_friction: the same as friction (the scene's contact.friction.mu).
  double friction = 0.0;
  double static_friction = -1.0;
  double collision_margin = 0.0;  // m: vertices are kept this far outside obstacles
};

}  // namespace softsim
