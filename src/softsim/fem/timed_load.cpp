#include "softsim/fem/timed_load.hpp"

#include <stdexcept>

namespace softsim {

TimedLoad::TimedLoad(VecX force, double from, double until) : force_(std::move(force)), from_(from), until_(until) {
  if (!(from < until)) throw std::invalid_argument("TimedLoad: needs from < until");
}

double TimedLoad::evaluate(const EvalContext& ctx, const VecX& x, const AssemblyOutputs& out) const {
  if (!acts(ctx.stage)) return 0.0;
  if (out.gradient) *out.gradient -= out.weight * force_;
  return -out.weight * x.dot(force_);  // linear in x: no Hessian
}

}  // namespace softsim
