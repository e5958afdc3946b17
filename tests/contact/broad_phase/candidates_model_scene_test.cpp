// Broad phase on Model-built collision meshes (DOF-vector overloads): two boxes stacked with a
// gap above a static obstacle plane (3D) and two rectangles side by side (2D). Cross-body pairs
// appear only across the gaps; all pairs equal the brute-force set.
#include <gtest/gtest.h>

#include "contact/broad_phase/broad_phase_test_util.hpp"
#include "softsim/mesh/generators.hpp"
#include "softsim/model/model.hpp"

namespace softsim::test {
namespace {

void add_body(Model& model, Mesh mesh, const Eigen::RowVectorXd& shift) {
  mesh.vertices.rowwise() += shift;
  Body b;
  b.first_vertex = model.add_vertices(mesh.vertices);
  b.mesh = mesh;
  b.surface = extract_surface(mesh);
  model.bodies.push_back(std::move(b));
}

TEST(BroadPhaseModel, StackedBoxesOverObstacle) {
  const double gap = 0.01, dhat = 0.02;
  const Mesh box = generate_box(Vec3(1.0, 1.0, 1.0), Eigen::Vector3i(4, 4, 4));
  Model model(3);
  add_body(model, box, Eigen::RowVector3d(0, 0, 0));
  add_body(model, box, Eigen::RowVector3d(0.1, 0.0, 1.0 + gap));
  CollisionMesh cm = build_collision_mesh(model);
  MatX plane(4, 3);
  plane << -2, -2, -0.5 - gap, 2, -2, -0.5 - gap, 2, 2, -0.5 - gap, -2, 2, -0.5 - gap;
  MatXi tris(2, 3);
  tris << 0, 1, 2, 0, 2, 3;
  add_obstacle(cm, plane, tris);
  const VecX& x = model.rest_positions;
  const VertexRows V = cm.positions(x);
  for (BroadPhaseMethod m : {BroadPhaseMethod::SpatialHash, BroadPhaseMethod::BVH}) {
    const Candidates c = proximity_candidates(cm, x, dhat, m);
    EXPECT_EQ(c.vertex_face, reference_pairs(cm, V, nullptr, dhat / 2, 'f'));
    EXPECT_EQ(c.edge_edge, reference_pairs(cm, V, nullptr, dhat / 2, 'x'));
    int between_boxes = 0, on_plane = 0;
    for (const auto& [v, f] : c.vertex_face) {
      const int bv = cm.vertex_body[static_cast<std::size_t>(v)];
      const int bf = cm.face_body[static_cast<std::size_t>(f)];
      if (bv == bf) continue;
      const double z = V(cm.vertices[static_cast<std::size_t>(v)], 2);
      if (bv == 2 || bf == 2) {
        ++on_plane;  // body 0's bottom against the plane
        EXPECT_TRUE(std::abs(z + 0.5) < 1e-12 || std::abs(z + 0.5 + gap) < 1e-12) << z;
        EXPECT_TRUE(bv == 0 || bf == 0);
      } else {
        ++between_boxes;
        EXPECT_TRUE(std::abs(z - 0.5) < 1e-12 || std::abs(z - 0.5 - gap) < 1e-12) << z;
      }
    }
    EXPECT_GT(between_boxes, 25);  // both facing 5 x 5 vertex grids see the other face
    EXPECT_GE(on_plane, 25 + 2);   // box bottom vertices over the plane, plane corners no
  }
  // Moving the top box away by 2 dhat removes every pair between the boxes.
  VecX far = x;
  for (int i = box.num_vertices(); i < model.num_vertices(); ++i) far(3 * i + 2) += 2 * dhat;
  const Candidates c = proximity_candidates(cm, far, dhat, BroadPhaseMethod::SpatialHash);
  for (const auto& [v, f] : c.vertex_face) {
    const int bv = cm.vertex_body[static_cast<std::size_t>(v)];
    const int bf = cm.face_body[static_cast<std::size_t>(f)];
    EXPECT_FALSE((bv == 0 && bf == 1) || (bv == 1 && bf == 0));
  }
}

TEST(BroadPhaseModel, RectanglesSideBySideIn2D) {
  const double gap = 0.005, dhat = 0.01;
  const Mesh rect = generate_rectangle(Vec2(1.0, 1.0), Eigen::Vector2i(5, 5));
  Model model(2);
  add_body(model, rect, Eigen::RowVector2d(0, 0));
  add_body(model, rect, Eigen::RowVector2d(1.0 + gap, 0.3));
  const CollisionMesh cm = build_collision_mesh(model);
  const VertexRows V = cm.positions(model.rest_positions);
  for (BroadPhaseMethod m : {BroadPhaseMethod::SpatialHash, BroadPhaseMethod::BVH}) {
    const Candidates c = proximity_candidates(cm, model.rest_positions, dhat, m);
    EXPECT_EQ(c.vertex_edge, reference_pairs(cm, V, nullptr, dhat / 2, 'e'));
    int cross = 0;
    for (const auto& [v, e] : c.vertex_edge)
      if (cm.vertex_body[static_cast<std::size_t>(v)] != cm.edge_body[static_cast<std::size_t>(e)]) {
        ++cross;
        const double xv = V(cm.vertices[static_cast<std::size_t>(v)], 0);
        EXPECT_TRUE(std::abs(xv - 0.5) < 1e-12 || std::abs(xv - 0.5 - gap) < 1e-12) << xv;
      }
    EXPECT_GE(cross, 8);
  }
}

}  // namespace
}  // namespace softsim::test
