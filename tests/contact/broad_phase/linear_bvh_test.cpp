// The linear BVH's structure (every leaf once, every box containing its subtree's boxes, ranges
// that match the tree) and its queries (exactly the overlapping boxes) on random, clustered and
// degenerate box sets, including duplicate Morton codes, NaN boxes and huge coordinates.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <set>

#include "softsim/contact/broad_phase/box_pairs.hpp"
#include "softsim/contact/broad_phase/linear_bvh.hpp"
#include "softsim/contact/broad_phase/morton.hpp"

namespace softsim::test {
namespace {

Aabb box_at(double x, double y, double z, double r) {
  Aabb b;
  const double c[3] = {x, y, z};
  for (int d = 0; d < 3; ++d) {
    b.lo[d] = c[d] - r;
    b.hi[d] = c[d] + r;
  }
  return b;
}

bool contains(const FloatAabb& outer, const Aabb& inner) {
  for (int d = 0; d < 3; ++d)
    if (!(outer.lo[d] <= inner.lo[d] && inner.hi[d] <= outer.hi[d])) return false;
  return true;
}

bool contains(const LeafCluster& cluster, int slot, const Aabb& inner) {
  for (int d = 0; d < 3; ++d)
    if (!(cluster.lo[d][slot] <= inner.lo[d] && inner.hi[d] <= cluster.hi[d][slot])) return false;
  return true;
}

bool has_nan(const Aabb& b) {
  return std::isnan(b.lo[0]) || std::isnan(b.hi[0]) || std::isnan(b.lo[1]) || std::isnan(b.hi[1]) ||
         std::isnan(b.lo[2]) || std::isnan(b.hi[2]);
}

// The sorted positions of cluster c, checking that its float boxes contain their exact boxes
// and that its empty slots overlap nothing.
std::vector<int> check_cluster(const LinearBvh& bvh, int c) {
  std::vector<int> leaves;
  const LeafCluster& cluster = bvh.clusters[static_cast<std::size_t>(c)];
  for (int j = 0; j < kLeafSize; ++j) {
    const int s = c * kLeafSize + j;
    if (s < static_cast<int>(bvh.size())) {
      leaves.push_back(s);
      if (!has_nan(bvh.leaf_boxes[static_cast<std::size_t>(s)])) {
        EXPECT_TRUE(contains(cluster, j, bvh.leaf_boxes[static_cast<std::size_t>(s)])) << "cluster " << c << " slot " << j;
      }
    } else {
      EXPECT_GT(cluster.lo[0][j], cluster.hi[0][j]) << "empty slot " << j;
    }
  }
  return leaves;
}

// Walks the tree from the root: returns the sorted positions under `node`, checking that each
// child box held by a node contains the exact boxes of that child's leaves and that the left
// child's leaves end just before the right child's first (what the self query's pruning relies on).
std::vector<int> check_subtree(const LinearBvh& bvh, int node) {
  std::vector<int> leaves;
  const LinearBvhNode& n = bvh.inner[static_cast<std::size_t>(node)];
  for (int side = 0; side < 2; ++side) {
    const int child = side == 0 ? n.left : n.right;
    const std::vector<int> sub = child < 0 ? check_cluster(bvh, ~child) : check_subtree(bvh, child);
    for (int s : sub) {
      const Aabb& b = bvh.leaf_boxes[static_cast<std::size_t>(s)];
      if (!has_nan(b)) {
        EXPECT_TRUE(contains(side == 0 ? n.left_box : n.right_box, b)) << "node " << node << " leaf " << s;
        EXPECT_TRUE(contains(bvh.root_box, b)) << "root, leaf " << s;
      }
    }
    leaves.insert(leaves.end(), sub.begin(), sub.end());
    if (side == 0) {
      EXPECT_EQ(leaves.back(), child_position(n.right) * kLeafSize - 1) << "node " << node;
    }
  }
  // Leaves of a radix-tree node are a contiguous range of sorted positions, left to right.
  for (std::size_t k = 1; k < leaves.size(); ++k) EXPECT_EQ(leaves[k], leaves[k - 1] + 1);
  return leaves;
}

void check_tree(const std::vector<Aabb>& boxes) {
  const LinearBvh bvh = build_linear_bvh(boxes);
  ASSERT_EQ(bvh.size(), boxes.size());
  std::vector<int> sorted_order(bvh.order.begin(), bvh.order.end());
  std::sort(sorted_order.begin(), sorted_order.end());
  for (std::size_t i = 0; i < sorted_order.size(); ++i) ASSERT_EQ(sorted_order[i], int(i));
  // Leaves in Morton order of their centres, equal codes in index order.
  for (std::size_t s = 1; s < bvh.size(); ++s) {
    auto key = [&](std::size_t t) {
      const Aabb& b = boxes[static_cast<std::size_t>(bvh.order[t])];
      const double c[3] = {0.5 * (b.lo[0] + b.hi[0]), 0.5 * (b.lo[1] + b.hi[1]), 0.5 * (b.lo[2] + b.hi[2])};
      return std::make_pair(bvh.code(c), bvh.order[t]);
    };
    ASSERT_LT(key(s - 1), key(s)) << "sorted position " << s;
  }
  if (boxes.empty()) return;
  const std::size_t clusters = (boxes.size() + kLeafSize - 1) / kLeafSize;
  ASSERT_EQ(bvh.clusters.size(), clusters);
  ASSERT_EQ(bvh.inner.size(), clusters - 1);
  const std::vector<int> all = clusters == 1 ? check_cluster(bvh, 0) : check_subtree(bvh, 0);
  ASSERT_EQ(all.size(), boxes.size());  // every leaf reached exactly once, in order
  EXPECT_EQ(all.front(), 0);
}

std::vector<int> brute_hits(const std::vector<Aabb>& boxes, const Aabb& q) {
  std::vector<int> out;
  for (std::size_t j = 0; j < boxes.size(); ++j)
    if (overlaps(q, boxes[j])) out.push_back(int(j));
  return out;
}

std::vector<int> bvh_hits(const LinearBvh& bvh, const Aabb& q) {
  std::vector<int> out;
  linear_bvh_query(bvh, q, -1, [&](int j) { out.push_back(j); });
  std::sort(out.begin(), out.end());
  return out;
}

// The largest float <= v, found by stepping from the nearest float: the reference for the
// loose rounding below.
static float largest_float_not_above(double v) {
  float f = static_cast<float>(v);
  if (f == std::numeric_limits<float>::infinity() && v > static_cast<double>(std::numeric_limits<float>::max()))
    return std::numeric_limits<float>::max();
  while (static_cast<double>(f) > v) f = std::nextafter(f, -std::numeric_limits<float>::infinity());
  return f;
}

// The inner boxes' outward rounding: down_loose(v) is a float <= v and at most three floats
// below the largest one (up_loose the same upwards), on random doubles of every magnitude,
// exact floats, zeros, tiny values, values beyond the float range and infinities.
TEST(FloatRounding, DownIsAFloatNotAboveTheValueAndAtMostThreeFloatsBelowTheBest) {
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-160, 140);
  const double inf = std::numeric_limits<double>::infinity();
  const float finf = std::numeric_limits<float>::infinity();
  std::vector<double> values{0.0, -0.0, 1.0, -1.0, 1e-45, -1e-45, 1e-300, -1e-300, 3.5e38, -3.5e38, 1e300, -1e300,
                             static_cast<double>(std::numeric_limits<float>::max()),
                             static_cast<double>(std::numeric_limits<float>::denorm_min()), inf, -inf};
  for (int i = 0; i < 20000; ++i) values.push_back(std::ldexp(mantissa(rng), exponent(rng)));
  int exact = 0;
  for (double v : values) {
    const float d = float_rounding::down_loose(v), u = float_rounding::up_loose(v);
    EXPECT_LE(static_cast<double>(d), v) << v;
    EXPECT_GE(static_cast<double>(u), v) << v;
    const float best_down = largest_float_not_above(v), best_up = -largest_float_not_above(-v);
    float d3 = best_down, u3 = best_up;
    for (int k = 0; k < 3; ++k) {
      d3 = std::nextafter(d3, -finf);
      u3 = std::nextafter(u3, finf);
    }
    EXPECT_GE(d, d3) << v;
    EXPECT_LE(u, u3) << v;
    exact += d == best_down;
  }
  // The margin is what makes the rounding safe, so the tightest float is rarely the answer.
  EXPECT_LT(exact, static_cast<int>(values.size()) / 2);
}

// A box with a NaN coordinate rounds to an empty box; others to a box containing them.
TEST(FloatRounding, OutwardBoxContainsTheBoxOrIsEmptyForNaN) {
  Aabb box;
  for (int d = 0; d < 3; ++d) {
    box.lo[d] = 0.1 * (d + 1);
    box.hi[d] = 0.3 * (d + 1);
  }
  FloatAabb f = outward_float_box(box);
  for (int d = 0; d < 3; ++d) {
    EXPECT_LE(static_cast<double>(f.lo[d]), box.lo[d]);
    EXPECT_GE(static_cast<double>(f.hi[d]), box.hi[d]);
  }
  box.hi[1] = std::nan("");
  f = outward_float_box(box);
  for (int d = 0; d < 3; ++d) EXPECT_GT(f.lo[d], f.hi[d]);
}

TEST(MortonCode, InterleavesBitsAndOrdersAlongTheCurve) {
  EXPECT_EQ(spread_bits_3(0b1011), std::uint64_t(0b1000001001));
  EXPECT_EQ(morton_code_3d(0.0, 0.0, 0.0), 0u);
  EXPECT_EQ(morton_code_3d(1.0, 1.0, 1.0), (std::uint64_t(1) << 63) - 1);
  // x is the most significant of the three interleaved bits.
  EXPECT_GT(morton_code_3d(0.6, 0.0, 0.0), morton_code_3d(0.4, 1.0, 1.0));
  EXPECT_EQ(morton_code_3d(-5.0, 7.0, std::nan("")), morton_code_3d(0.0, 1.0, 0.0));  // clamped
}

TEST(LinearBvh, TreeInvariantsOnRandomClusteredAndDegenerateSets) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int n : {1, 2, 3, 7, 64, 1000, 5000}) {
    std::vector<Aabb> boxes;
    for (int i = 0; i < n; ++i) boxes.push_back(box_at(u(rng), u(rng), u(rng), 0.01 + 0.05 * std::abs(u(rng))));
    check_tree(boxes);
  }
  // Clusters and exact duplicates: many equal Morton codes.
  std::vector<Aabb> dup;
  for (int i = 0; i < 500; ++i) dup.push_back(box_at(i % 3, 0.0, 1e-12 * (i % 5), 0.1));
  check_tree(dup);
  // Enough leaves for the code sort to count and scatter several chunks in parallel, with
  // equal codes spread across the chunks (their index order must survive every pass).
  std::vector<Aabb> many;
  for (int i = 0; i < 40000; ++i)
    many.push_back(i % 4 == 0 ? box_at(0.25 * (i % 7), 0.5, 0.0, 0.01) : box_at(u(rng), u(rng), u(rng), 0.01));
  check_tree(many);
  // All centres equal (zero-width frame), flat 2D boxes, a NaN box, huge coordinates.
  std::vector<Aabb> odd(300, box_at(0.5, 0.5, 0.0, 0.0));
  for (int i = 0; i < 100; ++i) odd.push_back(box_at(u(rng), u(rng), 0.0, 0.02));
  odd[7].lo[1] = std::nan("");
  odd.push_back(box_at(1e300, -1e300, 0.0, 1.0));
  check_tree(odd);
}

TEST(LinearBvh, QueriesReturnExactlyTheOverlappingBoxes) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Aabb> boxes;
  for (int i = 0; i < 3000; ++i) boxes.push_back(box_at(u(rng), u(rng), 0.3 * u(rng), 0.03 * std::abs(u(rng))));
  // Boxes whose bounds round to the same float: the double test must still tell them apart.
  boxes.push_back(box_at(0.1, 0.1, 0.1, 0.0));
  boxes.push_back(box_at(0.1 + 1e-12, 0.1, 0.1, 0.0));
  boxes.push_back(box_at(std::nan(""), 0.0, 0.0, 0.1));
  boxes.push_back(box_at(1e300, 0.0, 0.0, 1.0));
  const LinearBvh bvh = build_linear_bvh(boxes);
  std::size_t total = 0;
  for (int q = 0; q < 500; ++q) {
    const Aabb query = box_at(u(rng), u(rng), 0.3 * u(rng), 0.1 * std::abs(u(rng)));
    const std::vector<int> expected = brute_hits(boxes, query);
    total += expected.size();
    EXPECT_EQ(bvh_hits(bvh, query), expected) << "query " << q;
  }
  EXPECT_GT(total, 1000u);  // the queries do hit something
  // Touching boxes overlap (closed intervals), a point between two float neighbours does not.
  EXPECT_EQ(bvh_hits(bvh, box_at(0.1 + 1e-12, 0.1, 0.1, 0.0)), brute_hits(boxes, box_at(0.1 + 1e-12, 0.1, 0.1, 0.0)));
  const std::vector<int> near = bvh_hits(bvh, box_at(0.1 + 1e-12, 0.1, 0.1, 0.0));
  EXPECT_TRUE(std::count(near.begin(), near.end(), 3001) == 1 && std::count(near.begin(), near.end(), 3000) == 0);
  EXPECT_EQ(bvh_hits(bvh, box_at(1e300, 0.0, 0.0, 2.0)).size(), 1u);
}

// Four queries walking the tree together find, lane by lane, what each finds alone, with any
// number of lanes in use and any lower bounds on the sorted positions.
TEST(LinearBvh, BatchOfFourFindsWhatEachQueryFindsAlone) {
  std::mt19937 rng(21);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Aabb> boxes;
  for (int i = 0; i < 2000; ++i) boxes.push_back(box_at(u(rng), u(rng), 0.2 * u(rng), 0.04 * std::abs(u(rng))));
  const LinearBvh bvh = build_linear_bvh(boxes);
  std::uniform_int_distribution<int> pos(-1, 1999);
  std::size_t total = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int count = 1 + trial % 4;
    std::array<Aabb, 4> q;
    std::array<const Aabb*, 4> qp{};
    std::array<FloatAabb, 4> fq{};
    std::array<int, 4> after{};
    for (int k = 0; k < count; ++k) {
      q[k] = box_at(u(rng), u(rng), 0.2 * u(rng), 0.1 * std::abs(u(rng)));
      qp[k] = &q[k];
      fq[k] = outward_float_box(q[k]);
      after[k] = trial % 3 ? pos(rng) : -1;
    }
    std::array<std::vector<int>, 4> batch_hits;
    linear_bvh_query_batch(bvh, QueryBatch(qp, fq, count), after, [&](int k, int j) { batch_hits[k].push_back(j); });
    for (int k = 0; k < count; ++k) {
      std::vector<int> alone;
      linear_bvh_query(bvh, q[k], after[k], [&](int j) { alone.push_back(j); });
      std::sort(alone.begin(), alone.end());
      std::sort(batch_hits[k].begin(), batch_hits[k].end());
      EXPECT_EQ(batch_hits[k], alone) << "trial " << trial << " lane " << k;
      total += alone.size();
    }
  }
  EXPECT_GT(total, 1000u);
}

// Single and batched queries against the brute-force answer (overlap, and a sorted position
// past `after`) on trees of one to a few leaf clusters, where the root is a cluster or has
// clusters with empty slots for children.
TEST(LinearBvh, QueriesWithLowerBoundsOnSmallTrees) {
  std::mt19937 rng(31);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  // Empty, within one leaf cluster, exactly one cluster, two (both children of the root are
  // clusters), and a few clusters with a partial last one.
  for (int n : {0, 1, 2, 3, 4, 5, 8, 9, 13, 16, 17, 31, 32, 33, 50}) {
    std::vector<Aabb> boxes;
    for (int i = 0; i < n; ++i) boxes.push_back(box_at(u(rng), u(rng), u(rng), 0.3));
    const LinearBvh bvh = build_linear_bvh(boxes);
    std::vector<int> position(static_cast<std::size_t>(n));
    for (int s = 0; s < n; ++s) position[static_cast<std::size_t>(bvh.order[static_cast<std::size_t>(s)])] = s;
    for (int trial = 0; trial < 50; ++trial) {
      std::array<Aabb, 4> q;
      std::array<const Aabb*, 4> qp{};
      std::array<FloatAabb, 4> fq{};
      std::array<int, 4> after{};
      for (int k = 0; k < 4; ++k) {
        q[k] = box_at(u(rng), u(rng), u(rng), 0.2);
        qp[k] = &q[k];
        fq[k] = outward_float_box(q[k]);
        after[k] = static_cast<int>(rng() % static_cast<unsigned>(n + 1)) - 1;
      }
      std::array<std::vector<int>, 4> batch_hits;
      linear_bvh_query_batch(bvh, QueryBatch(qp, fq, 4), after, [&](int k, int j) { batch_hits[k].push_back(j); });
      for (int k = 0; k < 4; ++k) {
        std::vector<int> expected, alone;
        for (int j = 0; j < n; ++j)
          if (overlaps(q[k], boxes[static_cast<std::size_t>(j)]) && position[static_cast<std::size_t>(j)] > after[k])
            expected.push_back(j);
        linear_bvh_query(bvh, q[k], after[k], [&](int j) { alone.push_back(j); });
        std::sort(alone.begin(), alone.end());
        std::sort(batch_hits[k].begin(), batch_hits[k].end());
        EXPECT_EQ(alone, expected) << "n " << n << " trial " << trial << " lane " << k;
        EXPECT_EQ(batch_hits[k], expected) << "n " << n << " trial " << trial << " lane " << k;
      }
    }
  }
}

TEST(LinearBvh, SelfPairsOncePerPairAndSortedByFirst) {
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<Aabb> boxes;
  for (int i = 0; i < 2000; ++i) boxes.push_back(box_at(u(rng), u(rng), u(rng), 0.04));
  PairList expected;
  for (int i = 0; i < 2000; ++i)
    for (int j = i + 1; j < 2000; ++j)
      if (overlaps(boxes[i], boxes[j])) expected.push_back({i, j});
  ASSERT_GT(expected.size(), 2000u);
  EXPECT_EQ(linear_bvh_pairs(boxes, boxes, true), expected);
}

TEST(SortPairsByFirst, OrdersAnyBlockLayout) {
  std::vector<PairList> blocks{{{3, 1}, {0, 9}}, {}, {{3, 0}, {1, 2}, {0, 4}}};
  const PairList sorted = sort_pairs_by_first(std::move(blocks), 5);
  EXPECT_EQ(sorted, (PairList{{0, 4}, {0, 9}, {1, 2}, {3, 0}, {3, 1}}));
}

}  // namespace
}  // namespace softsim::test
