#include "softsim/contact/broad_phase/bvh.hpp"

#include <tbb/parallel_invoke.h>

#include <algorithm>
#include <numeric>

#include "softsim/contact/broad_phase/box_pairs.hpp"

namespace softsim {
namespace {

constexpr int kParallelBuildSize = 4096;  // smaller subtrees are built serially

struct Builder {
  std::span<const Aabb> boxes;
  std::vector<double> centroids;  // 3 per primitive
  std::vector<int> order;
  std::vector<BvhNode>& nodes;

  // Builds the subtree over order[begin, end) rooted at `node`.
  void build(int node, int begin, int end) {
    BvhNode& n = nodes[static_cast<std::size_t>(node)];
    const int count = end - begin;
    if (count == 1) {
      n.primitive = order[static_cast<std::size_t>(begin)];
      n.box = boxes[static_cast<std::size_t>(n.primitive)];
      return;
    }
    double lo[3], hi[3];
    for (int d = 0; d < 3; ++d) lo[d] = hi[d] = centroids[3 * static_cast<std::size_t>(order[static_cast<std::size_t>(begin)]) + d];
    for (int i = begin + 1; i < end; ++i)
      for (int d = 0; d < 3; ++d) {
        const double c = centroids[3 * static_cast<std::size_t>(order[static_cast<std::size_t>(i)]) + d];
        lo[d] = std::min(lo[d], c);
        hi[d] = std::max(hi[d], c);
      }
    int axis = 0;
    for (int d = 1; d < 3; ++d)
      if (hi[d] - lo[d] > hi[axis] - lo[axis]) axis = d;
    const int half = count / 2;
    const int mid = begin + half;
    // Median split; ties broken by primitive index so that the halves are unique.
    std::nth_element(order.begin() + begin, order.begin() + mid, order.begin() + end,
                     [&](int a, int b) {
                       const double ca = centroids[3 * static_cast<std::size_t>(a) + axis];
                       const double cb = centroids[3 * static_cast<std::size_t>(b) + axis];
                       return ca < cb || (ca == cb && a < b);
                     });
    const int left = node + 1, right = node + 2 * half;
    n.right = right;
    if (count >= kParallelBuildSize)
      tbb::parallel_invoke([&] { build(left, begin, mid); }, [&] { build(right, mid, end); });
    else {
      build(left, begin, mid);
      build(right, mid, end);
    }
    BvhNode& m = nodes[static_cast<std::size_t>(node)];
    m.box = nodes[static_cast<std::size_t>(left)].box;
    expand(m.box, nodes[static_cast<std::size_t>(right)].box);
  }
};

}  // namespace

Bvh build_bvh(std::span<const Aabb> boxes) {
  Bvh bvh;
  const int n = static_cast<int>(boxes.size());
  if (n == 0) return bvh;
  bvh.nodes.resize(2 * static_cast<std::size_t>(n) - 1);
  Builder b{boxes, std::vector<double>(3 * boxes.size()), std::vector<int>(boxes.size()), bvh.nodes};
  for (std::size_t i = 0; i < boxes.size(); ++i)
    for (int d = 0; d < 3; ++d) b.centroids[3 * i + d] = 0.5 * (boxes[i].lo[d] + boxes[i].hi[d]);
  std::iota(b.order.begin(), b.order.end(), 0);
  b.build(0, 0, n);
  return bvh;
}

void bvh_query(const Bvh& bvh, const Aabb& query, std::vector<int>& hits) {
  if (bvh.nodes.empty()) return;
  // Explicit stack: depth of a median-split tree is ceil(log2 n) + 1 < 64.
  int stack[64];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const BvhNode& n = bvh.nodes[static_cast<std::size_t>(stack[--top])];
    if (!overlaps(n.box, query)) continue;
    if (n.right < 0) {
      hits.push_back(n.primitive);
    } else {
      stack[top++] = n.right;
      stack[top++] = static_cast<int>(&n - bvh.nodes.data()) + 1;
    }
  }
}

PairList bvh_pairs(std::span<const Aabb> queries, std::span<const Aabb> targets,
                   bool self, const PairExclusion& excluded) {
  if (queries.empty() || targets.empty()) return {};
  const Bvh bvh = build_bvh(targets);
  return collect_pairs(queries.size(), excluded, [&](int i, std::vector<int>& hits) {
    const std::size_t before = hits.size();
    bvh_query(bvh, queries[static_cast<std::size_t>(i)], hits);
    if (self)
      hits.erase(std::remove_if(hits.begin() + static_cast<std::ptrdiff_t>(before), hits.end(),
                                [i](int j) { return j <= i; }),
                 hits.end());
  });
}

}  // namespace softsim
