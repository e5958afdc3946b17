#include "softsim/integrate/rayleigh_damping.hpp"

namespace softsim {

SparseMat rayleigh_damping_matrix(const Model& model, const EvalContext& ctx, const VecX& x_start) {
  SparseMat D = model.layout().pattern();
  if (model.rayleigh_beta != 0.0) {
    AssemblyOutputs out;
    out.hessian = &D;
    out.weight = model.rayleigh_beta;
    out.project_psd = true;
    model.potential(ctx, x_start, out);
  }
  model.add_mass_to(D, model.rayleigh_alpha);
  return D;
}

}  // namespace softsim
