// The cubed-sphere generators: positive tets, conforming faces, closed and consistently oriented
// boundaries with the expected pieces (one sphere; outer sphere + cavity; a closed bowl), volumes
// converging to 4/3 pi (R^3 - r^3) at second order, bounded element quality, bad arguments.
#include "softsim/mesh/round_generators.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "mesh/mesh_checks.hpp"
#include "softsim/mesh/measure.hpp"
#include "softsim/mesh/surface.hpp"
#include "softsim/mesh/surface_components.hpp"

namespace softsim {
namespace {

constexpr double kPi = 3.14159265358979323846;

struct Checked {
  double volume = 0.0;
  double worst_aspect = 0.0;
  std::vector<Eigen::MatrixXi> pieces;
};

// Asserts orientation, conformity and closed boundary pieces; returns volume and quality.
Checked check_mesh(const Mesh& mesh) {
  Checked c;
  for (int e = 0; e < mesh.num_cells(); ++e) {
    const double v = cell_measure(mesh, e);
    EXPECT_GT(v, 0.0) << "tet " << e << " is not positively oriented";
    c.volume += v;
    c.worst_aspect = std::max(c.worst_aspect, cell_aspect_ratio(mesh, e));
  }
  for (const auto& [face, count] : test::face_multiplicity(mesh.cells)) EXPECT_LE(count, 2);
  const Surface s = extract_surface(mesh);
  c.pieces = surface_components(s.faces);
  for (const auto& p : c.pieces) {
    EXPECT_TRUE(is_closed_and_oriented(p));
    // A closed piece of genus 0: V - E + F = 2 (E = 3F/2).
    std::vector<int> v(p.data(), p.data() + p.size());
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    EXPECT_EQ(static_cast<long>(v.size()) - 3 * p.rows() / 2 + p.rows(), 2);
  }
  // Every vertex is used by some tet.
  std::vector<bool> used(mesh.num_vertices(), false);
  for (int i = 0; i < mesh.cells.size(); ++i) used[mesh.cells.data()[i]] = true;
  EXPECT_TRUE(std::all_of(used.begin(), used.end(), [](bool u) { return u; }));
  return c;
}

TEST(GenerateSphere, SolidBallConvergesToTheBallVolume) {
  const double R = 0.7, exact = 4.0 / 3.0 * kPi * R * R * R;
  double previous_error = HUGE_VAL;
  for (int n : {4, 8, 16}) {
    SCOPED_TRACE(n);
    const Mesh mesh = generate_sphere(R, n);
    const int layers = std::max(1, static_cast<int>(std::lround(0.35 * n)));
    EXPECT_EQ(mesh.num_cells(), 5 * n * n * n + 36 * n * n * layers);
    const Checked c = check_mesh(mesh);
    ASSERT_EQ(c.pieces.size(), 1u);
    const double error = std::abs(c.volume - exact) / exact;
    EXPECT_LT(error, previous_error / 3.0);  // second order: about /4 per halving
    previous_error = error;
    EXPECT_LT(c.worst_aspect, 5.0);
    for (int v : extract_surface(mesh).vertices) EXPECT_NEAR(mesh.vertices.row(v).norm(), R, 1e-12);
  }
  EXPECT_LT(previous_error, 0.01);
}

TEST(GenerateHollowSphere, ShellHasOuterSurfaceAndCavityAndConverges) {
  const double r = 0.8, R = 1.0, exact = 4.0 / 3.0 * kPi * (R * R * R - r * r * r);
  double previous_error = HUGE_VAL;
  for (int n : {3, 6, 12}) {
    SCOPED_TRACE(n);
    const int layers = 2;
    const Mesh mesh = generate_hollow_sphere(r, R, n, layers);
    EXPECT_EQ(mesh.num_cells(), 36 * n * n * layers);
    EXPECT_EQ(mesh.num_vertices(), (6 * n * n + 2) * (layers + 1));
    const Checked c = check_mesh(mesh);
    ASSERT_EQ(c.pieces.size(), 2u);  // outer sphere and cavity
    const double error = std::abs(c.volume - exact) / exact;
    EXPECT_LT(error, previous_error / 3.0);
    previous_error = error;
    EXPECT_LT(c.worst_aspect, 10.0);
    for (int v = 0; v < mesh.num_vertices(); ++v) {
      const double radius = mesh.vertices.row(v).norm();
      EXPECT_TRUE(std::abs(radius - r) < 1e-12 || std::abs(radius - 0.9) < 1e-12 || std::abs(radius - R) < 1e-12);
    }
  }
  EXPECT_LT(previous_error, 0.01);
}

TEST(GenerateBowl, HemisphericalShellOpenUpwards) {
  const double r = 0.45, R = 0.5, exact = 2.0 / 3.0 * kPi * (R * R * R - r * r * r);
  double previous_error = HUGE_VAL;
  for (int n : {4, 8, 16}) {
    SCOPED_TRACE(n);
    const Mesh mesh = generate_bowl(r, R, n, 1);
    EXPECT_EQ(mesh.num_cells(), 18 * n * n);
    const Checked c = check_mesh(mesh);
    ASSERT_EQ(c.pieces.size(), 1u);  // inner, outer and rim surfaces form one closed surface
    EXPECT_LE(mesh.vertices.col(1).maxCoeff(), 1e-12);
    EXPECT_NEAR(mesh.vertices.col(1).maxCoeff(), 0.0, 1e-12);  // the rim is at y = 0
    EXPECT_NEAR(mesh.vertices.col(1).minCoeff(), -R, 1e-12);
    const double error = std::abs(c.volume - exact) / exact;
    EXPECT_LT(error, previous_error / 3.0);
    previous_error = error;
  }
}

TEST(RoundGenerators, RejectBadArguments) {
  SOFTSIM_EXPECT_INPUT_ERROR(generate_sphere(-1.0, 4), "generate_sphere");
  SOFTSIM_EXPECT_INPUT_ERROR(generate_sphere(1.0, 0), "generate_sphere");
  SOFTSIM_EXPECT_INPUT_ERROR(generate_hollow_sphere(1.0, 0.5, 4, 2), "inner radius < outer radius");
  SOFTSIM_EXPECT_INPUT_ERROR(generate_hollow_sphere(0.5, 1.0, 4, 0), "layers");
  SOFTSIM_EXPECT_INPUT_ERROR(generate_bowl(0.5, 1.0, 3, 1), "even");
}

}  // namespace
}  // namespace softsim
