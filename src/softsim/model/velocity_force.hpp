#pragma once
// A force that has no potential: f(q, v), e.g. fully implicit friction (Larionov et al. 2022,
// eq. 16), whose Jacobian is not symmetric. Such terms enter only the residual form of an
// implicit stage (eqs. 22-24): the stage's velocity is an affine function of its positions,
// v(q) = c (q - q_ref) (backward Euler: c = 1/h, q_ref = q^n), so the stage residual needs
// f(q, v(q)) and its total derivative df/dq + c df/dv. Like an Energy, a force is constant
// during a run; it reads the stage and the run's data from its EvalContext.
#include <string>
#include <vector>

#include "softsim/core/types.hpp"
#include "softsim/model/energy.hpp"

namespace softsim {

class VelocityForce {
 public:
  virtual ~VelocityForce() = default;
  virtual std::string name() const = 0;
  // Adds weight * f(q, v) to force (when non-null) and weight * (df/dq + c df/dv) as triplets
  // (when non-null).
  virtual void add_force(const EvalContext& ctx, const VecX& q, const VecX& v, double c, double weight, VecX* force,
                         std::vector<Triplet>* jacobian) const = 0;
  // out += weight * (df/dq + c df/dv) p, matrix-free (forward-mode AD along p).
  virtual void add_jacobian_times(const EvalContext& ctx, const VecX& q, const VecX& v, double c, const VecX& p,
                                  double weight, VecX& out) const = 0;
  // Energy terms whose data this force reads (they must be in the model).
  virtual std::vector<const Energy*> reads_data_of() const { return {}; }
};

}  // namespace softsim
