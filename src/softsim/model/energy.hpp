#pragma once
// A potential energy term E(x) of the model (elasticity, springs, gravity, penalties, ...).
// evaluate() returns weight * E(x) and accumulates weight * gradient and weight * Hessian into the
// outputs that are non-null; value, gradient and Hessian come from one code path, so the code the
// finite-difference tests check is the code production runs.
#include <cmath>
#include <string>
#include <vector>

#include "softsim/core/hessian_layout.hpp"
#include "softsim/core/stencil_assembly.hpp"
#include "softsim/core/types.hpp"

namespace softsim {

// A dense symmetric rank-one Hessian part, coefficient * u u^T (u num_dofs long), that a term
// leaves out of its assembled sparse Hessian (e.g. a volume penalty's W''(V) grad V grad V^T).
struct RankOneHessian {
  double coefficient = 0.0;
  VecX u;
};

class Energy {
 public:
  virtual ~Energy() = default;
  virtual std::string name() const = 0;
  // Registers the term's fixed-topology stencils (called once, before the layout is finalized).
  virtual void declare_stencils(HessianLayout& layout) {}
  virtual double evaluate(const VecX& x, const AssemblyOutputs& out) const = 0;
  // Called at the start of each time step with the state there (frozen rotations, lagged terms).
  virtual void begin_step(const VecX& x_start) {}
  // Called before begin_step with the step's start time and size (time-dependent targets).
  virtual void set_time_step(double t, double h) {}
  // Multi-stage implicit integrators: the next solve is a stage ending at t + c h, c in (0, 1]
  // (e.g. 1/2 for the first TR-BDF2 stage); time-dependent targets interpolate to it. begin_step
  // resets c to 1.
  virtual void set_stage_fraction(double c) {}
  // The next solve's velocity is v = scale (x - reference) (BE: (x - x^n)/h; a DIRK stage of
  // length k: (x - Q)/k): terms that measure velocities (lagged friction) use it.
  virtual void set_stage_velocity(const VecX& reference, double scale) {}
  // Called after every accepted Newton iterate (adaptive parameters such as the barrier
  // stiffness); the objective's value may change, so the solver re-evaluates it.
  virtual void end_iteration(const VecX& x) {}
  // Called after a step's solve converged: a penalty term whose constraint is still unmet
  // stiffens itself and returns true to ask for the step to be solved again.
  virtual bool stiffen_if_unmet(const VecX& x) { return false; }
  // Matrix-free Hessian-vector product by forward-mode AD: adds weight * H(x) p to out, i.e.
  // the derivative of the gradient along p. Returns false when the term does not provide it
  // (the model then multiplies by the term's assembled Hessian).
  virtual bool gradient_jvp(const VecX& x, const VecX& p, double weight, VecX& out) const { return false; }
  // Appends the dense rank-one parts of weight * Hessian that evaluate() does not assemble;
  // direct Newton solves add them by Sherman-Morrison-Woodbury (solve/rank_one_update.hpp).
  virtual void rank_one_hessian(const VecX& x, double weight, std::vector<RankOneHessian>& out) const {}
  // Per-element energy density for output (empty when the term has no elements).
  virtual VecX element_energy_density(const VecX& x) const { return {}; }
  // Smallest distance between contact primitives this term watches (+infinity when none).
  virtual double min_contact_distance(const VecX& x) const { return HUGE_VAL; }
  // Largest fraction alpha in (0, 1] of the step p from x such that the term stays valid
  // (e.g. no element inverts). 1 when the term imposes no limit.
  virtual double max_step_fraction(const VecX& x, const VecX& p) const { return 1.0; }
};

}  // namespace softsim
