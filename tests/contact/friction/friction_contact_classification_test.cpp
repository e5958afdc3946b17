// The classified contacts LaggedFriction freezes realise the same squared distance as the
// barrier's distance functions (so lambda uses the barrier's d), their closest points lie on
// the primitives (weights sum to zero, coordinates in [0, 1]), and T is orthonormal and
// orthogonal to the closest-point direction.
#include <gtest/gtest.h>

#include "softsim/contact/distance/edge_edge.hpp"
#include "softsim/contact/friction/friction_contact.hpp"
#include "softsim/contact/distance/point_edge.hpp"
#include "softsim/contact/distance/point_triangle.hpp"

namespace softsim {
namespace {

void check_contact(const FrictionContact& c, const VertexRows& V, double s_expected, const char* what) {
  EXPECT_NEAR(c.distance_squared, s_expected, 1e-12 * std::max(1.0, s_expected)) << what;
  double wsum = 0;
  Eigen::VectorXd r = Eigen::VectorXd::Zero(V.cols());
  for (int a = 0; a < c.stencil.num_vertices; ++a) {
    wsum += c.weights[a];
    r += c.weights[a] * V.row(c.stencil.ids[a]).transpose();
  }
  EXPECT_NEAR(wsum, 0.0, 1e-12) << what;
  for (int a = 0; a < c.stencil.num_vertices; ++a) EXPECT_LE(std::abs(c.weights[a]), 1.0 + 1e-12) << what;
  const int m = static_cast<int>(c.T.cols());
  EXPECT_LT((c.T.transpose() * c.T - Eigen::MatrixXd::Identity(m, m)).norm(), 1e-12) << what;
  EXPECT_LT((c.T.transpose() * r).norm(), 1e-9 * std::max(1.0, r.norm())) << what;
}

TEST(FrictionClassification, ContactsRealiseTheBarrierDistance) {
  std::srand(11);
  for (int trial = 0; trial < 2000; ++trial) {
    const VertexRows V = VertexRows::Random(4, 3);
    auto v = [&](int i) { return Eigen::Vector3d(V.row(i).transpose()); };
    check_contact(friction_contact(closest_features(ContactStencil::point_triangle(0, 1, 2, 3), V), V), V,
                  point_triangle_distance_squared(v(0), v(1), v(2), v(3)), "point-triangle");
    check_contact(friction_contact(closest_features(ContactStencil::edge_edge(0, 1, 2, 3), V), V), V,
                  edge_edge_distance_squared(v(0), v(1), v(2), v(3)), "edge-edge");
    check_contact(friction_contact(closest_features(ContactStencil::point_edge(0, 1, 2), V), V), V, point_edge_distance_squared(v(0), v(1), v(2)),
                  "point-edge");
    const VertexRows W = VertexRows::Random(3, 2);
    check_contact(friction_contact(closest_features(ContactStencil::point_edge(0, 1, 2), W), W), W,
                  point_edge_distance_squared(Eigen::Vector2d(W.row(0).transpose()), Eigen::Vector2d(W.row(1).transpose()),
                                              Eigen::Vector2d(W.row(2).transpose())),
                  "point-edge 2D");
  }
}

}  // namespace
}  // namespace softsim
