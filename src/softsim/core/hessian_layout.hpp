#pragma once
// The sparsity pattern of the global Hessian, built once per topology from the stencils (vertex
// tuples: elements, springs, ...) of every energy term. Assembly then writes element blocks
// straight into the compressed matrix's value array through a precomputed index map: no triplet
// sort in the Newton loop. Each stencil set is also greedily coloured so that stencils of one
// colour share no vertex and can be scattered in parallel without races; colours are processed
// in a fixed order, so the floating-point sums do not depend on the thread count.
#include <vector>

#include "softsim/core/types.hpp"

namespace softsim {

class HessianLayout {
 public:
  HessianLayout() = default;
  HessianLayout(int num_vertices, int dim) : num_vertices_(num_vertices), dim_(dim) {}

  // Registers a stencil set (rows = stencils, columns = local vertices); returns its id.
  int add_stencils(const MatXi& stencils);
  // Builds the pattern (always including every vertex's diagonal block) and the index maps.
  void finalize();

  int dim() const { return dim_; }
  int num_vertices() const { return num_vertices_; }
  int num_dofs() const { return num_vertices_ * dim_; }
  bool finalized() const { return finalized_; }

  // A matrix with the full pattern and zero values.
  const SparseMat& pattern() const { return pattern_; }
  const MatXi& stencils(int set) const { return sets_[set].stencils; }
  const std::vector<std::vector<int>>& colors(int set) const { return sets_[set].colors; }

  // For stencil e of a set with k vertices: k*k*dim integers; entry [(a*k + b)*dim + s] is the
  // index into valuePtr() of the entry (row = v_a*dim, col = v_b*dim + s); rows v_a*dim + r
  // follow at + r because a vertex's dim rows are contiguous in every column.
  const int* block_starts(int set, int e) const {
    const auto& s = sets_[set];
    const int k = static_cast<int>(s.stencils.cols());
    return s.block_start.data() + static_cast<std::size_t>(e) * k * k * dim_;
  }
  // All of a set's block starts, stencil e's at + e*k*k*dim (for loops that keep the pointer in a
  // local rather than read the layout per stencil).
  const int* block_starts(int set) const { return sets_[set].block_start.data(); }
  // Value index of the diagonal entry of dof i.
  int diagonal_index(int dof) const { return diagonal_index_[dof]; }

 private:
  struct StencilSet {
    MatXi stencils;
    std::vector<int> block_start;
    std::vector<std::vector<int>> colors;
  };
  int num_vertices_ = 0;
  int dim_ = 0;
  bool finalized_ = false;
  std::vector<StencilSet> sets_;
  SparseMat pattern_;
  std::vector<int> diagonal_index_;
};

// Greedy colouring: stencils of one colour share no vertex. Deterministic (stencil order).
std::vector<std::vector<int>> color_stencils(const MatXi& stencils, int num_vertices);

}  // namespace softsim
