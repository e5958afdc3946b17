// Points inside a mesh's volume (mpm/points_inside_mesh.hpp): against the exact answer for a
// triangulated rectangle and a tetrahedral box (every lattice point classified, boundary points
// included), and the mesh's volume.
#include <gtest/gtest.h>

#include <random>

#include "softsim/mesh/generators.hpp"
#include "softsim/mpm/points_inside_mesh.hpp"

namespace softsim {
namespace {

template <int D>
void expect_exact_classification(const Mesh& mesh, const VecD<D>& half) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  std::vector<VecD<D>> points;
  for (int i = 0; i < 20000; ++i) {
    VecD<D> p;
    for (int a = 0; a < D; ++a) p[a] = u(rng) * half[a];
    points.push_back(p);
  }
  points.push_back(half);                 // a corner
  points.push_back(VecD<D>::Zero());      // the centre, on shared faces of the generated cells
  points.push_back(-half * (1 + 1e-6));   // just outside a corner
  std::vector<VecD<D>> expected;
  for (const VecD<D>& p : points)
    if ((p.cwiseAbs() - half).maxCoeff() <= 0.0) expected.push_back(p);
  const std::vector<VecD<D>> inside = points_inside_mesh<D>(mesh, points);
  ASSERT_EQ(inside.size(), expected.size());
  for (std::size_t i = 0; i < inside.size(); ++i) EXPECT_EQ(inside[i], expected[i]) << "point " << i;  // in order
}

TEST(PointsInsideMesh, ATriangulatedRectangleKeepsExactlyThePointsInIt) {
  const Mesh mesh = generate_rectangle(Vec2(2.0, 0.5), Eigen::Vector2i(13, 5));
  expect_exact_classification<2>(mesh, VecD<2>(1.0, 0.25));
  EXPECT_NEAR(mesh_volume(mesh), 1.0, 1e-12);
}

TEST(PointsInsideMesh, ATetrahedralBoxKeepsExactlyThePointsInIt) {
  const Mesh mesh = generate_box(Vec3(1.0, 0.4, 0.6), Eigen::Vector3i(5, 3, 4));
  expect_exact_classification<3>(mesh, VecD<3>(0.5, 0.2, 0.3));
  EXPECT_NEAR(mesh_volume(mesh), 0.24, 1e-12);
}

TEST(PointsInsideMesh, RefusesAMeshOfAnotherDimension) {
  const Mesh mesh = generate_rectangle(Vec2(1.0, 1.0), Eigen::Vector2i(2, 2));
  EXPECT_THROW(points_inside_mesh<3>(mesh, {VecD<3>::Zero()}), std::invalid_argument);
}

}  // namespace
}  // namespace softsim
