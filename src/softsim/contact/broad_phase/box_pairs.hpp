#pragma once
// Box-overlap kernels shared by the broad phase implementations: every (query i, target j)
// whose boxes overlap and that `excluded` does not drop, as a sorted list (by i, then j). In
// self mode (queries == targets) only pairs with i < j. Results are identical whatever the
// thread count: queries are processed in fixed blocks whose outputs are put in order.
// Exclusions (adjacent primitives) are tested as pairs are found: most overlapping pairs of a
// mesh are adjacent, and dropping them there keeps them out of every later pass.
#include <algorithm>
#include <array>
#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "softsim/contact/broad_phase/aabb.hpp"
#include "softsim/core/parallel.hpp"

namespace softsim {

using IndexPair = std::array<int, 2>;
using PairList = std::vector<IndexPair>;
// Pairs (i, j) to drop; an empty function drops none.
using PairExclusion = std::function<bool(int, int)>;

inline constexpr std::size_t kQueryBlock = 256;

// Runs `per_query(i, out)` (which appends the targets j of query i to `out`, any order) over
// fixed blocks of queries in parallel; sorts each query's hits and concatenates.
template <class PerQuery>
PairList collect_pairs(std::size_t num_queries, const PairExclusion& excluded, PerQuery&& per_query) {
  const std::size_t blocks = (num_queries + kQueryBlock - 1) / kQueryBlock;
  if (blocks == 0) return {};  // no queries (and no block 0 to run inline below)
  auto block = [&](std::size_t b, PairList& out, std::vector<int>& hits) {
    const std::size_t end = std::min(num_queries, (b + 1) * kQueryBlock);
    for (std::size_t i = b * kQueryBlock; i < end; ++i) {
      hits.clear();
      per_query(static_cast<int>(i), hits);
      std::sort(hits.begin(), hits.end());
      for (int j : hits)
        if (!excluded || !excluded(static_cast<int>(i), j)) out.push_back({static_cast<int>(i), j});
    }
  };
  if (blocks == 1) {
    // The small-scene fast path: inline, straight into the result, the hit list kept per thread
    // (a contact scene runs this several times per Newton iteration). Nothing in the block starts
    // parallel work, so no other use of the list can run on this thread meanwhile.
    thread_local std::vector<int> hits;
    PairList all;
    block(0, all, hits);
    return all;
  }
  std::vector<PairList> partial(blocks);
  parallel_for_each_heavy(blocks, [&](std::size_t b) {
    std::vector<int> hits;
    block(b, partial[b], hits);
  });
  std::size_t total = 0;
  for (const PairList& p : partial) total += p.size();
  PairList all;
  all.reserve(total);
  for (const PairList& p : partial) all.insert(all.end(), p.begin(), p.end());
  return all;
}

// O(n m) reference.
PairList brute_force_pairs(std::span<const Aabb> queries, std::span<const Aabb> targets,
                           bool self,
                   const PairExclusion& excluded = {});
// Uniform-grid spatial hash (spatial_hash.cpp).
PairList spatial_hash_pairs(std::span<const Aabb> queries, std::span<const Aabb> targets,
                            bool self,
                   const PairExclusion& excluded = {});
// Binary BVH over the targets (bvh.cpp).
PairList bvh_pairs(std::span<const Aabb> queries, std::span<const Aabb> targets,
                   bool self,
                   const PairExclusion& excluded = {});
// Linear BVH over the targets, queries in Morton order (linear_bvh.cpp).
PairList linear_bvh_pairs(std::span<const Aabb> queries, std::span<const Aabb> targets,
                          bool self,
                   const PairExclusion& excluded = {});

// The pairs of all blocks, in any order, as one list sorted by (first, second); first indices
// are below num_first. Linear time (counting sort on the first index).
PairList sort_pairs_by_first(std::vector<PairList>&& blocks, std::size_t num_first);

}  // namespace softsim
