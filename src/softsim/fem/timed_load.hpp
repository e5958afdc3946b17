#pragma once
// Nodal forces that act over an interval of time (a Neumann condition switched on and off, as
// IPC's NBC with a time range, Li et al. 2020's code): the potential -x . f during the steps that
// start at a time t with from <= t < until, zero otherwise. The load is constant over a step, as
// IPC applies it (it tests the step's start time), so a step is one smooth problem whatever its
// stages; loads for the whole run stay in the model's constant external force.
#include "softsim/model/energy.hpp"

namespace softsim {

class TimedLoad : public Energy {
 public:
  // force: one entry per DOF (N); from < until (s), until may be +infinity.
  TimedLoad(VecX force, double from, double until);
  std::string name() const override { return "timed_load"; }
  bool depends_on_time() const override { return true; }
  // Whether the load acts during the step of `stage` (its start time in [from, until)).
  bool acts(const Stage& stage) const { return stage.t0 >= from_ && stage.t0 < until_; }
  double evaluate(const EvalContext& ctx, const VecX& x, const AssemblyOutputs& out) const override;
  bool hessian_psd_when_projected() const override { return true; }  // linear: no Hessian

 private:
  VecX force_;
  double from_, until_;
};

}  // namespace softsim
