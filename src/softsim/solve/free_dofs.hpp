#pragma once
// The DOFs a solve keeps when some are eliminated (fixed): the index maps both ways, the free
// block of a matrix, and vectors restricted to the free DOFs and extended back with zeros.
// Shared by the modal eigensolver and the modal derivatives of reduced bodies.
#include <vector>

#include "softsim/core/types.hpp"

namespace softsim {

class FreeDofs {
 public:
  // fixed: per DOF, nonzero for eliminated DOFs; empty means none.
  FreeDofs(int num_dofs, const std::vector<char>& fixed);
  int count() const { return static_cast<int>(free_of_.size()); }
  int dof(int free) const { return free_of_[free]; }
  // The rows and columns of A at the free DOFs.
  SparseMat block(const SparseMat& A) const;
  VecX restrict(const VecX& v) const;
  // The free entries from v_free, zero at the eliminated DOFs.
  VecX extend(const VecX& v_free) const;

 private:
  int num_dofs_;
  std::vector<int> free_of_, dof_to_free_;
};

}  // namespace softsim
