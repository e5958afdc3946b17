#pragma once
// A force that has no potential: f(q, v), e.g. fully implicit friction (seed 003 eq. 16), whose
// Jacobian is not symmetric. Such terms enter only the residual form of an implicit stage
// (seed 003 eqs. 22-24): the stage's velocity is an affine function of its positions,
// v(q) = c (q - q_ref) (backward Euler: c = 1/h, q_ref = q^n), so the stage residual needs
// f(q, v(q)) and its total derivative df/dq + c df/dv.
#include <string>
#include <vector>

#include "softsim/core/types.hpp"

namespace softsim {

class VelocityForce {
 public:
  virtual ~VelocityForce() = default;
  virtual std::string name() const = 0;
  // As Energy::set_time_step / begin_step: called before every step with its start state.
  virtual void set_time_step(double t, double h) {}
  virtual void begin_step(const VecX& x_start) {}
  // Adds weight * f(q, v) to force (when non-null) and weight * (df/dq + c df/dv) as triplets
  // (when non-null).
  virtual void add_force(const VecX& q, const VecX& v, double c, double weight, VecX* force,
                         std::vector<Triplet>* jacobian) const = 0;
  // out += weight * (df/dq + c df/dv) p, matrix-free (forward-mode AD along p).
  virtual void add_jacobian_times(const VecX& q, const VecX& v, double c, const VecX& p, double weight,
                                  VecX& out) const = 0;
};

}  // namespace softsim
