#pragma once
// A Hessian assembled on a fixed pattern (the model's layout) plus entries that may fall outside
// it (contact pairs, which change between Newton iterations). Entries on the pattern are added in
// place. The others widen it: the widened pattern (the fixed one plus the entries' places) is kept
// and reused while the entries fall on it, so that an evaluation whose contacts were seen before
// allocates nothing and hands the linear solver the pattern it analysed last time. It is built
// for the fixed pattern and the current entries only; places that contacts have since left stay
// as explicit zeros while they are few against the entries (at most twice their number plus 64),
// so the matrix the solver factors stays close to the exact pattern.
#include <vector>

#include "softsim/core/sparsity_pattern.hpp"
#include "softsim/core/types.hpp"

namespace softsim {

class WidenedHessian {
 public:
  // H += entries. H is compressed on its fixed pattern; it is left with that pattern when every
  // entry falls on it, else with the kept widened pattern (its storage reused).
  void add(SparseMat& H, const std::vector<Triplet>& entries);
  // The number of times the widened pattern was built.
  int pattern_builds() const { return builds_; }

 private:
  void build(const SparseMat& H, const std::vector<Triplet>& entries);
  SparsityPattern base_;             // the fixed pattern widened_ was built from
  SparseMat widened_;                // values: scratch
  std::vector<int> base_in_widened_;  // entry k of the fixed pattern is entry base_in_widened_[k]
  std::vector<int> places_;           // each entry's index in H's or widened_'s values
  std::vector<Triplet> scratch_;
  int builds_ = 0;
};

}  // namespace softsim
