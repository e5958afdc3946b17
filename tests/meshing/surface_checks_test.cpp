// The checks a surface passes before it is tetrahedralized (src/softsim/meshing/surface_checks.cpp).
#include "softsim/meshing/surface_checks.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "mesh/mesh_checks.hpp"
#include "support/icosphere.hpp"

namespace softsim {
namespace {

Mesh without_face(Mesh m, int f) {
  Eigen::MatrixXi cells(m.num_cells() - 1, 3);
  cells << m.cells.topRows(f), m.cells.bottomRows(m.num_cells() - f - 1);
  m.cells = cells;
  return m;
}

TEST(SurfaceChecks, AClosedSphereFacingOutwardPasses) {
  Mesh sphere = test::icosphere(3, 0.5);
  const Eigen::MatrixXi before = sphere.cells;
  const SurfaceCheckReport r = check_closed_surface(sphere, "sphere.obj");
  EXPECT_EQ(r.num_components, 1);
  EXPECT_EQ(r.faces_reoriented, 0);
  EXPECT_EQ(sphere.cells, before);
  // The inscribed polyhedron holds a little less than 4/3 pi r^3.
  const double ball = 4.0 / 3.0 * M_PI * 0.125;
  EXPECT_LT(r.enclosed_volume, ball);
  EXPECT_GT(r.enclosed_volume, 0.98 * ball);
}

TEST(SurfaceChecks, AFewFacesTurnedTheWrongWayAreTurnedBackAndAHollowShellKeepsItsCavity) {
  Mesh sphere = test::icosphere(2);
  const Eigen::MatrixXi right = sphere.cells;
  for (int f : {3, 17, 100}) std::swap(sphere.cells(f, 1), sphere.cells(f, 2));
  const SurfaceCheckReport r = check_closed_surface(sphere, "sphere.obj");
  EXPECT_EQ(r.faces_reoriented, 3);
  EXPECT_EQ(sphere.cells, right);
  // Outer sphere facing out, inner facing in (a cavity): both pieces keep their way.
  Mesh outer = test::icosphere(2), inner = test::icosphere(1, 0.5);
  inner.cells.col(1).swap(inner.cells.col(2));
  Mesh shell;
  shell.vertices.resize(outer.num_vertices() + inner.num_vertices(), 3);
  shell.vertices << outer.vertices, inner.vertices;
  shell.cells.resize(outer.num_cells() + inner.num_cells(), 3);
  shell.cells << outer.cells, (inner.cells.array() + outer.num_vertices()).matrix();
  const SurfaceCheckReport s = check_closed_surface(shell, "shell.obj");
  EXPECT_EQ(s.num_components, 2);
  EXPECT_EQ(s.faces_reoriented, 0);
  const double expected = check_closed_surface(outer, "o").enclosed_volume - [&] {
    Mesh in = test::icosphere(1, 0.5);
    return check_closed_surface(in, "i").enclosed_volume;
  }();
  EXPECT_NEAR(s.enclosed_volume, expected, 1e-12);
}

TEST(SurfaceChecks, AnOpenSurfaceIsRefusedWithItsBoundaryEdges) {
  Mesh open = without_face(test::icosphere(1), 7);
  SOFTSIM_EXPECT_INPUT_ERROR(check_closed_surface(open, "cup.obj"), "cup.obj", "not closed", "3 boundary edges",
                             "a solid needs a closed surface");
}

TEST(SurfaceChecks, ANonManifoldEdgeIsRefused) {
  // Two tetrahedra's surfaces glued along one edge (0-1): four faces share it.
  Mesh m;
  m.vertices.resize(6, 3);
  m.vertices << 0, 0, 0, 1, 0, 0, 0.5, 1, 0, 0.5, 0.3, 1, 0.5, -1, 0, 0.5, -0.3, -1;
  m.cells.resize(8, 3);
  m.cells << 0, 2, 1, 0, 1, 3, 1, 2, 3, 2, 0, 3,  // tet 0 1 2 3
      0, 1, 4, 0, 5, 1, 1, 5, 4, 4, 5, 0;         // tet 0 1 4 5
  SOFTSIM_EXPECT_INPUT_ERROR(check_closed_surface(m, "glued.stl"), "glued.stl", "between vertices 0 and 1",
                             "shared by 4 faces", "manifold");
}

TEST(SurfaceChecks, ZeroAreaFacesAreRefused) {
  Mesh m = test::icosphere(1);
  m.vertices.row(m.cells(5, 2)) = 0.5 * (m.vertices.row(m.cells(5, 0)) + m.vertices.row(m.cells(5, 1)));
  SOFTSIM_EXPECT_INPUT_ERROR(check_closed_surface(m, "flat.obj"), "flat.obj", "has zero area");
  Mesh repeated = test::icosphere(1);
  repeated.cells(9, 1) = repeated.cells(9, 0);
  SOFTSIM_EXPECT_INPUT_ERROR(check_closed_surface(repeated, "r.obj"), "r.obj: face 9", "zero area");
}

TEST(SurfaceChecks, SelfIntersectingSurfacesAreRefusedNamingTheFirstPair) {
  // Two overlapping spheres in one file.
  Mesh a = test::icosphere(2), b = test::icosphere(2, 1.0, Eigen::Vector3d(1.0, 0, 0));
  Mesh both;
  both.vertices.resize(a.num_vertices() * 2, 3);
  both.vertices << a.vertices, b.vertices;
  both.cells.resize(a.num_cells() * 2, 3);
  both.cells << a.cells, (b.cells.array() + a.num_vertices()).matrix();
  SOFTSIM_EXPECT_INPUT_ERROR(check_closed_surface(both, "two.obj"), "two.obj", "intersects itself", "faces ");
  // One vertex pushed through the opposite side of a sphere: faces around it cross the far side.
  Mesh dented = test::icosphere(2);
  dented.vertices.row(0) *= -1.5;
  SOFTSIM_EXPECT_INPUT_ERROR(check_closed_surface(dented, "dent.obj"), "dent.obj", "intersects itself");
  // Apart, the two spheres pass.
  Mesh c = test::icosphere(2, 1.0, Eigen::Vector3d(2.5, 0, 0));
  both.vertices.bottomRows(c.num_vertices()) = c.vertices;
  EXPECT_EQ(check_closed_surface(both, "apart.obj").num_components, 2);
}

TEST(SurfaceChecks, OnlyTriangleSurfacesIn3D) {
  Mesh tets;
  tets.vertices = Eigen::MatrixXd::Identity(4, 3);
  tets.cells.resize(1, 4);
  tets.cells << 0, 1, 2, 3;
  SOFTSIM_EXPECT_INPUT_ERROR(check_closed_surface(tets, "t.msh"), "t.msh", "closed surface of triangles");
}

}  // namespace
}  // namespace softsim
