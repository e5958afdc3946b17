#pragma once
// Linear BVH (Karras 2012): primitives sorted by the Morton code of their box centres, the
// binary radix tree over the sorted codes built with every inner node computed independently
// (Karras 2012, §4, Fig. 4), then the boxes merged bottom-up (Karras 2012, §4, "Bounding
// box calculation"); all three steps are data-parallel, so the build is O(n) work after the
// sort. Inner boxes are single precision, rounded outwards (twice as many per cache line, still
// conservative); leaves keep the exact double boxes, so reported pairs are exactly the pairs
// whose double boxes overlap, as with every other method.
// The tree's leaves are clusters of kLeafSize consecutive primitives along the curve, their
// float boxes side by side (one SSE compare tests a query against four of them): a walk is
// bound by the latency of the nodes it loads, one after the other, and the clusters take the
// four lowest, most visited levels out of the tree for a few streamed compares.
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

#include "softsim/contact/broad_phase/aabb.hpp"
#include "softsim/contact/broad_phase/box_pairs.hpp"
#include "softsim/core/parallel.hpp"
#include "softsim/core/scratch_vector.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace softsim {

// Single-precision box containing a double one.
struct FloatAabb {
  float lo[3];
  float hi[3];
};

namespace float_rounding {
// A float <= v, at most three floats below the largest one (v not NaN), without branches: the
// build rounds six coordinates of every primitive, and the exact rounding's branches cost as
// much as the rest of the sorted copy. v is lowered by |v| 2^-23 (one to two float ulps) plus a
// denormal before rounding to nearest, which moves it by at most half an ulp of the lowered
// value: the result cannot pass v (the smallest denormal covers the denormal range). Values
// above the float range give the largest float, +inf included: its difference is NaN, and
// std::min returns its first operand when the comparison with NaN fails.
inline float down_loose(double v) {
  const double lowered = v - std::abs(v) * 0x1p-23 - 0x1p-149;
  return static_cast<float>(std::min(static_cast<double>(std::numeric_limits<float>::max()), lowered));
}
inline float up_loose(double v) { return -down_loose(-v); }
}  // namespace float_rounding

// A single-precision box containing `box` (rounded outwards by float_rounding::down_loose /
// up_loose); an empty box when a coordinate is NaN, which overlaps nothing in double precision.
inline FloatAabb outward_float_box(const Aabb& box) {
  FloatAabb f;
  bool nan = false;
  for (int d = 0; d < 3; ++d) {
    nan |= std::isnan(box.lo[d]) | std::isnan(box.hi[d]);
    f.lo[d] = float_rounding::down_loose(box.lo[d]);
    f.hi[d] = float_rounding::up_loose(box.hi[d]);
  }
  if (nan) {
    for (int e = 0; e < 3; ++e) {
      f.lo[e] = std::numeric_limits<float>::infinity();
      f.hi[e] = -std::numeric_limits<float>::infinity();
    }
  }
  return f;
}

inline bool overlaps(const FloatAabb& a, const FloatAabb& b) {
  return a.lo[0] <= b.hi[0] && b.lo[0] <= a.hi[0] && a.lo[1] <= b.hi[1] &&
         b.lo[1] <= a.hi[1] && a.lo[2] <= b.hi[2] && b.lo[2] <= a.hi[2];
}

// An inner node holds its children's boxes, so that a visit reads one cache line and tests
// both children without touching them.
struct alignas(64) LinearBvhNode {
  FloatAabb left_box;
  FloatAabb right_box;
  // Children: >= 0 an inner node, < 0 the leaf cluster ~child. The node covers a range of
  // clusters [first, last] split at gamma: the left child covers [first, gamma], the right one
  // [gamma + 1, last] and has index gamma + 1 as a cluster or inner node (Karras 2012, §4), so
  // the left child's last cluster is position(right) - 1.
  // Left unset by construction (a ScratchVector of nodes): the build writes every field.
  int left;
  int right;
};
inline int child_position(int child) { return child < 0 ? ~child : child; }

// Primitives per leaf, a multiple of 4 (SSE registers of float coordinates). Measured with
// bench_contact_ops (docs/performance.md): 4, 8, 16 and 32 made every operation 5-13%, 2-6%,
// 3-10% and 2-4% faster than the size before; 16 keeps a cluster's boxes in six cache lines.
inline constexpr int kLeafSize = 16;

// The float boxes of the primitives at sorted positions [kLeafSize c, kLeafSize (c + 1)), one
// array per bound and axis; slots past the last primitive hold empty boxes.
struct alignas(16) LeafCluster {
  float lo[3][kLeafSize];
  float hi[3][kLeafSize];
};
// Bit j set when box j of the cluster overlaps `box` (one 4-wide compare per bound and axis).
inline int cluster_overlap_mask(const LeafCluster& c, const FloatAabb& box) {
#if defined(__SSE2__)
  static_assert(kLeafSize % 4 == 0);
  int mask = 0;
  for (int h = 0; h < kLeafSize; h += 4) {
    __m128 m = _mm_and_ps(_mm_cmple_ps(_mm_load_ps(c.lo[0] + h), _mm_set1_ps(box.hi[0])),
                          _mm_cmple_ps(_mm_set1_ps(box.lo[0]), _mm_load_ps(c.hi[0] + h)));
    for (int d = 1; d < 3; ++d)
      m = _mm_and_ps(m, _mm_and_ps(_mm_cmple_ps(_mm_load_ps(c.lo[d] + h), _mm_set1_ps(box.hi[d])),
                                   _mm_cmple_ps(_mm_set1_ps(box.lo[d]), _mm_load_ps(c.hi[d] + h))));
    mask |= _mm_movemask_ps(m) << h;
  }
  return mask;
#else
  int mask = 0;
  for (int j = 0; j < kLeafSize; ++j) {
    bool o = true;
    for (int d = 0; d < 3; ++d) o = o && c.lo[d][j] <= box.hi[d] && box.lo[d] <= c.hi[d][j];
    mask |= int(o) << j;
  }
  return mask;
#endif
}

// Bits of the Morton codes that order the primitives: 10 per axis, as Karras 2012 (§4) uses.
// Finer codes would only reorder the primitives that share a cell of 1/1024 of the frame per
// axis (kept in index order), and each further 10 bits cost a pass of the radix sort.
inline constexpr int kLinearBvhCodeBits = 30;

struct LinearBvh {
  ScratchVector<LinearBvhNode> inner;  // one fewer than the clusters; inner[0] is the root (2 or more clusters)
  ScratchVector<LeafCluster> clusters;  // ceil(n / kLeafSize) leaves of the tree
  FloatAabb root_box{};              // the box of everything
  ScratchVector<int> order;          // sorted position -> primitive index
  ScratchVector<Aabb> leaf_boxes;    // exact boxes, in sorted order
  ScratchVector<FloatAabb> leaf_float_boxes;  // the same rounded outwards
  Aabb frame{};                      // the box of the centres: the Morton codes' frame
  double frame_scale[3] = {0, 0, 0};  // 1 / the frame's width per axis (0 for a flat axis)

  std::size_t size() const { return order.size(); }
  // Morton code of a point in this tree's frame (points outside are clamped to it), the top
  // kLinearBvhCodeBits bits of morton_code_3d.
  std::uint64_t code(const double centre[3]) const;
};

LinearBvh build_linear_bvh(std::span<const Aabb> boxes);

// Calls visit(primitive) for every primitive of cluster c whose exact box overlaps `query` and
// whose sorted position is greater than `after`: the cluster's float boxes, four at a time,
// then the exact test on their hits. The leaf step of both walks below.
template <class Visit>
void visit_cluster_hits(const LinearBvh& bvh, int c, const Aabb& query, const FloatAabb& float_query, int after,
                        Visit&& visit) {
  for (int hits = cluster_overlap_mask(bvh.clusters[static_cast<std::size_t>(c)], float_query); hits;
       hits &= hits - 1) {
    const int s = c * kLeafSize + std::countr_zero(static_cast<unsigned>(hits));
    if (s > after && overlaps(query, bvh.leaf_boxes[static_cast<std::size_t>(s)]))
      visit(bvh.order[static_cast<std::size_t>(s)]);
  }
}

// Calls visit(primitive) for every primitive whose box overlaps `query` and whose sorted
// position is greater than `after` (-1: all of them). `float_query` is outward_float_box(query).
template <class Visit>
void linear_bvh_query(const LinearBvh& bvh, const Aabb& query, const FloatAabb& float_query,
                      int after, Visit&& visit) {
  const int n = static_cast<int>(bvh.size());
  if (n == 0 || after >= n - 1) return;
  auto cluster_hits = [&](int c) { visit_cluster_hits(bvh, c, query, float_query, after, visit); };
  if (bvh.inner.empty()) {
    cluster_hits(0);
    return;
  }
  if (!overlaps(float_query, bvh.root_box)) return;
  // Every node on the stack has leaves after `after`: the root does, a right child has its
  // parent's last leaf, and a left child is entered only if its last leaf, just before the
  // right child's first, is after it. A radix tree over distinct keys is at most
  // kLinearBvhCodeBits + 32 levels deep (code bits + index bits).
  int stack[128];
  int top = 0;
  int node = 0;
  while (true) {
    const LinearBvhNode& m = bvh.inner[static_cast<std::size_t>(node)];
    int descend = -1;
    if (child_position(m.right) * kLeafSize - 1 > after && overlaps(float_query, m.left_box)) {
      if (m.left >= 0) descend = m.left;
      else cluster_hits(~m.left);
    }
    if (overlaps(float_query, m.right_box)) {
      if (m.right < 0) cluster_hits(~m.right);
      else if (descend < 0) descend = m.right;
      else stack[top++] = m.right;
    }
    if (descend >= 0) node = descend;
    else if (top > 0) node = stack[--top];
    else break;
  }
}

// The same with the float box computed here.
template <class Visit>
void linear_bvh_query(const LinearBvh& bvh, const Aabb& query, int after, Visit&& visit) {
  linear_bvh_query(bvh, query, outward_float_box(query), after, visit);
}

// Up to four queries at once, best consecutive along the curve so that they walk mostly the
// same nodes: each node's box is tested against the four query boxes in one 4-wide compare and
// entered if any of them overlaps it; only the lanes that overlapped go down with it. Calls
// visit(lane, primitive) for every hit of lane k with sorted position > after[k].
class QueryBatch {
 public:
  static constexpr int kLanes = 4;  // one SSE register (8 lanes, two registers, measured 4% more instructions)
  QueryBatch(const std::array<const Aabb*, kLanes>& queries, const std::array<FloatAabb, kLanes>& float_queries,
             int count)
      : queries_(queries), count_(count) {
    for (int d = 0; d < 3; ++d)
      for (int k = 0; k < kLanes; ++k) {
        // Padding lanes get an empty box: they overlap nothing.
        lo_[d][k] = k < count ? float_queries[k].lo[d] : std::numeric_limits<float>::infinity();
        hi_[d][k] = k < count ? float_queries[k].hi[d] : -std::numeric_limits<float>::infinity();
      }
  }
  int count() const { return count_; }
  const Aabb& query(int k) const { return *queries_[k]; }
  FloatAabb float_query(int k) const {
    return {{lo_[0][k], lo_[1][k], lo_[2][k]}, {hi_[0][k], hi_[1][k], hi_[2][k]}};
  }
  // Bit k set when lane k's box overlaps `box`.
  int overlap_mask(const FloatAabb& box) const {
#if defined(__SSE2__)
    __m128 m = _mm_and_ps(_mm_cmple_ps(_mm_set1_ps(box.lo[0]), _mm_load_ps(hi_[0])),
                          _mm_cmple_ps(_mm_load_ps(lo_[0]), _mm_set1_ps(box.hi[0])));
    for (int d = 1; d < 3; ++d)
      m = _mm_and_ps(m, _mm_and_ps(_mm_cmple_ps(_mm_set1_ps(box.lo[d]), _mm_load_ps(hi_[d])),
                                   _mm_cmple_ps(_mm_load_ps(lo_[d]), _mm_set1_ps(box.hi[d]))));
    return _mm_movemask_ps(m);
#else
    int mask = 0;
    for (int k = 0; k < kLanes; ++k) {
      bool o = true;
      for (int d = 0; d < 3; ++d) o = o && box.lo[d] <= hi_[d][k] && lo_[d][k] <= box.hi[d];
      mask |= int(o) << k;
    }
    return mask;
#endif
  }

 private:
  std::array<const Aabb*, kLanes> queries_;
  int count_;
  alignas(16) float lo_[3][kLanes];
  alignas(16) float hi_[3][kLanes];
};

template <class Visit>
void linear_bvh_query_batch(const LinearBvh& bvh, const QueryBatch& batch,
                            const std::array<int, QueryBatch::kLanes>& after, Visit&& visit) {
  const int n = static_cast<int>(bvh.size());
  // Lanes still wanting leaves at sorted positions up to `last`: after[k] < last (padding
  // lanes may answer yes: their boxes overlap nothing).
#if defined(__SSE2__)
  static_assert(QueryBatch::kLanes == 4);
  const __m128i after_lanes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(after.data()));
  auto lanes_before = [&](int last) {
    return _mm_movemask_ps(_mm_castsi128_ps(_mm_cmplt_epi32(after_lanes, _mm_set1_epi32(last))));
  };
#else
  auto lanes_before = [&](int last) {
    int mask = 0;
    for (int k = 0; k < batch.count(); ++k) mask |= int(after[k] < last) << k;
    return mask;
  };
#endif
  // The lanes in `mask` overlap cluster c: each against the cluster's boxes at once.
  auto cluster_hits = [&](int c, int mask) {
    for (; mask; mask &= mask - 1) {
      const int k = std::countr_zero(static_cast<unsigned>(mask));
      visit_cluster_hits(bvh, c, batch.query(k), batch.float_query(k), after[k], [&](int j) { visit(k, j); });
    }
  };
  if (n == 0) return;
  const int live = lanes_before(n - 1) & ((1 << batch.count()) - 1);
  if (bvh.inner.empty()) {
    if (live) cluster_hits(0, live);
    return;
  }
  int root_mask = batch.overlap_mask(bvh.root_box) & live;
  if (!root_mask) return;
  // Every (node, mask) on the stack: the lanes in mask overlap the node and want some of its
  // leaves (see linear_bvh_query for why a right child needs no check).
  std::pair<int, int> stack[128];
  int top = 0;
  int node = 0, mask = root_mask;
  while (true) {
    const LinearBvhNode& m = bvh.inner[static_cast<std::size_t>(node)];
    int next = -1, next_mask = 0;
    if (const int hit = mask & lanes_before(child_position(m.right) * kLeafSize - 1) & batch.overlap_mask(m.left_box)) {
      if (m.left < 0) {
        cluster_hits(~m.left, hit);
      } else {
        next = m.left;
        next_mask = hit;
      }
    }
    if (const int hit = mask & batch.overlap_mask(m.right_box)) {
      if (m.right < 0) {
        cluster_hits(~m.right, hit);
      } else if (next < 0) {
        next = m.right;
        next_mask = hit;
      } else {
        stack[top++] = {m.right, hit};
      }
    }
    if (next >= 0) {
      node = next;
      mask = next_mask;
    } else if (top > 0) {
      std::tie(node, mask) = stack[--top];
    } else {
      break;
    }
  }
}

// Queries in the order of their box centres along the tree's curve, as (code, query index):
// consecutive queries then walk mostly the same nodes.
struct CodedIndex {
  std::uint64_t code;
  int index;
};
ScratchVector<CodedIndex> morton_order(const LinearBvh& bvh, std::span<const Aabb> queries);

namespace linear_bvh_detail {
// Pairs gathered by fixed blocks of queries, each block in batches of four consecutive queries
// (per_batch(first, count, out)), to be put in order by sort_pairs_by_first.
template <class PerBatch>
std::vector<PairList> gather_batches(std::size_t num_queries, PerBatch&& per_batch) {
  static_assert(kQueryBlock % QueryBatch::kLanes == 0);
  const std::size_t blocks = (num_queries + kQueryBlock - 1) / kQueryBlock;
  std::vector<PairList> out(blocks);
  parallel_for_each_heavy(blocks, [&](std::size_t b) {
    const std::size_t end = std::min(num_queries, (b + 1) * kQueryBlock);
    for (std::size_t q = b * kQueryBlock; q < end; q += QueryBatch::kLanes)
      per_batch(q, static_cast<int>(std::min<std::size_t>(QueryBatch::kLanes, end - q)), out[b]);
  });
  return out;
}
}  // namespace linear_bvh_detail

// linear_bvh_pairs with the exclusion test inlined into the traversal (`excluded(i, j)`: drop
// the pair; most overlapping pairs of a mesh are adjacent primitives, tested where they are
// found, so an indirect call there is a measurable part of the broad phase).
template <class Exclude>
PairList linear_bvh_pairs_excluding(std::span<const Aabb> queries, std::span<const Aabb> targets,
                                    bool self, Exclude&& excluded) {
  using linear_bvh_detail::gather_batches;
  if (queries.empty() || targets.empty()) return {};
  const LinearBvh bvh = build_linear_bvh(targets);
  if (self) {
    // Each leaf against the leaves after it in the tree's order (every pair once), four
    // consecutive leaves at a time.
    auto blocks = gather_batches(bvh.size(), [&](std::size_t first, int count, PairList& out) {
      std::array<const Aabb*, QueryBatch::kLanes> q{};
      std::array<FloatAabb, QueryBatch::kLanes> fq{};
      std::array<int, QueryBatch::kLanes> after{};
      for (int k = 0; k < count; ++k) {
        q[k] = &bvh.leaf_boxes[first + k];
        fq[k] = bvh.leaf_float_boxes[first + k];
        after[k] = static_cast<int>(first) + k;
      }
      linear_bvh_query_batch(bvh, QueryBatch(q, fq, count), after, [&](int k, int b) {
        const int a = bvh.order[first + static_cast<std::size_t>(k)];
        const int lo = std::min(a, b), hi = std::max(a, b);
        if (!excluded(lo, hi)) out.push_back({lo, hi});
      });
    });
    return sort_pairs_by_first(std::move(blocks), targets.size());
  }
  const ScratchVector<CodedIndex> query_order = morton_order(bvh, queries);
  auto blocks = gather_batches(queries.size(), [&](std::size_t first, int count, PairList& out) {
    std::array<const Aabb*, QueryBatch::kLanes> q{};
    std::array<FloatAabb, QueryBatch::kLanes> fq{};
    std::array<int, QueryBatch::kLanes> after{};
    std::array<int, QueryBatch::kLanes> id{};
    for (int k = 0; k < count; ++k) {
      id[k] = query_order[first + k].index;
      q[k] = &queries[static_cast<std::size_t>(id[k])];
      fq[k] = outward_float_box(*q[k]);
      after[k] = -1;
    }
    linear_bvh_query_batch(bvh, QueryBatch(q, fq, count), after, [&](int k, int j) {
      if (!excluded(id[k], j)) out.push_back({id[k], j});
    });
  });
  return sort_pairs_by_first(std::move(blocks), queries.size());
}

}  // namespace softsim
