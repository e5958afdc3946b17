// The geometry of one constraint-contact block: the fixed-weight relative position reproduces the
// signed gap and is linear in the positions; frames are orthonormal and keep their tangents.
#include <gtest/gtest.h>

#include <random>

#include "softsim/contact/constraint/contact_constraint.hpp"

namespace softsim {
namespace {

VertexRows rows(std::initializer_list<Vec3> points) {
  VertexRows V(static_cast<Eigen::Index>(points.size()), 3);
  Eigen::Index i = 0;
  for (const Vec3& p : points) V.row(i++) = p.transpose();
  return V;
}

TEST(ContactConstraint, FaceContactGapIsTheSignedDistanceToTheFacePlane) {
  // Triangle in the plane y = 0, counter-clockwise seen from +y (normal +y); p below it.
  const VertexRows V = rows({{0.2, -0.01, 0.3}, {0, 0, 0}, {0, 0, 1}, {1, 0, 0}});
  PenaltyContactPoint point;
  point.stencil = ContactStencil::point_triangle(0, 1, 2, 3);
  const auto c = make_contact_constraint(point, V, {}, 0.4);
  ASSERT_TRUE(c);
  const ContactGeometry g = contact_geometry(*c, V, {});
  ASSERT_TRUE(g.valid);
  EXPECT_NEAR(g.normal.dot(Vec3::UnitY()), 1.0, 1e-14);
  EXPECT_NEAR(g.gap, -0.01, 1e-14);
  // r = p - c with c the projection of p: purely normal at detection.
  EXPECT_LT((relative_position(*c, V) - Vec3(0, -0.01, 0)).norm(), 1e-14);
  EXPECT_DOUBLE_EQ(c->mu, 0.4);
  // The weights sum to zero (a rigid translation does not change r).
  double sum = 0;
  for (double w : c->weight) sum += w;
  EXPECT_NEAR(sum, 0.0, 1e-14);
}

TEST(ContactConstraint, EdgeContactNormalFollowsTheSideFoundWithTheContact) {
  const VertexRows V = rows({{0.5, 0.1, 0.2}, {0, 0, 0}, {1, 0, 0}});
  PenaltyContactPoint point;
  point.stencil = ContactStencil::point_edge(0, 1, 2);
  point.side = -1.0;  // p is inside the surface at this edge
  const auto c = make_contact_constraint(point, V, {}, 0.0);
  ASSERT_TRUE(c);
  const ContactGeometry g = contact_geometry(*c, V, {});
  EXPECT_NEAR(g.gap, -std::hypot(0.1, 0.2), 1e-14);
  EXPECT_LT((g.normal + Vec3(0, 0.1, 0.2).normalized()).norm(), 1e-14);
  // p on the edge: no normal, no contact.
  const VertexRows on = rows({{0.5, 0, 0}, {0, 0, 0}, {1, 0, 0}});
  EXPECT_FALSE(make_contact_constraint(point, on, {}, 0.0));
}

TEST(ContactConstraint, ObstacleContactUsesTheSignedDistanceAndItsGradient) {
  AnalyticObstacle sphere;
  sphere.shape = AnalyticObstacle::Shape::Sphere;
  sphere.point = Vec3(0, 0, 0);
  sphere.radius = 1.0;
  const std::vector<AnalyticObstacle> obstacles{sphere};
  const VertexRows V = rows({{0, 0.99, 0}});
  PenaltyContactPoint point;
  point.stencil = ContactStencil::point_obstacle(0, 0);
  const auto c = make_contact_constraint(point, V, obstacles, 0.0);
  ASSERT_TRUE(c);
  const ContactGeometry g = contact_geometry(*c, V, obstacles);
  EXPECT_NEAR(g.gap, -0.01, 1e-14);
  EXPECT_LT((g.normal - Vec3::UnitY()).norm(), 1e-14);
  // The anchor is the obstacle's closest point when found: tangential slides are measured from it.
  EXPECT_LT((c->anchor - Vec3(0, 1, 0)).norm(), 1e-14);
}

// A moving obstacle's contact is the stencil (p, pose) with weights (1, -1): the obstacle and its
// closest point are carried by the pose, so moving p and the pose together changes neither the
// gap nor r, and moving the pose alone changes r by minus that motion.
TEST(ContactConstraint, MovingObstacleContactFollowsThePose) {
  AnalyticObstacle sphere;
  sphere.shape = AnalyticObstacle::Shape::Sphere;
  sphere.point = Vec3(0, 0, 0);
  sphere.radius = 1.0;
  sphere.pose_vertex = 1;
  const std::vector<AnalyticObstacle> obstacles{sphere};
  const Vec3 pose(0.3, -0.2, 0.1);  // the sphere's centre now
  const VertexRows V = rows({pose + Vec3(0, 0.99, 0), pose});
  PenaltyContactPoint point;
  point.stencil = ContactStencil::point_obstacle(0, 0);
  point.stencil.num_vertices = 2;
  point.stencil.ids[1] = 1;
  const auto c = make_contact_constraint(point, V, obstacles, 0.0);
  ASSERT_TRUE(c);
  EXPECT_DOUBLE_EQ(c->weight[0], 1.0);
  EXPECT_DOUBLE_EQ(c->weight[1], -1.0);
  const ContactGeometry g = contact_geometry(*c, V, obstacles);
  EXPECT_NEAR(g.gap, -0.01, 1e-14);
  EXPECT_LT((g.normal - Vec3::UnitY()).norm(), 1e-14);
  EXPECT_LT((relative_position(*c, V) - Vec3(0, -0.01, 0)).norm(), 1e-14);
  const Vec3 shift(0.5, 0.25, -0.75);
  const VertexRows both = rows({pose + Vec3(0, 0.99, 0) + shift, pose + shift});
  EXPECT_NEAR(contact_geometry(*c, both, obstacles).gap, -0.01, 1e-14);
  EXPECT_LT((relative_position(*c, both) - Vec3(0, -0.01, 0)).norm(), 1e-14);
  const VertexRows pose_only = rows({pose + Vec3(0, 0.99, 0), pose + Vec3(0.02, 0.0, 0.0)});
  EXPECT_LT((relative_position(*c, pose_only) - Vec3(-0.02, -0.01, 0)).norm(), 1e-14);
}

TEST(ContactConstraint, FramesAreOrthonormalRightHandedAndKeepTheirTangent) {
  std::mt19937 rng(7);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (int trial = 0; trial < 50; ++trial) {
    const Vec3 n = Vec3(normal(rng), normal(rng), normal(rng)).normalized();
    const Mat3 C = contact_frame(n);
    EXPECT_LT((C * C.transpose() - Mat3::Identity()).norm(), 1e-13);
    EXPECT_NEAR(C.determinant(), 1.0, 1e-13);
    EXPECT_LT((C.row(0).transpose() - n).norm(), 1e-15);
    // A slightly turned normal: the new first tangent stays close to the old one.
    const Vec3 turned = (n + 0.05 * Vec3(normal(rng), normal(rng), normal(rng))).normalized();
    const Vec3 t1 = C.row(1).transpose();
    const Mat3 D = contact_frame(turned, &t1);
    EXPECT_LT((D * D.transpose() - Mat3::Identity()).norm(), 1e-13);
    EXPECT_GT(D.row(1).dot(C.row(1)), 0.95);
  }
}

}  // namespace
}  // namespace softsim
