// The Dirichlet / slip test vectors of Li & Jiang 2025 (Examples 5.2.1, 6.1.1, 6.3.1): a 4x4
// system H (4 on the diagonal, -1 off it), g = (1, 2, 3, 4), read as 2 vertices x 2 dims. The
// step is found the production way: reduce_gradient / reduce_hessian, a dense solve of the
// reduced system, expand_step.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <stdexcept>

#include "softsim/model/boundary_conditions.hpp"

namespace softsim {
namespace {

SparseMat book_hessian() {
  MatX H = MatX::Constant(4, 4, -1.0);
  H.diagonal().setConstant(4.0);
  SparseMat S = H.sparseView();
  S.makeCompressed();
  return S;
}

VecX solve_step(const BoundaryConditions& bc) {
  SparseMat H = book_hessian();
  VecX g(4);
  g << 1, 2, 3, 4;
  bc.reduce_gradient(g);
  bc.reduce_hessian(H);
  EXPECT_EQ(H.nonZeros(), 16) << "reduce_hessian must keep the pattern";
  VecX p = MatX(H).ldlt().solve(-g);
  bc.expand_step(p);
  return p;
}

BoundaryConditions two_vertices_2d() {
  BoundaryConditions bc;
  bc.set_dimensions(2, 2);
  return bc;
}

// Two vertices, the first with a slip condition of the given direction.
BoundaryConditions slip_on_node1(const Vec2& direction, bool line = false) {
  BoundaryConditions bc = two_vertices_2d();
  SlipCondition slip;
  slip.vertices = {0};
  slip.direction = direction;
  slip.line = line;
  bc.add_slip(slip);
  return bc;
}

TEST(BookBoundaryVectors, FixNode2) {
  BoundaryConditions bc = two_vertices_2d();
  PrescribedMotion fixed;
  fixed.vertices = {1};  // node 2 of Li & Jiang 2025, Example 5.2.1 = DOFs 2 and 3
  fixed.offset = [](double) -> VecX { return VecX::Zero(2); };
  bc.add_motion(fixed);
  EXPECT_EQ(bc.num_fixed_dofs(), 2);
  const VecX p = solve_step(bc);
  VecX expected(4);
  expected << -0.4, -0.6, 0, 0;
  EXPECT_LT((p - expected).lpNorm<Eigen::Infinity>(), 1e-12) << p.transpose();
}

// Li & Jiang 2025, Example 6.1.1: node 1 kept on the line y = const.
VecX axis_slip_step() {
  VecX expected(4);
  expected << -1.0, 0.0, -1.4, -1.6;
  return expected;
}

TEST(BookBoundaryVectors, AxisSlipFixesYOfNode1) {
  // plane (line) y = const: y of node 1 is eliminated
  BoundaryConditions bc = slip_on_node1(Vec2(0.0, 1.0));
  EXPECT_EQ(bc.num_fixed_dofs(), 1);
  const VecX p = solve_step(bc);
  EXPECT_LT((p - axis_slip_step()).lpNorm<Eigen::Infinity>(), 1e-12) << p.transpose();
}

// A vertex given a second slip condition is refused, and the refused condition changes nothing:
// the other vertex it listed keeps no constraint and the step is the first condition's.
TEST(BookBoundaryVectors, ARefusedSlipConditionLeavesTheOthersAsTheyWere) {
  BoundaryConditions bc = slip_on_node1(Vec2(0.0, 1.0));
  SlipCondition again;
  again.vertices = {1, 0};  // vertex 1 is free, vertex 0 already has one
  again.direction = Vec2(1.0, 0.0);
  EXPECT_THROW(bc.add_slip(again), std::invalid_argument);
  again.vertices = {1, 1};
  EXPECT_THROW(bc.add_slip(again), std::invalid_argument);
  EXPECT_EQ(bc.num_fixed_dofs(), 1);
  EXPECT_LT((solve_step(bc) - axis_slip_step()).lpNorm<Eigen::Infinity>(), 1e-12);
}

// Nothing fixed: the reductions leave gradient and Hessian exactly as they were.
TEST(BookBoundaryVectors, NothingFixedLeavesTheSystemUnchanged) {
  BoundaryConditions bc = two_vertices_2d();
  SparseMat H = book_hessian();
  VecX g(4);
  g << 1, 2, 3, 4;
  bc.reduce_gradient(g);
  bc.reduce_hessian(H);
  EXPECT_EQ((MatX(H) - MatX(book_hessian())).norm(), 0.0);
  EXPECT_EQ(g, VecX((VecX(4) << 1, 2, 3, 4).finished()));
}

TEST(BookBoundaryVectors, AxisSlipAsLineCondition) {
  // The same constraint written as "move along x" (a line in 2D).
  BoundaryConditions bc = slip_on_node1(Vec2(1.0, 0.0), /*line=*/true);
  const VecX p = solve_step(bc);
  EXPECT_LT((p - axis_slip_step()).lpNorm<Eigen::Infinity>(), 1e-12) << p.transpose();
}

TEST(BookBoundaryVectors, GeneralSlipNormal06_08) {
  BoundaryConditions bc = slip_on_node1(Vec2(0.6, 0.8));

  // Intermediate values of Li & Jiang 2025, Example 6.3.1: V^T g and V^T H V.
  VecX g(4);
  g << 1, 2, 3, 4;
  VecX Vg = g;
  bc.reduce_gradient(Vg);  // rotated, then the normal coordinate zeroed
  EXPECT_NEAR(Vg[0], 0.0, 1e-15);
  EXPECT_NEAR(Vg[1], 0.4, 1e-14);
  EXPECT_NEAR(Vg[2], 3.0, 1e-15);
  EXPECT_NEAR(Vg[3], 4.0, 1e-15);

  const VecX p = solve_step(bc);
  // Example 6.3.1 solved: y = (0, .013514, -1.067568, -1.267568), dx_1 = (-.010811, .008108), n . dx_1 = 0.
  EXPECT_NEAR(p[0], -0.010811, 5e-7);
  EXPECT_NEAR(p[1], 0.008108, 5e-7);
  EXPECT_NEAR(p[2], -1.067568, 5e-7);
  EXPECT_NEAR(p[3], -1.267568, 5e-7);
  EXPECT_NEAR(0.6 * p[0] + 0.8 * p[1], 0.0, 1e-14);
  // Exactly: the reduced V^T H V (the example's matrix without the eliminated row and column)
  // solved densely, dx_1 = V (0, y_1).
  MatX VHV(3, 3);
  VHV << 4.96, 0.2, 0.2, 0.2, 4, -1, 0.2, -1, 4;
  const Eigen::Vector3d y = VHV.ldlt().solve(-Eigen::Vector3d(0.4, 3, 4));
  EXPECT_NEAR(p[0], -0.8 * y[0], 1e-13);
  EXPECT_NEAR(p[1], 0.6 * y[0], 1e-13);
  EXPECT_NEAR(p[2], y[1], 1e-13);
  EXPECT_NEAR(p[3], y[2], 1e-13);
}

TEST(BookBoundaryVectors, FixedDofsAreUntouchedByTheStepAndPositionsApplied) {
  BoundaryConditions bc;
  bc.set_dimensions(3, 2);
  PrescribedMotion m;
  m.vertices = {2};
  m.offset = [](double t) -> VecX { return Vec2(2.0 * t, -t); };
  bc.add_motion(m);
  VecX x0 = VecX::LinSpaced(6, 0.0, 5.0), x = x0;
  bc.apply_positions(x, x0, 0.5);
  EXPECT_DOUBLE_EQ(x[4], 4.0 + 1.0);
  EXPECT_DOUBLE_EQ(x[5], 5.0 - 0.5);
  EXPECT_DOUBLE_EQ(x[0], 0.0);
}

}  // namespace
}  // namespace softsim
