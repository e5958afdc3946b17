// Collision meshes of generated bodies: primitive counts equal the surfaces', ids are global
// (offset by Body::first_vertex), codimensional pieces and obstacles are included.
#include <gtest/gtest.h>

#include "softsim/contact/broad_phase/candidates.hpp"
#include "softsim/contact/geometry/collision_mesh.hpp"
#include "softsim/mesh/generators.hpp"
#include "softsim/mesh/surface.hpp"
#include "softsim/model/model.hpp"

namespace softsim::test {
namespace {

void add_body(Model& model, const Mesh& mesh) {
  Body b;
  b.first_vertex = model.add_vertices(mesh.vertices);
  b.mesh = mesh;
  b.surface = extract_surface(mesh);
  model.bodies.push_back(std::move(b));
}

TEST(CollisionMesh, BoxesRodAndPointsIn3D) {
  const Mesh box = generate_box(Vec3(1.0, 2.0, 1.0), Eigen::Vector3i(3, 4, 2));
  const Surface s = extract_surface(box);
  Mesh rod;
  rod.vertices = MatX::Zero(4, 3);
  rod.cells.resize(3, 2);
  rod.cells << 0, 1, 1, 2, 2, 3;
  Mesh points;
  points.vertices = MatX::Zero(2, 3);
  points.cells.resize(0, 4);
  Model model(3);
  add_body(model, box);
  add_body(model, box);
  add_body(model, rod);
  add_body(model, points);
  const CollisionMesh cm = build_collision_mesh(model);
  const int nb = box.num_vertices();
  const int sv = static_cast<int>(s.vertices.size());
  ASSERT_EQ(cm.num_faces(), 2 * s.faces.rows());
  ASSERT_EQ(cm.num_edges(), 2 * s.edges.rows() + 3);
  ASSERT_EQ(cm.num_vertices(), 2 * sv + 4 + 2);
  EXPECT_LT(sv, nb);  // interior vertices are not collision vertices
  EXPECT_EQ(s.faces.rows(), 2 * 2 * (3 * 4 + 4 * 2 + 3 * 2));
  // Second box: same primitives shifted by its first vertex.
  EXPECT_EQ(cm.faces.bottomRows(s.faces.rows()), (s.faces.array() + nb).matrix());
  EXPECT_EQ(cm.faces.topRows(s.faces.rows()), s.faces);
  EXPECT_EQ(cm.edges.middleRows(s.edges.rows(), s.edges.rows()), (s.edges.array() + nb).matrix());
  for (int i = 0; i < sv; ++i) {
    EXPECT_EQ(cm.vertices[static_cast<std::size_t>(i)], s.vertices[static_cast<std::size_t>(i)]);
    EXPECT_EQ(cm.vertices[static_cast<std::size_t>(sv + i)], s.vertices[static_cast<std::size_t>(i)] + nb);
    EXPECT_EQ(cm.vertex_body[static_cast<std::size_t>(sv + i)], 1);
  }
  // Rod edges (body 2) and the two isolated points (body 3).
  EXPECT_EQ(cm.edges.row(cm.num_edges() - 1), Eigen::RowVector2i(2 * nb + 2, 2 * nb + 3));
  EXPECT_EQ(cm.edge_body.back(), 2);
  EXPECT_EQ(cm.vertices.back(), 2 * nb + 4 + 1);
  EXPECT_EQ(cm.vertex_body.back(), 3);
  EXPECT_TRUE(std::is_sorted(cm.vertices.begin(), cm.vertices.end()));
  EXPECT_EQ(cm.face_body.size(), static_cast<std::size_t>(cm.num_faces()));
  EXPECT_EQ(cm.edge_body.size(), static_cast<std::size_t>(cm.num_edges()));

  // Exclusions: a vertex of a face, edges sharing a vertex.
  const int v0 = static_cast<int>(std::lower_bound(cm.vertices.begin(), cm.vertices.end(),
                                                   cm.faces(0, 0)) - cm.vertices.begin());
  EXPECT_TRUE(cm.excluded_vertex_face(v0, 0));
  EXPECT_FALSE(cm.excluded_vertex_face(v0, cm.num_faces() - 1));
  EXPECT_TRUE(cm.excluded_edge_edge(cm.num_edges() - 1, cm.num_edges() - 2));
  EXPECT_FALSE(cm.excluded_edge_edge(cm.num_edges() - 1, cm.num_edges() - 3 - 1));

  // A static obstacle is appended after the model's vertices.
  CollisionMesh with = cm;
  MatX ov(3, 3);
  ov << 0, 0, 0, 1, 0, 0, 0, 1, 0;
  MatXi ot(1, 3);
  ot << 0, 1, 2;
  EXPECT_EQ(add_obstacle(with, ov, ot), 4);
  const int n = model.num_vertices();
  EXPECT_EQ(with.num_total_vertices(), n + 3);
  EXPECT_EQ(with.faces.bottomRows(1), Eigen::RowVector3i(n, n + 1, n + 2));
  EXPECT_EQ(with.num_edges(), cm.num_edges() + 3);
  EXPECT_TRUE(with.is_static_vertex(n) && !with.is_static_vertex(n - 1));
  const VertexRows P = with.positions(model.rest_positions);
  EXPECT_EQ(P.rows(), n + 3);
  EXPECT_EQ(P.row(n + 1), Eigen::RowVector3d(1, 0, 0));
  EXPECT_EQ(P.row(nb + 5), box.vertices.row(5));
  // Obstacle vertex versus obstacle face: both static, excluded.
  EXPECT_TRUE(with.excluded_vertex_face(with.num_vertices() - 1, with.num_faces() - 1));
}

TEST(CollisionMesh, RectanglesIn2D) {
  const Mesh rect = generate_rectangle(Vec2(2.0, 1.0), Eigen::Vector2i(6, 3));
  const Surface s = extract_surface(rect);
  Model model(2);
  add_body(model, rect);
  add_body(model, rect);
  const CollisionMesh cm = build_collision_mesh(model);
  const int n = rect.num_vertices();
  EXPECT_EQ(cm.dim, 2);
  EXPECT_EQ(cm.num_faces(), 0);
  EXPECT_EQ(s.edges.rows(), 2 * (6 + 3));
  ASSERT_EQ(cm.num_edges(), 2 * s.edges.rows());
  ASSERT_EQ(cm.num_vertices(), 2 * static_cast<int>(s.vertices.size()));
  EXPECT_EQ(s.vertices.size(), 18u);
  EXPECT_EQ(cm.edges.topRows(s.edges.rows()), s.edges);
  EXPECT_EQ(cm.edges.bottomRows(s.edges.rows()), (s.edges.array() + n).matrix());
  EXPECT_EQ(cm.vertices.back(), s.vertices.back() + n);
  EXPECT_TRUE(cm.excluded_vertex_edge(0, 0) || cm.excluded_vertex_edge(1, 0));
}

// Kinematic bodies (every vertex prescribed) are excluded against each other, against themselves
// and against static obstacles, as IPC skips pairs of Dirichlet vertices; against a free body they
// stay. Two crossing kinematic walls and a free box between them: the proximity candidates are
// exactly the wall-box pairs.
TEST(CollisionMesh, KinematicBodiesAreExcludedAgainstEachOtherOnly) {
  const Mesh wall = generate_box(Vec3(2.0, 2.0, 0.1), Eigen::Vector3i(2, 2, 1));
  Mesh crossing = wall;
  for (int v = 0; v < crossing.num_vertices(); ++v)  // turned about x: the walls cross along a line
    crossing.vertices.row(v) = Vec3(wall.vertices(v, 0), wall.vertices(v, 2), wall.vertices(v, 1));
  Mesh box = generate_box(Vec3(0.2, 0.2, 0.2), Eigen::Vector3i(1, 1, 1));
  box.vertices.rowwise() += Eigen::RowVector3d(0.5, 0.25, 0.25);  // 0.1 m from both walls' faces
  Model model(3);
  add_body(model, wall);
  add_body(model, crossing);
  add_body(model, box);
  const int nw = wall.num_vertices();
  // Candidate pairs between the two walls, and between a wall and the box.
  const auto count_body_pairs = [&](const CollisionMesh& cm) {
    const Candidates c = proximity_candidates(cm, model.rest_positions, 0.2, BroadPhaseMethod::BruteForce);
    const auto body_of = [&](int global) { return global < nw ? 0 : (global < 2 * nw ? 1 : 2); };
    std::size_t wall_wall = 0, wall_box = 0;
    const auto tally = [&](int a, int b) {
      if (a < 2 && b < 2) ++wall_wall;
      else if ((a == 2) != (b == 2)) ++wall_box;
    };
    for (const auto& [v, f] : c.vertex_face) tally(body_of(cm.vertices[static_cast<std::size_t>(v)]), body_of(cm.faces(f, 0)));
    for (const auto& [e0, e1] : c.edge_edge) tally(body_of(cm.edges(e0, 0)), body_of(cm.edges(e1, 0)));
    return std::pair{wall_wall, wall_box};
  };
  const auto [free_wall_wall, free_wall_box] = count_body_pairs(build_collision_mesh(model));
  EXPECT_GT(free_wall_wall, 0u);  // free walls: they cross, every close pair is reported
  EXPECT_GT(free_wall_box, 0u);
  model.bodies[0].kinematic = model.bodies[1].kinematic = true;
  CollisionMesh cm = build_collision_mesh(model);
  ASSERT_EQ(cm.kinematic_vertex.size(), static_cast<std::size_t>(model.num_vertices()));
  EXPECT_TRUE(cm.is_kinematic_vertex(0) && !cm.is_kinematic_vertex(2 * nw));
  const auto [wall_wall, wall_box] = count_body_pairs(cm);
  EXPECT_EQ(wall_wall, 0u);
  EXPECT_EQ(wall_box, free_wall_box);
  // A kinematic wall against a static obstacle: excluded; the free box against it: kept.
  MatX ov(3, 3);
  ov << 0, 0, 0, 1, 0, 0, 0, 1, 0;
  MatXi ot(1, 3);
  ot << 0, 1, 2;
  add_obstacle(cm, ov, ot);
  const int obstacle_vertex = cm.num_vertices() - 1;
  EXPECT_TRUE(cm.excluded_vertex_face(0, cm.num_faces() - 1));  // wall vertex 0 (collision vertex 0)
  EXPECT_TRUE(cm.excluded_vertex_face(obstacle_vertex, 0));     // obstacle vertex, wall face 0
  const int box_face = static_cast<int>(cm.faces.rows()) - 2;    // the last face before the obstacle's
  EXPECT_FALSE(cm.excluded_vertex_face(obstacle_vertex, box_face));
}

// An affine body is one-to-one (x = A xbar + t, det A != 0): its own pairs are never reported,
// however close (a thin U whose arms are 1 cm apart), while its pairs with another body are.
TEST(CollisionMesh, AnAffineBodysOwnPairsAreExcluded) {
  Mesh u = generate_box(Vec3(0.01, 0.2, 0.2), Eigen::Vector3i(1, 1, 1));  // one arm
  Mesh arm = u;
  arm.vertices.rowwise() += Eigen::RowVector3d(0.02, 0.0, 0.0);
  // Two arms in one body: 1 cm apart, with no cell between them (a body of two pieces).
  Mesh both = u;
  both.vertices.conservativeResize(u.num_vertices() * 2, 3);
  both.vertices.bottomRows(u.num_vertices()) = arm.vertices;
  both.cells.conservativeResize(u.num_cells() * 2, u.cells.cols());
  both.cells.bottomRows(u.num_cells()) = u.cells.array() + u.num_vertices();
  Mesh other = u;
  other.vertices.rowwise() += Eigen::RowVector3d(0.04, 0.0, 0.0);  // 1 cm from the second arm
  Model model(3);
  add_body(model, both);
  add_body(model, other);
  const int n = both.num_vertices();
  const auto pairs = [&](const CollisionMesh& cm) {
    const Candidates c = proximity_candidates(cm, model.rest_positions, 0.015, BroadPhaseMethod::BruteForce);
    std::size_t own = 0, between = 0;
    for (const auto& [v, f] : c.vertex_face) {
      const bool a = cm.vertices[static_cast<std::size_t>(v)] < n, b = cm.faces(f, 0) < n;
      if (a && b) ++own;
      else if (a != b) ++between;
    }
    return std::pair{own, between};
  };
  const auto [own_elastic, between_elastic] = pairs(build_collision_mesh(model));
  EXPECT_GT(own_elastic, 0u);
  EXPECT_GT(between_elastic, 0u);
  model.bodies[0].affine = true;
  const CollisionMesh cm = build_collision_mesh(model);
  EXPECT_TRUE(cm.same_self_contact_free_body(0, n - 1));
  EXPECT_FALSE(cm.same_self_contact_free_body(0, n));
  EXPECT_FALSE(cm.only_one_self_contact_free_body());
  const auto [own, between] = pairs(cm);
  EXPECT_EQ(own, 0u);
  EXPECT_EQ(between, between_elastic);
  // One affine body alone: no pair can ever be reported.
  Model alone(3);
  add_body(alone, both);
  alone.bodies[0].affine = true;
  EXPECT_TRUE(build_collision_mesh(alone).only_one_self_contact_free_body());
  alone.bodies[0].affine = false;
  EXPECT_FALSE(build_collision_mesh(alone).only_one_self_contact_free_body());
}

}  // namespace
}  // namespace softsim::test
