// Candidate lists are identical for 1 and 2 threads and between the methods.
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <random>

#include "softsim/contact/broad_phase/candidates.hpp"
#include "softsim/mesh/generators.hpp"
#include "softsim/mesh/surface.hpp"

namespace softsim::test {
namespace {

Candidates run(const CollisionMesh& cm, const VertexRows& V0, const VertexRows& V1,
               BroadPhaseMethod m, int threads, bool swept) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
  return swept ? ccd_candidates(cm, V0, V1, 1e-3, m) : proximity_candidates(cm, V1, 0.02, m);
}

TEST(BroadPhaseDeterminism, OneVersusTwoThreadsAndAllMethods) {
  const Mesh box = generate_box(Vec3(1.0, 1.0, 1.0), Eigen::Vector3i(14, 14, 14));
  const Surface s = extract_surface(box);
  const CollisionMesh cm = build_collision_mesh(3, box.num_vertices(), s.edges, s.faces);
  VertexRows V0 = box.vertices;
  VertexRows V1 = V0;
  std::mt19937 rng(3);
  std::normal_distribution<double> g(0.0, 0.03);
  for (Eigen::Index i = 0; i < V1.size(); ++i) V1.data()[i] += g(rng);
  for (bool swept : {false, true}) {
    const Candidates ref = run(cm, V0, V1, BroadPhaseMethod::SpatialHash, 1, swept);
    ASSERT_GT(ref.vertex_face.size(), 1000u);  // more than one block of queries
    ASSERT_GT(ref.edge_edge.size(), 1000u);
    EXPECT_TRUE(std::is_sorted(ref.vertex_face.begin(), ref.vertex_face.end()));
    EXPECT_TRUE(std::is_sorted(ref.edge_edge.begin(), ref.edge_edge.end()));
    for (BroadPhaseMethod m : {BroadPhaseMethod::SpatialHash, BroadPhaseMethod::BVH, BroadPhaseMethod::LinearBVH})
      for (int threads : {1, 2}) {
        const Candidates c = run(cm, V0, V1, m, threads, swept);
        EXPECT_EQ(c.vertex_face, ref.vertex_face) << int(m) << " " << threads << " " << swept;
        EXPECT_EQ(c.edge_edge, ref.edge_edge) << int(m) << " " << threads << " " << swept;
      }
  }
}

}  // namespace
}  // namespace softsim::test
