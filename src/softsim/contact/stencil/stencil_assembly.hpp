#pragma once
// Adds one contact stencil's weighted gradient and Hessian (vertex-major, k vertices of dim
// coordinates) to the assembly outputs: the gradient by segments, the Hessian as dynamic triplets
// (contact stencils change between evaluations). Vertices without DOFs (global id >=
// num_dof_vertices: static obstacle vertices) are skipped.
#include <vector>

#include "softsim/core/parallel.hpp"
#include "softsim/core/stencil_assembly.hpp"

namespace softsim {

template <class Grad, class Hess>
void add_stencil_to_outputs(const int* ids, int k, int dim, int num_dof_vertices, double weight, const Grad& grad,
                            const Hess& hess, const AssemblyOutputs& out) {
  for (int a = 0; a < k; ++a) {
    if (ids[a] >= num_dof_vertices) continue;
    if (out.gradient) out.gradient->segment(ids[a] * dim, dim) += weight * grad.segment(a * dim, dim);
    if (!out.dynamic_hessian) continue;
    for (int b = 0; b < k; ++b) {
      if (ids[b] >= num_dof_vertices) continue;
      for (int r = 0; r < dim; ++r)
        for (int s = 0; s < dim; ++s)
          out.dynamic_hessian->emplace_back(ids[a] * dim + r, ids[b] * dim + s, weight * hess(a * dim + r, b * dim + s));
    }
  }
}

// One contact stencil's value and derivatives (up to 4 vertices in 3D).
struct ContactStencilTerm {
  double value = 0.0;
  Eigen::Matrix<double, 12, 1> grad;
  Eigen::Matrix<double, 12, 12> hess;
};

// Evaluates `count` contact stencils in parallel, evaluate(i, term), then adds weight x each to
// the outputs in order (deterministic sums); stencil(i) gives {ids, number of vertices}.
// Returns weight x the sum of the values.
template <class Stencil, class Evaluate>
double assemble_contact_stencils(std::size_t count, int dim, int num_dof_vertices, double weight,
                                 const AssemblyOutputs& out, Stencil&& stencil, Evaluate&& evaluate) {
  std::vector<ContactStencilTerm> terms(count);
  parallel_for(count, [&](std::size_t i) { evaluate(i, terms[i]); });
  double total = 0.0;
  for (std::size_t i = 0; i < count; ++i) {
    total += weight * terms[i].value;
    const auto [ids, k] = stencil(i);
    add_stencil_to_outputs(ids, k, dim, num_dof_vertices, weight, terms[i].grad, terms[i].hess, out);
  }
  return total;
}

}  // namespace softsim
