#pragma once
// The loop every contact term runs over its stencils (contact_stencil.hpp): evaluate each
// stencil's value, gradient and Hessian in parallel (one ContactStencilTerm each), then add
// weight x each to the assembly outputs in stencil order, so the sums do not depend on the thread
// count. Gradients go in by segments; Hessians as dynamic triplets (contact stencils change between
// evaluations). Vertices without DOFs (global id >= num_dof_vertices: static obstacle vertices)
// are skipped.
#include <limits>
#include <type_traits>
#include <vector>

#include "softsim/contact/stencil/contact_stencil.hpp"
#include "softsim/core/parallel.hpp"
#include "softsim/core/stencil_assembly.hpp"

namespace softsim {

// One contact stencil's value and derivatives (up to 4 vertices in 3D; the first
// num_vertices * dim entries are used). Inactive terms (e.g. a candidate pair farther than the
// barrier's reach) add nothing.
struct ContactStencilTerm {
  bool active = true;
  double value = 0.0;
  std::size_t triplet_offset = 0;  // where scatter_stencils writes its Hessian's triplets
  Eigen::Matrix<double, 12, 1> grad;
  Eigen::Matrix<double, 12, 12> hess;
};

// Projects the used block of the term's Hessian (num_coordinates = vertices x dim) to positive
// semi-definite (stencil_projection.cpp).
void project_stencil_hessian(ContactStencilTerm& t, int num_coordinates);

// project_stencil_hessian for a term that depends only on the differences of its vertices'
// positions (IPC's barrier of a distance between primitives): the projection on the motions
// that are not a common translation (project_psd_translation_invariant), a smaller eigenproblem.
void project_relative_stencil_hessian(ContactStencilTerm& t, int num_vertices, int dim);

// Adds weight x one stencil's gradient to the outputs' gradient.
inline void add_stencil_gradient(const ContactStencil& s, int dim, int num_dof_vertices, double weight,
                                 const ContactStencilTerm& t, VecX& gradient) {
  for (int a = 0; a < s.num_vertices; ++a)
    if (s.ids[a] < num_dof_vertices) gradient.segment(s.ids[a] * dim, dim) += weight * t.grad.segment(a * dim, dim);
}

// Number of Hessian triplets of one stencil: dim^2 per pair of its vertices with DOFs.
inline std::size_t stencil_triplet_count(const ContactStencil& s, int dim, int num_dof_vertices) {
  std::size_t k = 0;
  for (int a = 0; a < s.num_vertices; ++a) k += s.ids[a] < num_dof_vertices;
  return k * k * static_cast<std::size_t>(dim * dim);
}

// Writes weight x one stencil's Hessian as triplets from `dst` on (stencil_triplet_count of them),
// row by row: a row's entries are consecutive, so a subspace's pull-back (BlockHessian) handles
// each row's run of columns in one body at once.
inline void write_stencil_hessian(const ContactStencil& s, int dim, int num_dof_vertices, double weight,
                                  const ContactStencilTerm& t, Triplet* dst) {
  const int k = s.num_vertices;
  for (int a = 0; a < k; ++a) {
    if (s.ids[a] >= num_dof_vertices) continue;
    for (int r = 0; r < dim; ++r)
      for (int b = 0; b < k; ++b) {
        if (s.ids[b] >= num_dof_vertices) continue;
        for (int c = 0; c < dim; ++c)
          *dst++ = Triplet(s.ids[a] * dim + r, s.ids[b] * dim + c, weight * t.hess(a * dim + r, b * dim + c));
      }
  }
}

// Evaluates `count` stencils in parallel, evaluate(i, term).
template <class Evaluate>
void evaluate_stencils(std::size_t count, std::vector<ContactStencilTerm>& terms, Evaluate&& evaluate) {
  // Into `terms`, whose capacity is reused: evaluate must set value, grad and hess.
  terms.resize(count);
  parallel_for(count, [&](std::size_t i) {
    terms[i].active = true;
    evaluate(i, terms[i]);
  });
}

// Adds weight x the active terms to the outputs in order; returns weight x the sum of their
// values, +infinity as soon as one is not finite (a barrier at or past contact). stencil(i) gives
// the ContactStencil of term i.
template <class StencilOf>
double scatter_stencils(std::vector<ContactStencilTerm>& terms, StencilOf&& stencil, int dim, int num_dof_vertices,
                        double weight, const AssemblyOutputs& out) {
  // Values and gradient in order (cheap); the Hessian's triplets, most of the work, are written
  // in parallel at offsets counted here (kept in the terms, so nothing is allocated), in the same
  // order as a serial loop would append them.
  double total = 0.0;
  const std::size_t start = out.dynamic_hessian ? out.dynamic_hessian->size() : 0;
  std::size_t end = start;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    ContactStencilTerm& t = terms[i];
    if (!t.active) continue;
    if (!std::isfinite(t.value)) return std::numeric_limits<double>::infinity();
    total += weight * t.value;
    if (out.gradient) add_stencil_gradient(stencil(i), dim, num_dof_vertices, weight, t, *out.gradient);
    if (out.dynamic_hessian) {
      t.triplet_offset = end;
      end += stencil_triplet_count(stencil(i), dim, num_dof_vertices);
    }
  }
  if (out.dynamic_hessian) {
    std::vector<Triplet>& triplets = *out.dynamic_hessian;
    triplets.resize(end);
    parallel_for(terms.size(), [&](std::size_t i) {
      const ContactStencilTerm& t = terms[i];
      if (t.active) write_stencil_hessian(stencil(i), dim, num_dof_vertices, weight, t, triplets.data() + t.triplet_offset);
    });
  }
  return total;
}

// Both: the contact terms' one assembly loop, its terms in `terms` (a buffer the caller keeps
// between evaluations, so that its capacity is reused).
template <class StencilOf, class Evaluate>
double assemble_contact_stencils(std::size_t count, StencilOf&& stencil, int dim, int num_dof_vertices, double weight,
                                 const AssemblyOutputs& out, std::vector<ContactStencilTerm>& terms,
                                 Evaluate&& evaluate) {
  evaluate_stencils(count, terms, evaluate);
  return scatter_stencils(terms, stencil, dim, num_dof_vertices, weight, out);
}

}  // namespace softsim
