#pragma once
// Bounding volume hierarchy (Li & Jiang 2025, §24.2, "Bounding Volume Hierarchies (BVH)"): a binary tree of
// boxes built top-down, splitting the primitives at the median of their box centroids along the
// axis where the centroids spread most. One primitive per leaf, so a subtree over m primitives
// has exactly 2m - 1 nodes: a node's children sit at fixed indices (left = node + 1, right =
// node + 2 m_left) and both halves are built in parallel into a flat array (no pointers).
#include <span>
#include <vector>

#include "softsim/contact/broad_phase/aabb.hpp"

namespace softsim {

struct BvhNode {
  Aabb box{};
  int right = -1;      // inner node: index of the right child (the left one is this + 1)
  int primitive = -1;  // leaf: the primitive's index (right == -1)
};

struct Bvh {
  std::vector<BvhNode> nodes;  // nodes[0] is the root (empty tree: no nodes)
};

Bvh build_bvh(std::span<const Aabb> boxes);

// Appends to `hits` every primitive whose box overlaps `query` (traversal order).
void bvh_query(const Bvh& bvh, const Aabb& query, std::vector<int>& hits);

}  // namespace softsim
