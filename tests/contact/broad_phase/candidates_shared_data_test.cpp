// Scalable-CCD cloth-funnel step 227 (shared/data/README.md): a swept vertex-face broad phase
// between frames 227 and 228 must report every pair of boxes/227vf.json ([v, id], face =
// id - nV - nE with nE the unique undirected edges).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <set>

#include "softsim/contact/broad_phase/candidates.hpp"
#include "softsim/io/read_mesh.hpp"
#include "softsim/mesh/surface.hpp"
#include "support/data_dir.hpp"

namespace softsim::test {
namespace {

TEST(BroadPhaseSharedData, ClothFunnelReportsEveryReferenceVertexFacePair) {
  SOFTSIM_REQUIRE_SHARED_DATA();
  const auto dir = shared_data_dir() / "ccd" / "scalable-ccd-sample" / "cloth-funnel";
  const Mesh m0 = read_mesh(dir / "frames" / "227.ply");
  const Mesh m1 = read_mesh(dir / "frames" / "228.ply");
  ASSERT_EQ(m0.num_vertices(), 9450);
  ASSERT_EQ(m0.num_cells(), 18484);
  ASSERT_EQ(m1.cells, m0.cells);
  const CollisionMesh cm = build_collision_mesh(3, m0.num_vertices(), MatXi(0, 2), m0.cells);
  const int nV = m0.num_vertices(), nE = cm.num_edges();
  ASSERT_EQ(nE, 27930);
  ASSERT_EQ(cm.num_vertices(), nV);  // every vertex is on a triangle: index = global id

  std::ifstream in(dir / "boxes" / "227vf.json");
  ASSERT_TRUE(in.good());
  const nlohmann::json boxes = nlohmann::json::parse(in);
  ASSERT_EQ(boxes.size(), 92u);

  const VertexRows V0 = m0.vertices, V1 = m1.vertices;
  std::vector<Candidates> results;
  for (BroadPhaseMethod m : {BroadPhaseMethod::SpatialHash, BroadPhaseMethod::BVH}) {
    const Candidates c = ccd_candidates(cm, V0, V1, 0.0, m);
    const std::set<std::array<int, 2>> found(c.vertex_face.begin(), c.vertex_face.end());
    int missing = 0;
    for (const auto& q : boxes) {
      const int v = q[0].get<int>(), f = q[1].get<int>() - nV - nE;
      ASSERT_GE(f, 0);
      ASSERT_LT(f, cm.num_faces());
      if (!found.count({v, f})) ++missing;
    }
    EXPECT_EQ(missing, 0) << (m == BroadPhaseMethod::BVH ? "bvh" : "hash");
    std::cout << "[ cloth-funnel ] " << (m == BroadPhaseMethod::BVH ? "BVH" : "spatial hash")
              << ": " << c.vertex_face.size() << " vertex-face and " << c.edge_edge.size()
              << " edge-edge candidates; all " << boxes.size() << " reference pairs found\n";
    results.push_back(c);
  }
  EXPECT_EQ(results[0].vertex_face, results[1].vertex_face);
  EXPECT_EQ(results[0].edge_edge, results[1].edge_edge);
}

}  // namespace
}  // namespace softsim::test
