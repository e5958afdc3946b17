#pragma once
// Evaluating a model or a term outside a run: the data every term keeps as a run starts (made
// fresh) and a stage without a time step, unless a test gives its own.
#include <functional>
#include <stdexcept>

#include "softsim/model/model.hpp"

namespace softsim::test {

// A model's run data and a stage, as a stepper would pass them.
struct Evaluation {
  explicit Evaluation(const Model& model) : data(model) {}
  // One term outside a model: its own data only.
  explicit Evaluation(const Energy& term) { data.add(term); }
  EvalContext ctx() const { return {stage, data}; }
  // A step hook's context, with the other terms' gradient given (zero by default) and no
  // positions besides the hook's x (a hook asking for every position throws: the terms these
  // tests hook never need them).
  StepContext step_ctx(std::function<VecX()> other = {}) {
    other_gradient = other ? std::move(other) : [] { return VecX(); };
    whole_positions = []() -> const VecX& { throw std::logic_error("the test gave the step hook no positions"); };
    return {stage, data, other_gradient, whole_positions};
  }
  Stage stage;
  ModelData data;
  std::function<VecX()> other_gradient;
  std::function<const VecX&()> whole_positions;
};

// The model's potential at x as a run starts (fresh data, no time step).
inline double potential(const Model& model, const VecX& x, const AssemblyOutputs& out = {}) {
  const Evaluation e(model);
  return model.potential(e.ctx(), x, out);
}

}  // namespace softsim::test
