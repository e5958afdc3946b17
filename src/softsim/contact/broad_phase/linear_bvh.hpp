#pragma once
// Linear BVH (Karras 2012): primitives sorted by the Morton code of their box centres, the
// binary radix tree over the sorted codes built with every inner node computed independently
// (Karras 2012, §4, Fig. 4), then the boxes merged bottom-up (Karras 2012, §4, "Bounding
// box calculation"); all three steps are data-parallel, so the build is O(n) work after the
// sort. Inner boxes are single precision, rounded outwards (twice as many per cache line, still
// conservative); leaves keep the exact double boxes, so reported pairs are exactly the pairs
// whose double boxes overlap, as with every other method.
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "softsim/contact/broad_phase/aabb.hpp"

namespace softsim {

// Single-precision box containing a double one.
struct FloatAabb {
  float lo[3];
  float hi[3];
};

namespace float_rounding {
// The float neighbour of f towards -inf (f finite): one step of the bit pattern.
inline float below(float f) {
  if (f == 0.0f) return -std::numeric_limits<float>::denorm_min();
  const auto bits = std::bit_cast<std::uint32_t>(f);
  return std::bit_cast<float>(f > 0.0f ? bits - 1 : bits + 1);
}
// The largest float <= v.
inline float down(double v) {
  const float f = static_cast<float>(v);
  if (!(static_cast<double>(f) > v)) return f;
  if (f == std::numeric_limits<float>::infinity()) return std::numeric_limits<float>::max();
  return below(f);
}
inline float up(double v) { return -down(-v); }
}  // namespace float_rounding

inline FloatAabb outward_float_box(const Aabb& box) {
  FloatAabb f;
  for (int d = 0; d < 3; ++d) {
    // A NaN coordinate overlaps nothing in double precision: the empty box says the same.
    if (std::isnan(box.lo[d]) || std::isnan(box.hi[d])) {
      for (int e = 0; e < 3; ++e) {
        f.lo[e] = std::numeric_limits<float>::infinity();
        f.hi[e] = -std::numeric_limits<float>::infinity();
      }
      return f;
    }
    f.lo[d] = float_rounding::down(box.lo[d]);
    f.hi[d] = float_rounding::up(box.hi[d]);
  }
  return f;
}

inline bool overlaps(const FloatAabb& a, const FloatAabb& b) {
  return a.lo[0] <= b.hi[0] && b.lo[0] <= a.hi[0] && a.lo[1] <= b.hi[1] &&
         b.lo[1] <= a.hi[1] && a.lo[2] <= b.hi[2] && b.lo[2] <= a.hi[2];
}

struct LinearBvhNode {  // 32 bytes: two per cache line
  FloatAabb box;
  // Children: >= 0 an inner node, < 0 the leaf at sorted position ~child. The node covers a
  // range of sorted positions [first, last] split at gamma: the left child covers [first,
  // gamma], the right one [gamma + 1, last] and has index gamma + 1 as a leaf or inner node
  // (Karras 2012, §4), so the left child's last leaf is position(right) - 1.
  int left = 0;
  int right = 0;
};
inline int child_position(int child) { return child < 0 ? ~child : child; }

struct LinearBvh {
  std::vector<LinearBvhNode> inner;  // n - 1 inner nodes; inner[0] is the root (n >= 2)
  std::vector<int> order;            // sorted position -> primitive index
  std::vector<Aabb> leaf_boxes;      // exact boxes, in sorted order
  std::vector<FloatAabb> leaf_float_boxes;  // the same rounded outwards (tested first)
  Aabb frame;                        // the box of the centres: the Morton codes' frame

  std::size_t size() const { return order.size(); }
  // Morton code of a point in this tree's frame (points outside are clamped to it).
  std::uint64_t code(const double centre[3]) const;
};

LinearBvh build_linear_bvh(const std::vector<Aabb>& boxes);

// Calls visit(primitive) for every primitive whose box overlaps `query` and whose sorted
// position is greater than `after` (-1: all of them). `float_query` is outward_float_box(query).
template <class Visit>
void linear_bvh_query(const LinearBvh& bvh, const Aabb& query, const FloatAabb& float_query,
                      int after, Visit&& visit) {
  const int n = static_cast<int>(bvh.size());
  if (n == 0 || after >= n - 1) return;
  if (n == 1) {
    if (overlaps(query, bvh.leaf_boxes[0])) visit(bvh.order[0]);
    return;
  }
  if (!overlaps(float_query, bvh.inner[0].box)) return;
  auto leaf_hit = [&](int leaf) {
    const auto s = static_cast<std::size_t>(leaf);
    if (overlaps(float_query, bvh.leaf_float_boxes[s]) && overlaps(query, bvh.leaf_boxes[s]))
      visit(bvh.order[s]);
  };
  // Every node on the stack has leaves after `after`: the root does, a right child has its
  // parent's last leaf, and a left child is entered only if position(right) - 1 > after. A
  // radix tree over distinct keys is at most 64 + 32 levels deep (code bits + index bits).
  int stack[128];
  int top = 0;
  int node = 0;
  while (true) {
    const LinearBvhNode& m = bvh.inner[static_cast<std::size_t>(node)];
    int descend = -1;
    if (child_position(m.right) - 1 > after) {
      if (m.left < 0) {
        if (~m.left > after) leaf_hit(~m.left);
      } else if (overlaps(float_query, bvh.inner[static_cast<std::size_t>(m.left)].box)) {
        descend = m.left;
      }
    }
    if (m.right < 0) {
      leaf_hit(~m.right);
    } else if (overlaps(float_query, bvh.inner[static_cast<std::size_t>(m.right)].box)) {
      if (descend < 0) descend = m.right;
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

}  // namespace softsim
