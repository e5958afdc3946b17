#pragma once
// A potential energy term E(x) of the model (elasticity, springs, gravity, contact barriers,
// penalties, lagged friction). A term is physics and stays constant during a run: what it
// adapts or freezes lives in its TermData, which the stepper owns (model_data.hpp) and passes in
// with the stage being solved (stage.hpp).
// evaluate() returns weight * E(x) and accumulates weight * gradient and weight * Hessian into the
// outputs that are non-null; value, gradient and Hessian come from one code path, so the code the
// finite-difference tests check is the code production runs.
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "softsim/core/function_ref.hpp"
#include "softsim/core/hessian_layout.hpp"
#include "softsim/core/stencil_assembly.hpp"
#include "softsim/core/types.hpp"
#include "softsim/model/hessian_operator.hpp"
#include "softsim/model/model_data.hpp"
#include "softsim/model/stage.hpp"

namespace softsim {

// A dense symmetric rank-one Hessian part, coefficient * u u^T (u num_dofs long), that a term
// leaves out of its assembled sparse Hessian (e.g. a volume penalty's W''(V) grad V grad V^T).
struct RankOneHessian {
  double coefficient = 0.0;
  VecX u;
};

// What an evaluation reads besides the positions.
struct EvalContext {
  const Stage& stage;
  const ModelData& data;
};

// What a step hook receives besides the positions: the stage, the run's data to update, the
// gradient at those positions of the model's potential without the hooked term (external forces'
// work included), computed only when asked for (a contact balances its stiffness against it when
// contact appears), and the positions at every vertex. Those are the hook's x itself, unless the
// caller formed x on the terms' supports only (Energy::hooks_read_all_positions false: a reduced
// body, integrate/reduced_incremental_potential.hpp); then they are formed on this request, which
// a hook makes only when it needs them (a contact balancing its stiffness as contact appears).
struct StepContext {
  const Stage& stage;
  ModelData& data;
  FunctionRef<VecX()> other_gradient;
  FunctionRef<const VecX&()> whole_positions;
  EvalContext eval() const { return {stage, data}; }
};

class Energy {
 public:
  virtual ~Energy() = default;
  virtual std::string name() const = 0;
  // Whether the term reads the stage's time (moving targets, loads switched on and off): steppers
  // that evaluate the model once for the whole run (the modal flow) refuse such terms.
  virtual bool depends_on_time() const { return false; }
  // Registers the term's fixed-topology stencils (called once, before the layout is finalized).
  virtual void declare_stencils(HessianLayout& layout) {}
  // The data this term keeps during a run (null: none). Made once per ModelData.
  virtual std::unique_ptr<TermData> make_data() const { return nullptr; }

  virtual double evaluate(const EvalContext& ctx, const VecX& x, const AssemblyOutputs& out) const = 0;
  // The unprojected Hessian at x as an operator of forward-mode products (null: the term has
  // none, and the model multiplies by the term's assembled Hessian instead).
  virtual std::unique_ptr<HessianOperator> hessian_operator(const EvalContext& ctx, const VecX& x) const {
    return nullptr;
  }
  // Appends the dense rank-one parts of weight * Hessian that evaluate() does not assemble;
  // direct Newton solves add them by Sherman-Morrison-Woodbury (solve/rank_one_update.hpp).
  virtual void rank_one_hessian(const EvalContext& ctx, const VecX& x, double weight,
                                std::vector<RankOneHessian>& out) const {}
  // Per-element energy density for output (empty when the term has no elements).
  virtual VecX element_energy_density(const EvalContext& ctx, const VecX& x) const { return {}; }
  // Smallest distance between contact primitives this term watches (+infinity when none). data
  // (optional): the run's data, whose caches the query may reuse (the candidates of IPC's last
  // CCD sweep, when x lies on its segment); without it the query starts afresh.
  virtual double min_contact_distance(const VecX& x, const ModelData* data = nullptr) const { return HUGE_VAL; }
  // Largest fraction alpha in (0, 1] of the step p from x such that the term stays valid
  // (e.g. no element inverts, no contact pair crosses). 1 when the term imposes no limit.
  virtual double max_step_fraction(const EvalContext& ctx, const VecX& x, const VecX& p) const { return 1.0; }

  // Step hooks, in the order a step calls them:
  // at the start of each step, at its start positions (freeze lagged data, adapt stiffness);
  virtual void begin_step(const StepContext& ctx, const VecX& x_start) const {}
  // after every accepted Newton iterate; true when the term changed its value there (the barrier
  // stiffness), so the solver evaluates again;
  virtual bool end_iteration(const StepContext& ctx, const VecX& x) const { return false; }
  // after a solve converged; true asks for the solve to be repeated from x (a penalty whose
  // constraint is unmet stiffens, lagged friction freezes its contacts again).
  virtual bool after_solve(const StepContext& ctx, const VecX& x) const { return false; }
  // DOFs the term holds where they are for the rest of the current solve, eliminated like
  // Dirichlet DOFs (a penalty-driven vertex that has met its target, as the companion code of
  // Li & Jiang 2025 does). Appended to `dofs`.
  virtual void held_dofs(const ModelData& data, std::vector<int>& dofs) const {}
  // Whether held_dofs() may ever report a DOF (an evaluation that cannot eliminate DOFs, as over
  // a subspace's coordinates, refuses such a term).
  virtual bool may_hold_dofs() const { return false; }
  // The model vertices the term works on, when they are a fixed set (appended to `vertices`,
  // ascending, no repeats; returns true): evaluate(), rank_one_hessian() and
  // max_step_fraction() read x and p at those vertices only and write the gradient and Hessian
  // there only (contact: the collision vertices), so that a caller may form the positions there only (a reduced body in contact:
  // integrate/reduced_incremental_potential.hpp). false (the default): any vertex.
  virtual bool vertex_support(std::vector<int>& vertices) const { return false; }
  // Whether end_iteration() and after_solve() may read x away from vertex_support() (the
  // default); false lets the caller pass positions formed on the support only, the hooks reading
  // any other position through StepContext::whole_positions and other_gradient, which the
  // caller then forms on request.
  virtual bool hooks_read_all_positions() const { return true; }
  // Whether every Hessian evaluate() assembles with AssemblyOutputs::project_psd is positive
  // semi-definite for a non-negative weight (the per-stencil projection, or a term convex by
  // construction), the rank-one parts aside. A Newton solve may then bound its step by the
  // gradient and the mass (IncrementalPotential::hessian_lower_bound). false (the default)
  // claims nothing; the energy contract (tests/model/energy_test.cpp) checks the claim on every
  // kind of term.
  virtual bool hessian_psd_when_projected() const { return false; }
  // Terms whose data this one reads (lagged friction: its contact's stiffness). They must have
  // been added to the model before it, so that their hooks run first (Model::add_energy checks).
  virtual std::vector<const Energy*> reads_data_of() const { return {}; }
};

}  // namespace softsim
