#pragma once
// B^T H B for a fixed map B (model/subspace_map.hpp) and Hessians H whose sparsity pattern rarely
// changes: the reduced Hessian of bodies in a subspace, every Newton iteration (Li & Jiang 2025,
// ch. on ABD). Each reduced column c is made on its own, through dense work vectors (Gustavson's
// scheme): (H B)(:, c) from the columns of H that B(:, c) touches, then B^T of it. So an entry of
// H costs one multiply-add per column of B its column meets (3 for a 2D affine body's DOF, 4 in
// 3D), and each row of H B one per entry of B's row; multiplying B's rows into every entry of H
// instead costs their product (measured 1.2x slower on the book's affine square drop). The
// patterns of H B and of the result are worked out once per pattern of H and kept; a product
// with an unchanged pattern allocates nothing. Columns are independent, so they run in parallel,
// each summed in one fixed order (the same bits for any thread count).
#include <tbb/enumerable_thread_specific.h>

#include <vector>

#include "softsim/core/sparsity_pattern.hpp"
#include "softsim/core/types.hpp"

namespace softsim {

struct SubspaceMap;

class SubspacePullBack {
 public:
  // Reads B from `map` (its B and B^T, compressed copies only if they are not compressed), so
  // the map must outlive this object and stay as it is.
  explicit SubspacePullBack(const SubspaceMap& map);
  SubspacePullBack(const SubspacePullBack&) = delete;  // points into its own storage
  SubspacePullBack& operator=(const SubspacePullBack&) = delete;

  // B^T H B, in storage this object keeps (valid until the next call). H must be square with
  // B's row count; compressed or not.
  const SparseMat& apply(const SparseMat& H);

 private:
  void analyse(const SparseMat& H);  // the reduced pattern for H's pattern

  // B by rows (B^T's columns) and by columns, compressed: the map's own matrices, or copies
  // in the storage below when one is not compressed.
  SparseMat rows_storage_, columns_storage_;
  const SparseMat* by_rows_ = nullptr;
  const SparseMat* by_columns_ = nullptr;
  int num_dofs_ = 0, num_coordinates_ = 0;
  SparsityPattern seen_;  // the pattern of H the reduced pattern was made for
  std::vector<std::vector<int>> hb_rows_;  // per reduced column c: the rows of (H B)(:, c), ascending
  SparseMat reduced_;
  // Each thread's dense accumulators of one column, in positions and in coordinates, zero
  // between columns.
  struct Work {
    VecX positions, coordinates;
  };
  tbb::enumerable_thread_specific<Work> work_;
};

}  // namespace softsim
