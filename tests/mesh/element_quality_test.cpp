#include "softsim/mesh/element_quality.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace softsim {
namespace {

Mesh single(const Eigen::MatrixXd& v) {
  Mesh m;
  m.vertices = v;
  m.cells.resize(1, v.rows());
  for (int i = 0; i < v.rows(); ++i) m.cells(0, i) = i;
  return m;
}

TEST(ElementQuality, RegularSimplicesScoreTheirKnownValues) {
  Eigen::MatrixXd tet(4, 3);
  tet << 1, 1, 1, 1, -1, -1, -1, 1, -1, -1, -1, 1;
  const Mesh regular = single(tet);
  EXPECT_NEAR(min_angle_degrees(regular, 0), std::acos(1.0 / 3.0) * 180 / M_PI, 1e-12);
  EXPECT_NEAR(radius_ratio(regular, 0), 1.0, 1e-14);
  Eigen::MatrixXd tri(3, 2);
  tri << 0, 0, 1, 0, 0.5, std::sqrt(3.0) / 2;
  const Mesh equilateral = single(tri);
  EXPECT_NEAR(min_angle_degrees(equilateral, 0), 60.0, 1e-12);
  EXPECT_NEAR(radius_ratio(equilateral, 0), 1.0, 1e-14);
}

TEST(ElementQuality, TheTrirectangularCornerTet) {
  // Right angles at the three edges from the origin, acos(1/sqrt 3) = 54.7356 degrees at the
  // others; r_in = 3V / A = 0.5 / (1.5 + sqrt(3)/2), R = sqrt(3)/2, so 3 r / R = sqrt 3 - 1.
  Eigen::MatrixXd tet(4, 3);
  tet << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1;
  const Mesh corner = single(tet);
  EXPECT_NEAR(min_angle_degrees(corner, 0), std::acos(1.0 / std::sqrt(3.0)) * 180 / M_PI, 1e-12);
  EXPECT_NEAR(radius_ratio(corner, 0), std::sqrt(3.0) - 1.0, 1e-14);
  // Orientation does not matter.
  std::swap(tet(1, 0), tet(2, 0));
  std::swap(tet(1, 1), tet(2, 1));
  EXPECT_NEAR(radius_ratio(single(tet), 0), std::sqrt(3.0) - 1.0, 1e-14);
}

TEST(ElementQuality, ASliverScoresNearZeroAndTheSummaryFindsIt) {
  // A sliver: the corners of a unit square, one diagonal's ends lifted by 1e-3 and the other's
  // lowered (four nearly coplanar points, no short edge); and a flat tet (a parallelogram).
  Eigen::MatrixXd sliver(4, 3), flat(4, 3);
  sliver << 0, 0, 0, 1, 0, 1e-3, 1, 1, 0, 0, 1, 1e-3;
  flat << 0, 0, 0, 1, 0, 0, 1, 1, 1e-3, 0, 1, 1e-3;
  EXPECT_EQ(min_angle_degrees(single(flat), 0), 0.0);
  EXPECT_EQ(radius_ratio(single(flat), 0), 0.0);
  Mesh s = single(sliver);
  // At the edge p0 p1 the two faces' normals, (-e, e, 1) and (-e, -e, 1) with e = 1e-3, are
  // acos(1 / (1 + 2 e^2)) = 2 e apart to first order: the dihedral angle there is 2e radians.
  EXPECT_NEAR(min_angle_degrees(s, 0), 2e-3 * 180 / M_PI, 1e-3 * 2e-3 * 180 / M_PI);
  EXPECT_LT(radius_ratio(s, 0), 0.01);
  Eigen::MatrixXd both(8, 3);
  Eigen::MatrixXd regular(4, 3);
  regular << 1, 1, 1, 1, -1, -1, -1, 1, -1, -1, -1, 1;
  both << regular, sliver.rowwise() + Eigen::RowVector3d(5, 0, 0);
  Mesh pair;
  pair.vertices = both;
  pair.cells.resize(2, 4);
  pair.cells << 0, 1, 2, 3, 4, 5, 6, 7;
  const QualitySummary q = summarize_quality(pair);
  ASSERT_TRUE(q.has_quality);
  EXPECT_EQ(q.worst_angle_cell, 1);
  EXPECT_EQ(q.worst_radius_ratio_cell, 1);
  EXPECT_LT(q.worst_angle, kPoorElementAngleDegrees);
  EXPECT_EQ(q.angle_histogram.counts.front(), 1);  // the sliver, in [0, 5)
  EXPECT_EQ(q.angle_histogram.counts.back(), 1);   // the regular tet, exactly at the top edge
  EXPECT_EQ(q.radius_ratio_histogram.counts.front(), 1);
  EXPECT_EQ(q.radius_ratio_histogram.counts.back(), 1);
  const std::string text = format_histogram(q.angle_histogram, "angles:", 1);
  EXPECT_NE(text.find("[   0.0,    5.0)         1  50.0%"), std::string::npos) << text;
}

}  // namespace
}  // namespace softsim
