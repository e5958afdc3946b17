// Both broad phase methods return exactly the brute-force pair set on random scenes (2D and
// 3D, proximity and swept), without adjacent (excluded) pairs.
#include <gtest/gtest.h>

#include <atomic>

#include "contact/broad_phase/broad_phase_test_util.hpp"

namespace softsim::test {
namespace {

const BroadPhaseMethod kMethods[] = {BroadPhaseMethod::Auto, BroadPhaseMethod::SpatialHash,
                                     BroadPhaseMethod::BVH, BroadPhaseMethod::LinearBVH,
                                     BroadPhaseMethod::BruteForce};

const char* name(BroadPhaseMethod m) { return name_of(m); }

// 3D: a random triangle soup with shared vertices, rod edges, isolated points and a static
// obstacle (two large triangles).
CollisionMesh scene3d(int seed, VertexRows& V0, VertexRows& V1) {
  std::mt19937 rng(static_cast<unsigned>(seed));
  const int n = 150;
  const VertexRows W = random_walk(n, 3, 0.08, rng);
  const MatXi F = random_simplices(n - 20, 160, 3, rng);
  MatXi E = unique_edges(F);
  MatXi rods = random_simplices(n, 20, 2, rng);  // extra rod edges (may duplicate: fine)
  MatXi all_e(E.rows() + rods.rows(), 2);
  all_e << E, rods;
  for (int i = 0; i < all_e.rows(); ++i)
    if (all_e(i, 0) > all_e(i, 1)) std::swap(all_e(i, 0), all_e(i, 1));
  CollisionMesh cm = build_collision_mesh(3, n, all_e, F, {n - 1, n - 2});
  MatX obs(4, 3);
  obs << -1, -1, 0.1, 1, -1, 0.1, 1, 1, 0.1, -1, 1, 0.1;
  MatXi ot(2, 3);
  ot << 0, 1, 2, 0, 2, 3;
  add_obstacle(cm, obs, ot);
  V0 = VertexRows(cm.num_total_vertices(), 3);
  V0.topRows(n) = W;
  V0.bottomRows(4) = obs;
  V1 = V0;
  std::normal_distribution<double> g(0.0, 0.05);
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) V1(i, d) += g(rng);
  return cm;
}

CollisionMesh scene2d(int seed, VertexRows& V0, VertexRows& V1) {
  std::mt19937 rng(static_cast<unsigned>(seed));
  const int n = 300;
  const VertexRows W = random_walk(n, 2, 0.05, rng);
  MatXi E = random_simplices(n, 260, 2, rng);
  CollisionMesh cm = build_collision_mesh(2, n, E, MatXi(0, 3), {0, 7});
  MatX obs(3, 2);
  obs << -1, 0.05, 0, -0.02, 1, 0.05;
  MatXi oe(2, 2);
  oe << 0, 1, 1, 2;
  add_obstacle(cm, obs, oe);
  V0 = VertexRows(cm.num_total_vertices(), 2);
  V0.topRows(n) = W;
  V0.bottomRows(3) = obs;
  V1 = V0;
  std::normal_distribution<double> g(0.0, 0.03);
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < 2; ++d) V1(i, d) += g(rng);
  return cm;
}

TEST(BroadPhaseRandom, ThreeDimensionalMatchesBruteForce) {
  for (int seed = 0; seed < 6; ++seed) {
    VertexRows V0, V1;
    const CollisionMesh cm = scene3d(seed, V0, V1);
    for (int swept = 0; swept < 2; ++swept) {
      const double r = swept ? 0.01 : 0.02;  // box growth (= dhat / 2 or margin / 2)
      const VertexRows* V1p = swept ? &V1 : nullptr;
      const PairVec vf = reference_pairs(cm, V0, V1p, r, 'f');
      const PairVec ee = reference_pairs(cm, V0, V1p, r, 'x');
      // The scene must exercise the exclusions: adjacent pairs overlap and are dropped.
      ASSERT_GT(reference_pairs(cm, V0, V1p, r, 'f', true).size(), vf.size() + 100);
      ASSERT_GT(reference_pairs(cm, V0, V1p, r, 'x', true).size(), ee.size() + 100);
      ASSERT_GT(vf.size(), 50u);
      ASSERT_GT(ee.size(), 50u);
      for (BroadPhaseMethod m : kMethods) {
        const Candidates c = swept ? ccd_candidates(cm, V0, V1, 2 * r, m)
                                   : proximity_candidates(cm, V0, 2 * r, m);
        EXPECT_EQ(c.vertex_face, vf) << name(m) << " seed " << seed << " swept " << swept;
        EXPECT_EQ(c.edge_edge, ee) << name(m) << " seed " << seed << " swept " << swept;
        EXPECT_TRUE(c.vertex_edge.empty());
      }
    }
  }
}

TEST(BroadPhaseRandom, TwoDimensionalMatchesBruteForce) {
  for (int seed = 0; seed < 6; ++seed) {
    VertexRows V0, V1;
    const CollisionMesh cm = scene2d(seed, V0, V1);
    for (int swept = 0; swept < 2; ++swept) {
      const double r = swept ? 0.005 : 0.01;
      const VertexRows* V1p = swept ? &V1 : nullptr;
      const PairVec ve = reference_pairs(cm, V0, V1p, r, 'e');
      ASSERT_GT(reference_pairs(cm, V0, V1p, r, 'e', true).size(), ve.size() + 100);
      ASSERT_GT(ve.size(), 50u);
      for (BroadPhaseMethod m : kMethods) {
        const Candidates c = swept ? ccd_candidates(cm, V0, V1, 2 * r, m)
                                   : proximity_candidates(cm, V0, 2 * r, m);
        EXPECT_EQ(c.vertex_edge, ve) << name(m) << " seed " << seed << " swept " << swept;
        EXPECT_TRUE(c.vertex_face.empty() && c.edge_edge.empty());
      }
    }
  }
}

// A filter tested where the pairs are found keeps exactly the pairs of the full candidate lists
// that pass it, in the same order, with every method, in 3D and 2D; each pair reaches the
// filter once, with its kind and indices as the lists give them.
TEST(BroadPhaseRandom, FilteredCandidatesAreTheCandidatesThatPassTheFilter) {
  for (int dim : {3, 2}) {
    VertexRows V0, V1;
    const CollisionMesh cm = dim == 3 ? scene3d(4, V0, V1) : scene2d(4, V0, V1);
    const double dhat = dim == 3 ? 0.04 : 0.02;
    // Any pure function of the pair: here a hash of its kind and indices, keeping about a third.
    auto keep = [](PairKind kind, int i, int j) { return (7 * i + 13 * j + 5 * int(kind)) % 3 == 0; };
    for (BroadPhaseMethod m : kMethods) {
      const Candidates all = proximity_candidates(cm, V0, dhat, m);
      Candidates expected;
      for (const auto& p : all.vertex_face)
        if (keep(PairKind::vertex_face, p[0], p[1])) expected.vertex_face.push_back(p);
      for (const auto& p : all.edge_edge)
        if (keep(PairKind::edge_edge, p[0], p[1])) expected.edge_edge.push_back(p);
      for (const auto& p : all.vertex_edge)
        if (keep(PairKind::vertex_edge, p[0], p[1])) expected.vertex_edge.push_back(p);
      std::atomic<int> calls{0};
      const Candidates kept = proximity_candidates_where(cm, V0, dhat, m, [&](PairKind kind, int i, int j) {
        ++calls;
        return keep(kind, i, j);
      });
      EXPECT_EQ(kept.vertex_face, expected.vertex_face) << name(m) << " " << dim << "D";
      EXPECT_EQ(kept.edge_edge, expected.edge_edge) << name(m) << " " << dim << "D";
      EXPECT_EQ(kept.vertex_edge, expected.vertex_edge) << name(m) << " " << dim << "D";
      EXPECT_EQ(static_cast<std::size_t>(calls.load()), all.size()) << name(m) << " " << dim << "D";
      EXPECT_GT(expected.size(), 20u);
      EXPECT_LT(expected.size(), all.size());
    }
  }
}

// `auto` tests every pair for small sets and builds the linear BVH for large ones; a named
// method is kept whatever the sizes.
TEST(BroadPhaseAuto, ChoosesBySetSizes) {
  EXPECT_EQ(resolve_broad_phase(BroadPhaseMethod::Auto, 300, 300), BroadPhaseMethod::BruteForce);
  EXPECT_EQ(resolve_broad_phase(BroadPhaseMethod::Auto, 1000, 2000), BroadPhaseMethod::LinearBVH);
  EXPECT_EQ(resolve_broad_phase(BroadPhaseMethod::Auto, 0, 1 << 30), BroadPhaseMethod::BruteForce);
  EXPECT_EQ(resolve_broad_phase(BroadPhaseMethod::SpatialHash, 10, 10), BroadPhaseMethod::SpatialHash);
  EXPECT_EQ(resolve_broad_phase(BroadPhaseMethod::BruteForce, 1 << 20, 1 << 20), BroadPhaseMethod::BruteForce);
}

// Degenerate inputs: all points coincide (zero-size boxes, zero cell size), empty sets.
TEST(BroadPhaseRandom, DegenerateScenes) {
  MatXi F(2, 3);
  F << 0, 1, 2, 3, 4, 5;
  const CollisionMesh cm = build_collision_mesh(3, 7, MatXi(0, 2), F, {6});
  const VertexRows V = VertexRows::Zero(7, 3);
  for (BroadPhaseMethod m : kMethods) {
    const Candidates c = proximity_candidates(cm, V, 0.0, m);
    EXPECT_EQ(c.vertex_face, reference_pairs(cm, V, nullptr, 0.0, 'f')) << name(m);
    EXPECT_EQ(c.edge_edge, reference_pairs(cm, V, nullptr, 0.0, 'x')) << name(m);
    EXPECT_EQ(c.vertex_face.size(), 3u * 2u + 1u * 2u);  // 3 + 3 off-face vertices + point
  }
  const CollisionMesh none = build_collision_mesh(3, 0, MatXi(0, 2), MatXi(0, 3));
  for (BroadPhaseMethod m : kMethods)
    EXPECT_EQ(proximity_candidates(none, VertexRows(0, 3), 0.1, m).size(), 0u);
}

}  // namespace
}  // namespace softsim::test
