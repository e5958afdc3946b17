#pragma once
// Helpers for the FEM tests: small models built by hand (vertices, one energy term, unit lumped
// masses, finalize) so the tests exercise a term through the layout production uses, and dense
// copies of assembled outputs.
#include <memory>

#include "softsim/core/types.hpp"
#include "softsim/model/model.hpp"
#include "evaluation.hpp"
#include "finite_difference.hpp"

namespace softsim::test {

// A model holding one energy term; `term` points at it (owned by the model).
template <class Term>
struct OneTermModel {
  std::unique_ptr<Model> model;
  Term* term = nullptr;
  std::unique_ptr<Evaluation> evaluation;  // the term's data as a run starts
  EvalContext ctx() const { return evaluation->ctx(); }
  // The step hooks' begin_step at x (corotated elements freeze their rotations there).
  void begin_step(const VecX& x) { model->begin_step(evaluation->stage, evaluation->data, x); }
};

template <class Term>
OneTermModel<Term> make_one_term_model(const MatX& vertices, std::unique_ptr<Term> term) {
  OneTermModel<Term> m;
  m.model = std::make_unique<Model>(static_cast<int>(vertices.cols()));
  m.model->add_vertices(vertices);
  m.term = term.get();
  m.model->add_energy(std::move(term));
  for (int v = 0; v < m.model->num_vertices(); ++v) m.model->add_lumped_mass(v, 1.0);
  m.model->finalize();
  m.evaluation = std::make_unique<Evaluation>(*m.model);
  return m;
}

inline double term_energy(const EvalContext& ctx, const Energy& term, const VecX& x) {
  return term.evaluate(ctx, x, AssemblyOutputs{});
}

inline VecX term_gradient(const EvalContext& ctx, const Energy& term, const VecX& x) {
  VecX g = VecX::Zero(x.size());
  AssemblyOutputs out;
  out.gradient = &g;
  term.evaluate(ctx, x, out);
  return g;
}

inline MatX term_hessian(const EvalContext& ctx, const Energy& term, const Model& model, const VecX& x,
                         bool project_psd = false) {
  SparseMat H = model.layout().pattern();
  std::fill(H.valuePtr(), H.valuePtr() + H.nonZeros(), 0.0);
  AssemblyOutputs out;
  out.hessian = &H;
  out.project_psd = project_psd;
  term.evaluate(ctx, x, out);
  return MatX(H);
}


}  // namespace softsim::test

#include "softsim/integrate/stepper.hpp"

namespace softsim::test {

// One static solve ("static" stepper: Newton on the potential with no inertia) from x_start;
// prescribed motions are applied at t = 1. Returns the equilibrium positions. The Newton
// tolerance is tightened from the default 1e-2 to 1e-5 (the static stepper converts it to a step
// of 1e-11 of the model's diagonal): Newton stops before applying its last step, so the
// default (1e-8 of the diagonal) would leave errors of that size in the answers compared below.
inline VecX static_equilibrium(const Model& model, const VecX& x_start, StepResult* result_out = nullptr,
                               const std::string& linear_solver = "auto") {
  StepperOptions options;
  options.type = IntegratorType::static_equilibrium;
  options.linear_solver = linear_solver;
  options.newton.tolerance = 1e-5;
  auto stepper = make_stepper(model, options);
  State state{x_start, VecX::Zero(x_start.size()), 0.0};
  const StepResult result = stepper->step(state, 1.0);
  EXPECT_TRUE(result.converged) << result.failure;
  if (result_out) *result_out = result;
  return state.x;
}

// A prescribed motion holding one vertex at a fixed offset from its initial position.
inline PrescribedMotion hold_vertex(int vertex, const VecX& offset) {
  PrescribedMotion m;
  m.vertices = {vertex};
  m.offset = [offset](double) -> VecX { return offset; };
  return m;
}

}  // namespace softsim::test
