#pragma once
// Box-overlap kernels shared by the broad phase implementations: every (query i, target j)
// whose boxes overlap, as a sorted list (by i, then j). In self mode (queries == targets) only
// pairs with i < j. Results are identical whatever the thread count: queries are processed in
// fixed blocks whose outputs are concatenated in order.
#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

#include <tbb/parallel_for.h>

#include "softsim/contact/broad_phase/aabb.hpp"

namespace softsim {

using IndexPair = std::array<int, 2>;
using PairList = std::vector<IndexPair>;

inline constexpr std::size_t kQueryBlock = 256;

// Runs `per_query(i, out)` (which appends the targets j of query i to `out`, any order) over
// fixed blocks of queries in parallel; sorts each query's hits and concatenates.
template <class PerQuery>
PairList collect_pairs(std::size_t num_queries, PerQuery&& per_query) {
  const std::size_t blocks = (num_queries + kQueryBlock - 1) / kQueryBlock;
  std::vector<PairList> partial(blocks);
  tbb::parallel_for(std::size_t(0), blocks, [&](std::size_t b) {
    PairList& out = partial[b];
    std::vector<int> hits;
    const std::size_t end = std::min(num_queries, (b + 1) * kQueryBlock);
    for (std::size_t i = b * kQueryBlock; i < end; ++i) {
      hits.clear();
      per_query(static_cast<int>(i), hits);
      std::sort(hits.begin(), hits.end());
      for (int j : hits) out.push_back({static_cast<int>(i), j});
    }
  });
  std::size_t total = 0;
  for (const PairList& p : partial) total += p.size();
  PairList all;
  all.reserve(total);
  for (const PairList& p : partial) all.insert(all.end(), p.begin(), p.end());
  return all;
}

// O(n m) reference.
PairList brute_force_pairs(const std::vector<Aabb>& queries, const std::vector<Aabb>& targets,
                           bool self);
// Uniform-grid spatial hash (spatial_hash.cpp).
PairList spatial_hash_pairs(const std::vector<Aabb>& queries, const std::vector<Aabb>& targets,
                            bool self);
// Binary BVH over the targets (bvh.cpp).
PairList bvh_pairs(const std::vector<Aabb>& queries, const std::vector<Aabb>& targets,
                   bool self);

}  // namespace softsim
