// The enclosed volume by the divergence theorem: exact for a closed box surface, independent of
// the reference point, its gradient and Hessian against finite differences, and the split of a
// hollow ball's boundary into the outer surface and the cavity.
#include <gtest/gtest.h>

#include <Eigen/LU>

#include "softsim/mesh/generators.hpp"
#include "softsim/mesh/round_generators.hpp"
#include "softsim/mesh/surface.hpp"
#include "softsim/mesh/surface_components.hpp"
#include "softsim/volume/enclosed_volume.hpp"
#include "support/finite_difference.hpp"
#include "support/fem_models.hpp"

namespace softsim {
namespace {

constexpr double kPi = 3.14159265358979323846;

VecX jitter(const VecX& x, double amplitude, unsigned seed) { return x + test::random_perturbation(x.size(), amplitude, seed); }

TEST(EnclosedVolume, ClosedBoxIsExactAnywhere) {
  const Mesh box = generate_box(Vec3(1.0, 2.0, 3.0), Eigen::Vector3i(2, 3, 4));
  const Surface s = extract_surface(box);
  VecX x = flatten_rows(box.vertices);
  EXPECT_NEAR(enclosed_volume(s.faces, x), 6.0, 1e-13);
  EXPECT_NEAR(enclosed_volume(s.faces, x, Vec3(5, -7, 11)), 6.0, 1e-12);
  for (Eigen::Index v = 0; v < box.vertices.rows(); ++v) x.segment<3>(3 * v) += Vec3(100, -50, 20);
  EXPECT_NEAR(enclosed_volume(s.faces, x, Vec3(100, -50, 20)), 6.0, 1e-12);
  // A deformed closed surface encloses the sum of the tets' volumes.
  const VecX y = jitter(flatten_rows(box.vertices), 0.05, 1);
  double tets = 0.0;
  for (int e = 0; e < box.num_cells(); ++e) {
    Mat3 E;
    for (int q = 0; q < 3; ++q) E.col(q) = y.segment<3>(3 * box.cells(e, q + 1)) - y.segment<3>(3 * box.cells(e, 0));
    tets += E.determinant() / 6.0;
  }
  EXPECT_NEAR(enclosed_volume(s.faces, y), tets, 1e-13);
}

TEST(EnclosedVolume, GradientAndHessianMatchFiniteDifferences) {
  const Mesh ball = generate_hollow_sphere(0.3, 0.5, 2, 1);
  const Eigen::MatrixXi faces = extract_surface(ball).faces;
  const VecX x = jitter(flatten_rows(ball.vertices), 0.02, 2);
  const Vec3 c(0.1, -0.2, 0.05);
  auto V = [&](const VecX& y) { return enclosed_volume(faces, y, c); };
  VecX g = VecX::Zero(x.size());
  for (Eigen::Index f = 0; f < faces.rows(); ++f) {
    const Vec9 gf = triangle_volume_gradient(x.segment<3>(3 * faces(f, 0)) - c, x.segment<3>(3 * faces(f, 1)) - c,
                                             x.segment<3>(3 * faces(f, 2)) - c);
    for (int a = 0; a < 3; ++a) g.segment<3>(3 * faces(f, a)) += gf.segment<3>(3 * a);
  }
  EXPECT_LT(test::relative_error(g, test::fd_gradient(V, x)), 1e-8);

  // One triangle: Hessian vs FD of the gradient, and the matrix-free product vs the matrix.
  const Vec9 corners = Vec9::Random();
  auto tri_grad = [](const VecX& y) -> VecX {
    return triangle_volume_gradient(y.segment<3>(0), y.segment<3>(3), y.segment<3>(6));
  };
  const Mat9 H = triangle_volume_hessian(corners.segment<3>(0), corners.segment<3>(3), corners.segment<3>(6));
  EXPECT_LT(test::relative_error(MatX(H), test::fd_jacobian(tri_grad, corners)), 1e-8);
  EXPECT_LT((H - H.transpose()).norm(), 1e-15);
  EXPECT_NEAR(H.trace(), 0.0, 1e-15);
  const Vec9 p = Vec9::Random();
  EXPECT_LT(test::relative_error(
                triangle_volume_hessian_times(corners.segment<3>(0), corners.segment<3>(3), corners.segment<3>(6), p),
                Vec9(H * p)),
            1e-14);
}

TEST(EnclosedVolume, HollowBallSplitsIntoOuterSurfaceAndCavity) {
  const double r = 0.4, R = 0.5;
  const Mesh ball = generate_hollow_sphere(r, R, 6, 2);
  const auto pieces = surface_components(extract_surface(ball).faces);
  ASSERT_EQ(pieces.size(), 2u);
  const VecX x = flatten_rows(ball.vertices);
  std::vector<double> volumes;
  for (const auto& p : pieces) {
    EXPECT_TRUE(is_closed_and_oriented(p));
    volumes.push_back(enclosed_volume(p, x));
  }
  std::sort(volumes.begin(), volumes.end());
  // The cavity faces inwards (negative), the outer surface outwards; both close to the spheres'
  // volumes (inscribed polyhedra: slightly smaller).
  EXPECT_LT(volumes[0], 0.0);
  EXPECT_NEAR(-volumes[0], 4.0 / 3.0 * kPi * r * r * r, 0.03 * 4.0 / 3.0 * kPi * r * r * r);
  EXPECT_NEAR(volumes[1], 4.0 / 3.0 * kPi * R * R * R, 0.03 * 4.0 / 3.0 * kPi * R * R * R);
  // An open surface is not closed.
  Eigen::MatrixXi open = pieces[0].topRows(pieces[0].rows() - 1);
  EXPECT_FALSE(is_closed_and_oriented(open));
  Eigen::MatrixXi flipped = pieces[0];
  flipped.row(0) = Eigen::RowVector3i(flipped(0, 0), flipped(0, 2), flipped(0, 1));
  EXPECT_FALSE(is_closed_and_oriented(flipped));
}

}  // namespace
}  // namespace softsim
