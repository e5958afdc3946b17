#include "softsim/contact/broad_phase/linear_bvh.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <limits>
#include <memory>
#include <utility>

#include "softsim/contact/broad_phase/box_pairs.hpp"
#include "softsim/contact/broad_phase/morton.hpp"
#include "softsim/core/parallel.hpp"

namespace softsim {
namespace {

void expand(FloatAabb& box, const FloatAabb& other) {
  for (int d = 0; d < 3; ++d) {
    box.lo[d] = std::min(box.lo[d], other.lo[d]);
    box.hi[d] = std::max(box.hi[d], other.hi[d]);
  }
}

// Length of the common prefix of the keys at sorted positions i and j (Karras 2012, §4, the
// function delta): equal codes are told apart by their positions, so all keys are distinct;
// -1 outside the array.
int common_prefix(const ScratchVector<std::uint64_t>& codes, int i, int j) {
  if (j < 0 || j >= static_cast<int>(codes.size())) return -1;
  const std::uint64_t a = codes[static_cast<std::size_t>(i)], b = codes[static_cast<std::size_t>(j)];
  if (a == b) return 64 + std::countl_zero(static_cast<std::uint32_t>(i ^ j));
  return std::countl_zero(a ^ b);
}

// Inner node i of the radix tree (Karras 2012, Fig. 4): the range of keys it covers, where that
// range splits, and its children.
void build_inner_node(const ScratchVector<std::uint64_t>& codes, int i, LinearBvh& bvh,
                      ScratchVector<int>& inner_parent, ScratchVector<int>& leaf_parent) {
  const int d = common_prefix(codes, i, i + 1) > common_prefix(codes, i, i - 1) ? 1 : -1;
  // The other end of the range: double the step until the prefix gets shorter, then bisect.
  const int prefix_min = common_prefix(codes, i, i - d);
  int step_max = 2;
  while (common_prefix(codes, i, i + step_max * d) > prefix_min) step_max *= 2;
  int length = 0;
  for (int t = step_max / 2; t >= 1; t /= 2)
    if (common_prefix(codes, i, i + (length + t) * d) > prefix_min) length += t;
  const int j = i + length * d;
  // The split: the last key sharing more than the node's prefix with key i (binary search).
  const int prefix_node = common_prefix(codes, i, j);
  int split = 0;
  for (int div = 2;; div *= 2) {
    const int t = (length + div - 1) / div;
    if (common_prefix(codes, i, i + (split + t) * d) > prefix_node) split += t;
    if (t <= 1) break;
  }
  const int gamma = i + split * d + std::min(d, 0);
  const int first = std::min(i, j), last = std::max(i, j);
  LinearBvhNode& node = bvh.inner[static_cast<std::size_t>(i)];
  node.left = first == gamma ? ~gamma : gamma;
  node.right = last == gamma + 1 ? ~(gamma + 1) : gamma + 1;
  for (const int child : {node.left, node.right}) {
    if (child < 0) leaf_parent[static_cast<std::size_t>(~child)] = i;
    else inner_parent[static_cast<std::size_t>(child)] = i;
  }
}

// Sorts (code, index) pairs given in index order by code, ties kept in index order: an LSD
// radix sort (stable), linear in n, deterministic, and several times faster than a
// comparison sort on the few tens of thousands of keys of a contact mesh. Each pass counts and
// scatters contiguous chunks in parallel; a chunk's keys of one digit go after those of the
// chunks before it, so the result is the one stable order whatever the chunking.
void sort_by_code(ScratchVector<CodedIndex>& keyed) {
  constexpr int kBits = 10;  // three passes over a 30-bit code
  static_assert(kLinearBvhCodeBits % kBits == 0);
  constexpr std::size_t kBuckets = std::size_t(1) << kBits;
  constexpr std::size_t kMinChunk = 8192;
  const std::size_t n = keyed.size();
  const std::size_t chunks = std::max<std::size_t>(1, std::min<std::size_t>(n / kMinChunk, 64));
  const std::size_t chunk = (n + chunks - 1) / chunks;
  ScratchVector<CodedIndex> scratch(n);
  std::vector<std::size_t> start(chunks * kBuckets);  // [chunk][digit]
  auto digit = [](std::uint64_t code, int shift) { return (code >> shift) & (kBuckets - 1); };
  for (int shift = 0; shift < kLinearBvhCodeBits; shift += kBits) {
    parallel_for_each_heavy(chunks, [&](std::size_t c) {
      std::size_t* count = start.data() + c * kBuckets;
      std::fill(count, count + kBuckets, 0);
      for (std::size_t i = c * chunk, end = std::min(n, i + chunk); i < end; ++i) ++count[digit(keyed[i].code, shift)];
    });
    // Offsets digit by digit, chunk by chunk; a pass where every key has the same digit moves
    // nothing.
    std::size_t sum = 0;
    bool one_digit = false;
    for (std::size_t d = 0; d < kBuckets && !one_digit; ++d) {
      std::size_t in_digit = 0;
      for (std::size_t c = 0; c < chunks; ++c) in_digit += start[c * kBuckets + d];
      one_digit = in_digit == n;
      for (std::size_t c = 0; c < chunks; ++c) sum += std::exchange(start[c * kBuckets + d], sum);
    }
    if (one_digit) continue;
    parallel_for_each_heavy(chunks, [&](std::size_t c) {
      std::size_t* cursor = start.data() + c * kBuckets;
      for (std::size_t i = c * chunk, end = std::min(n, i + chunk); i < end; ++i)
        scratch[cursor[digit(keyed[i].code, shift)]++] = keyed[i];
    });
    keyed.swap(scratch);
  }
}

}  // namespace

std::uint64_t LinearBvh::code(const double centre[3]) const {
  double t[3];
  for (int d = 0; d < 3; ++d) t[d] = (centre[d] - frame.lo[d]) * frame_scale[d];
  return morton_code_3d(t[0], t[1], t[2]) >> (63 - kLinearBvhCodeBits);
}

LinearBvh build_linear_bvh(std::span<const Aabb> boxes) {
  LinearBvh bvh;
  const std::size_t n = boxes.size();
  if (n == 0) return bvh;
  auto centre = [&](std::size_t i) {
    std::array<double, 3> c;
    for (int d = 0; d < 3; ++d) c[d] = 0.5 * (boxes[i].lo[d] + boxes[i].hi[d]);
    return c;
  };
  // The frame: the box of the finite centre coordinates, by fixed blocks in parallel (min and
  // max are exact, so the result does not depend on the blocks).
  const std::size_t blocks = (n + kParallelGrain - 1) / kParallelGrain;
  std::vector<Aabb> block_frames(blocks, empty_aabb());
  auto frame_of_block = [&](std::size_t b) {
    Aabb& f = block_frames[b];
    for (std::size_t i = b * kParallelGrain, end = std::min(n, i + kParallelGrain); i < end; ++i) {
      const std::array<double, 3> c = centre(i);
      for (int d = 0; d < 3; ++d)
        if (std::isfinite(c[d])) {
          f.lo[d] = std::min(f.lo[d], c[d]);
          f.hi[d] = std::max(f.hi[d], c[d]);
        }
    }
  };
  parallel_for_each_heavy(blocks, frame_of_block);
  bvh.frame = empty_aabb();
  for (const Aabb& f : block_frames)
    for (int d = 0; d < 3; ++d) {
      bvh.frame.lo[d] = std::min(bvh.frame.lo[d], f.lo[d]);
      bvh.frame.hi[d] = std::max(bvh.frame.hi[d], f.hi[d]);
    }

  for (int d = 0; d < 3; ++d) {
    const double width = bvh.frame.hi[d] - bvh.frame.lo[d];
    bvh.frame_scale[d] = width > 0.0 ? 1.0 / width : 0.0;
  }

  // Sort by (code, index): ties in the code are ordered by index, so the order is unique.
  ScratchVector<CodedIndex> keyed(n);
  parallel_for(n, [&](std::size_t i) { keyed[i] = {bvh.code(centre(i).data()), static_cast<int>(i)}; });
  sort_by_code(keyed);
  ScratchVector<std::uint64_t> codes(n);
  bvh.order.resize(n);
  bvh.leaf_boxes.resize(n);
  bvh.leaf_float_boxes.resize(n);
  parallel_for(n, [&](std::size_t s) {
    codes[s] = keyed[s].code;
    bvh.order[s] = keyed[s].index;
    bvh.leaf_boxes[s] = boxes[static_cast<std::size_t>(keyed[s].index)];
    bvh.leaf_float_boxes[s] = outward_float_box(bvh.leaf_boxes[s]);
  });
  // Leaf clusters: kLeafSize consecutive primitives each, slots past the end empty; each
  // cluster's box, and its key for the tree (its first primitive's code: still ascending).
  const std::size_t m = (n + kLeafSize - 1) / kLeafSize;
  bvh.clusters.resize(m);
  ScratchVector<FloatAabb> cluster_boxes(m);
  ScratchVector<std::uint64_t> cluster_codes(m);
  parallel_for(m, [&](std::size_t c) {
    LeafCluster& cluster = bvh.clusters[c];
    FloatAabb box;
    for (int d = 0; d < 3; ++d) {
      box.lo[d] = std::numeric_limits<float>::infinity();
      box.hi[d] = -std::numeric_limits<float>::infinity();
    }
    for (int j = 0; j < kLeafSize; ++j) {
      const std::size_t s = c * kLeafSize + static_cast<std::size_t>(j);
      for (int d = 0; d < 3; ++d) {
        cluster.lo[d][j] = s < n ? bvh.leaf_float_boxes[s].lo[d] : std::numeric_limits<float>::infinity();
        cluster.hi[d][j] = s < n ? bvh.leaf_float_boxes[s].hi[d] : -std::numeric_limits<float>::infinity();
      }
      if (s < n) expand(box, bvh.leaf_float_boxes[s]);
    }
    cluster_boxes[c] = box;
    cluster_codes[c] = codes[c * kLeafSize];
  });
  if (m == 1) {
    bvh.root_box = cluster_boxes[0];
    return bvh;
  }

  const int num_inner = static_cast<int>(m) - 1;
  bvh.inner.resize(static_cast<std::size_t>(num_inner));
  // Every parent is written by build_inner_node but the root's.
  ScratchVector<int> inner_parent(static_cast<std::size_t>(num_inner)), leaf_parent(m);
  inner_parent[0] = -1;
  parallel_for(static_cast<std::size_t>(num_inner), [&](std::size_t i) {
    build_inner_node(cluster_codes, static_cast<int>(i), bvh, inner_parent, leaf_parent);
  });

  // Boxes bottom-up: every cluster writes its box into its parent and walks towards the root;
  // the second child to arrive at a node (both its boxes are then written) merges them into the
  // node's own parent and goes on, the first stops.
  const std::unique_ptr<std::atomic<int>[]> arrivals(new std::atomic<int>[static_cast<std::size_t>(num_inner)]);
  parallel_for(static_cast<std::size_t>(num_inner), [&](std::size_t i) { arrivals[i].store(0, std::memory_order_relaxed); });
  auto write_into_parent = [&](int parent, int child, const FloatAabb& box) {
    LinearBvhNode& p = bvh.inner[static_cast<std::size_t>(parent)];
    (p.left == child ? p.left_box : p.right_box) = box;
  };
  parallel_for(m, [&](std::size_t leaf) {
    int node = leaf_parent[leaf];
    write_into_parent(node, ~static_cast<int>(leaf), cluster_boxes[leaf]);
    while (arrivals[static_cast<std::size_t>(node)].fetch_add(1, std::memory_order_acq_rel) == 1) {
      const LinearBvhNode& mn = bvh.inner[static_cast<std::size_t>(node)];
      FloatAabb box = mn.left_box;
      expand(box, mn.right_box);
      const int parent = inner_parent[static_cast<std::size_t>(node)];
      if (parent < 0) {
        bvh.root_box = box;
        break;
      }
      write_into_parent(parent, node, box);
      node = parent;
    }
  });
  return bvh;
}

PairList sort_pairs_by_first(std::vector<PairList>&& blocks, std::size_t num_first) {
  // Counting sort on the first index (atomic counters: the order of arrivals does not matter,
  // each bucket is sorted afterwards), then each bucket sorted on the second index.
  std::vector<int> start(num_first + 1, 0);
  parallel_for_each_heavy(blocks.size(), [&](std::size_t b) {
    for (const IndexPair& p : blocks[b])
      std::atomic_ref<int>(start[static_cast<std::size_t>(p[0]) + 1]).fetch_add(1, std::memory_order_relaxed);
  });
  for (std::size_t a = 0; a < num_first; ++a) start[a + 1] += start[a];
  std::vector<int> cursor(start.begin(), start.end() - 1);
  PairList out(static_cast<std::size_t>(start[num_first]));
  parallel_for_each_heavy(blocks.size(), [&](std::size_t b) {
    for (const IndexPair& p : blocks[b]) {
      const int w = std::atomic_ref<int>(cursor[static_cast<std::size_t>(p[0])]).fetch_add(1, std::memory_order_relaxed);
      out[static_cast<std::size_t>(w)] = p;
    }
  });
  blocks.clear();
  parallel_for(num_first, [&](std::size_t a) {
    // Buckets mostly hold a few pairs: insertion sort for those.
    if (start[a + 1] - start[a] > 16) {
      std::sort(out.begin() + start[a], out.begin() + start[a + 1]);
      return;
    }
    for (int k = start[a] + 1; k < start[a + 1]; ++k)
      for (int m = k; m > start[a] && out[static_cast<std::size_t>(m)] < out[static_cast<std::size_t>(m) - 1]; --m)
        std::swap(out[static_cast<std::size_t>(m)], out[static_cast<std::size_t>(m) - 1]);
  });
  return out;
}

ScratchVector<CodedIndex> morton_order(const LinearBvh& bvh, std::span<const Aabb> queries) {
  ScratchVector<CodedIndex> order(queries.size());
  parallel_for(queries.size(), [&](std::size_t i) {
    double c[3];
    for (int d = 0; d < 3; ++d) c[d] = 0.5 * (queries[i].lo[d] + queries[i].hi[d]);
    order[i] = {bvh.code(c), static_cast<int>(i)};
  });
  sort_by_code(order);
  return order;
}

PairList linear_bvh_pairs(std::span<const Aabb> queries, std::span<const Aabb> targets,
                          bool self, const PairExclusion& excluded) {
  if (!excluded) return linear_bvh_pairs_excluding(queries, targets, self, [](int, int) { return false; });
  return linear_bvh_pairs_excluding(queries, targets, self, [&](int a, int b) { return excluded(a, b); });
}

}  // namespace softsim
