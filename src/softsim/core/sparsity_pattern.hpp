#pragma once
// The sparsity pattern of a compressed sparse matrix (its size, column starts and row indices),
// kept to tell whether a later matrix has exactly that pattern. Work that depends on the pattern
// only (a factorization's symbolic analysis, a dense envelope, the pattern of a product B^T H B)
// is reused while it is unchanged. Contact changes the pattern between Newton iterations, so the
// comparison is exact, O(nnz): it cannot go stale as a counter kept beside the matrix could.
#include <algorithm>
#include <vector>

#include "softsim/core/types.hpp"

namespace softsim {

// True if A and B are both compressed and have the same size, column starts and row indices.
inline bool same_sparsity_pattern(const SparseMat& A, const SparseMat& B) {
  if (!A.isCompressed() || !B.isCompressed()) return false;
  if (A.rows() != B.rows() || A.cols() != B.cols() || A.nonZeros() != B.nonZeros()) return false;
  return std::equal(A.outerIndexPtr(), A.outerIndexPtr() + A.outerSize() + 1, B.outerIndexPtr()) &&
         std::equal(A.innerIndexPtr(), A.innerIndexPtr() + A.nonZeros(), B.innerIndexPtr());
}

class SparsityPattern {
 public:
  // Keeps A's pattern (A compressed; its storage is reused when the sizes allow).
  void assign(const SparseMat& A) {
    rows_ = A.rows();
    cols_ = A.cols();
    outer_.assign(A.outerIndexPtr(), A.outerIndexPtr() + A.outerSize() + 1);
    inner_.assign(A.innerIndexPtr(), A.innerIndexPtr() + A.nonZeros());
    assigned_ = true;
  }
  // True if a pattern is kept and a compressed A has exactly it. Sizes are compared before any
  // index array is read, so a matrix of another shape is never read past its end.
  bool matches(const SparseMat& A) const {
    if (!assigned_ || !A.isCompressed()) return false;
    if (A.rows() != rows_ || A.cols() != cols_) return false;
    if (static_cast<std::size_t>(A.nonZeros()) != inner_.size()) return false;
    return std::equal(outer_.begin(), outer_.end(), A.outerIndexPtr()) &&
           std::equal(inner_.begin(), inner_.end(), A.innerIndexPtr());
  }
  bool empty() const { return !assigned_; }
  void clear() {
    assigned_ = false;
    rows_ = cols_ = 0;
    outer_.clear();
    inner_.clear();
  }

 private:
  bool assigned_ = false;
  Eigen::Index rows_ = 0, cols_ = 0;
  std::vector<int> outer_, inner_;
};

}  // namespace softsim
