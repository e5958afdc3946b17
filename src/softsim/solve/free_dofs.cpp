#include "softsim/solve/free_dofs.hpp"

namespace softsim {

FreeDofs::FreeDofs(int num_dofs, const std::vector<char>& fixed) : num_dofs_(num_dofs), dof_to_free_(num_dofs, -1) {
  for (int i = 0; i < num_dofs; ++i)
    if (fixed.empty() || !fixed[i]) {
      dof_to_free_[i] = static_cast<int>(free_of_.size());
      free_of_.push_back(i);
    }
}

SparseMat FreeDofs::block(const SparseMat& A) const {
  std::vector<Triplet> t;
  t.reserve(A.nonZeros());
  for (int c = 0; c < A.outerSize(); ++c) {
    const int fc = dof_to_free_[c];
    if (fc < 0) continue;
    for (SparseMat::InnerIterator it(A, c); it; ++it) {
      const int fr = dof_to_free_[it.row()];
      if (fr >= 0) t.emplace_back(fr, fc, it.value());
    }
  }
  SparseMat B(count(), count());
  B.setFromTriplets(t.begin(), t.end());
  return B;
}

VecX FreeDofs::restrict(const VecX& v) const {
  VecX out(count());
  for (int f = 0; f < count(); ++f) out[f] = v[free_of_[f]];
  return out;
}

VecX FreeDofs::extend(const VecX& v_free) const {
  VecX out = VecX::Zero(num_dofs_);
  for (int f = 0; f < count(); ++f) out[free_of_[f]] = v_free[f];
  return out;
}

}  // namespace softsim
