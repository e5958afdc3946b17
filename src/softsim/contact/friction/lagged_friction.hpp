#pragma once
// Lagged (semi-implicit) friction (Li et al. 2020, sec. 5; Li & Jiang 2025, §9.2 and ch. 10): at the start of a
// step every contact of its source (friction_source.hpp: IPC pairs, analytic obstacles, penalty
// contact points) is frozen with its normal force magnitude lambda_k, tangent basis T_k and
// closest-point weights, and the step's potential is
//   D(x) = sum_k mu_k lambda_k f0(|T_k^T u_k|),                          (IPC eq. 16)
// u_k the relative displacement of the closest points since the stage's velocity reference, with
// eps = eps_v / velocity scale (Larionov et al. 2022, eqs. 25-27: friction of the stage velocity;
// backward Euler: u from x^n, eps = eps_v h). D enters the incremental potential like every
// other potential (times the stage weight); lambda is already in those units, so D's gradient is
// the friction force mu lambda f1 (a force, not an impulse). Hessian: dynamic triplets, the
// inner m x m block PSD-projected when projection is requested.
// iterations > 1: fixed-point updates (the "fully implicit" friction by lagging of Li & Jiang
// 2025, Alg. 9.3.1): after a converged solve, the contacts are frozen again at the solution and
// the step is solved again, iterations - 1 times.
#include <memory>
#include <vector>

#include "softsim/contact/friction/friction_contact.hpp"
#include "softsim/contact/friction/friction_options.hpp"
#include "softsim/contact/friction/friction_source.hpp"
#include "softsim/model/energy.hpp"

namespace softsim {

struct ContactStencilTerm;  // contact/stencil/stencil_assembly.hpp

// sum_k mu_k lambda_k f0(|T_k^T u_k|) (mu_k = contacts[k].mu) with derivatives (weight, projection
// and outputs as in Energy::evaluate; Hessian entries go to out.dynamic_hessian). V, V0: current
// and reference positions (rows = vertices); vertices with id >= num_dof_vertices have no DOFs.
// `terms`: the per-contact terms' buffer, kept by the caller between evaluations.
double assemble_friction(const std::vector<FrictionContact>& contacts, const VertexRows& V, const VertexRows& V0,
                         FrictionSmoothing smoothing, double eps, int num_dof_vertices, const AssemblyOutputs& out,
                         std::vector<ContactStencilTerm>& terms);

class LaggedFriction : public Energy {
 public:
  LaggedFriction(std::unique_ptr<FrictionSource> source, const FrictionOptions& options);

  std::string name() const override { return "lagged_friction"; }
  // The frozen contacts, the step's start positions and the fixed-point pass.
  std::unique_ptr<TermData> make_data() const override;
  double evaluate(const EvalContext& ctx, const VecX& x, const AssemblyOutputs& out) const override;
  bool hessian_psd_when_projected() const override { return true; }  // projected per contact
  void begin_step(const StepContext& ctx, const VecX& x_start) const override;
  bool after_solve(const StepContext& ctx, const VecX& x) const override;
  std::vector<const Energy*> reads_data_of() const override { return {&source_->contact_term()}; }
  // Its contacts are its contact term's: the same support; after_solve finds them there.
  bool vertex_support(std::vector<int>& vertices) const override {
    return source_->contact_term().vertex_support(vertices);
  }
  bool hooks_read_all_positions() const override { return false; }

  const std::vector<FrictionContact>& contacts(const ModelData& data) const;

 private:
  struct Data;
  std::unique_ptr<FrictionSource> source_;
  FrictionOptions options_;
};

}  // namespace softsim
