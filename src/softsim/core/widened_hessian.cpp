#include "softsim/core/widened_hessian.hpp"

#include <algorithm>

namespace softsim {
namespace {

// Each entry's index in H's values; false when one is not on H's pattern.
bool find_places(const SparseMat& H, const std::vector<Triplet>& entries, std::vector<int>& places) {
  places.resize(entries.size());
  const int* inner = H.innerIndexPtr();
  const int* outer = H.outerIndexPtr();
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const Triplet& t = entries[k];
    const int* begin = inner + outer[t.col()];
    const int* end = inner + outer[t.col() + 1];
    const int* pos = std::lower_bound(begin, end, t.row());
    if (pos == end || *pos != t.row()) return false;
    places[k] = static_cast<int>(pos - inner);
  }
  return true;
}

}  // namespace

void WidenedHessian::build(const SparseMat& H, const std::vector<Triplet>& entries) {
  base_.assign(H);
  scratch_.clear();
  for (int c = 0; c < H.outerSize(); ++c)
    for (SparseMat::InnerIterator it(H, c); it; ++it) scratch_.emplace_back(static_cast<int>(it.row()), c, 0.0);
  for (const Triplet& t : entries) scratch_.emplace_back(t.row(), t.col(), 0.0);
  widened_.resize(H.rows(), H.cols());
  widened_.setFromTriplets(scratch_.begin(), scratch_.end());  // the values are scratch
  widened_.makeCompressed();
  // The fixed pattern's entries within each widened column (both sorted by row).
  base_in_widened_.resize(H.nonZeros());
  for (int c = 0; c < H.outerSize(); ++c) {
    int w = widened_.outerIndexPtr()[c];
    for (int k = H.outerIndexPtr()[c]; k < H.outerIndexPtr()[c + 1]; ++k) {
      while (widened_.innerIndexPtr()[w] != H.innerIndexPtr()[k]) ++w;
      base_in_widened_[k] = w;
    }
  }
  ++builds_;
}

void WidenedHessian::add(SparseMat& H, const std::vector<Triplet>& entries) {
  if (entries.empty()) return;
  if (find_places(H, entries, places_)) {
    for (std::size_t k = 0; k < entries.size(); ++k) H.valuePtr()[places_[k]] += entries[k].value();
    return;
  }
  // Rebuilt for another fixed pattern, for entries off the kept one, and when the kept one holds
  // more places than twice the entries (contacts that have moved on).
  const bool keep = base_.matches(H) && widened_.nonZeros() - H.nonZeros() <= 2 * static_cast<long>(entries.size()) + 64 &&
                    find_places(widened_, entries, places_);
  if (!keep) {
    build(H, entries);
    find_places(widened_, entries, places_);
  }
  double* values = widened_.valuePtr();
  std::fill(values, values + widened_.nonZeros(), 0.0);
  const double* assembled = H.valuePtr();
  for (Eigen::Index k = 0; k < H.nonZeros(); ++k) values[base_in_widened_[k]] = assembled[k];
  for (std::size_t k = 0; k < entries.size(); ++k) values[places_[k]] += entries[k].value();
  H = widened_;  // a copy into H's storage: no allocation once it has held the widened pattern
}

}  // namespace softsim
