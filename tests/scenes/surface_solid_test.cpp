// Solids made from closed surfaces (bodies[].tetrahedralize): two lumpy blobs, given as an OBJ and
// a binary STL written by the test, are tetrahedralized at load time, dropped on each other and
// on the ground with IPC contact, and never intersect.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "io/io_test_util.hpp"
#include "mesh/mesh_checks.hpp"
#include "softsim/mesh/element_quality.hpp"
#include "softsim/meshing/tetrahedralize.hpp"
#include "support/contact_scene.hpp"
#include "support/icosphere.hpp"

namespace softsim {
namespace {

// A sphere with bumps: radius r (1 + 0.15 sin 3x sin 2y cos z) along each direction, a
// non-convex closed surface like a scanned pebble or a bunny's body.
Mesh blob(double r) {
  Mesh m = test::icosphere(2);
  for (int v = 0; v < m.num_vertices(); ++v) {
    const Vec3 d = m.vertices.row(v);
    m.vertices.row(v) = (r * (1 + 0.15 * std::sin(3 * d.x()) * std::sin(2 * d.y() + 1) * std::cos(d.z())) * d).transpose();
  }
  return m;
}

nlohmann::json blob_scene() {
  return R"json({
    "dim": 3, "time": {"dt": 0.01, "steps": 30},
    "bodies": [
      {"name": "lower", "mesh": "blob.obj", "tetrahedralize": {"edge_length": 0.05},
       "transform": {"translate": [0, 0.12, 0]}, "material": {"E": 1e5, "nu": 0.3, "density": 500}},
      {"name": "upper", "mesh": "blob.stl", "tetrahedralize": {"edge_length": 0.05},
       "transform": {"translate": [0.01, 0.36, 0], "rotate": [0, 0, 30]}, "material": {"E": 1e5, "nu": 0.3, "density": 500}}
    ],
    "contact": {"dhat": 0.003},
    "obstacles": [{"type": "plane", "point": [0, 0, 0], "normal": [0, 1, 0]}]
  })json"_json;
}

TEST(SurfaceSolid, TwoTetrahedralizedBlobsFallOnEachOtherWithoutIntersecting) {
  if (!tetrahedralization_available()) GTEST_SKIP() << "built with SOFTSIM_WITH_TETGEN=OFF";
  test::ScratchDir dir;
  const Mesh surface = blob(0.1);
  test::write_obj_surface(dir / "blob.obj", surface);
  test::write_stl_surface(dir / "blob.stl", surface, true);
  const Scene scene = parse_scene(blob_scene(), dir / "blobs.json");
  Model model = build_model(scene);
  ASSERT_EQ(model.bodies.size(), 2u);
  for (const Body& body : model.bodies) {
    EXPECT_EQ(body.mesh.cell_type(), CellType::Tetrahedron);
    EXPECT_GE(body.surface.faces.rows(), surface.num_cells());  // the input's triangles, perhaps split
    EXPECT_GE(summarize_quality(body.mesh).worst_angle, kPoorElementAngleDegrees);
  }
  const BuildMessages messages = describe_build(model);
  EXPECT_TRUE(messages.warnings.empty());
  ASSERT_GE(messages.notes.size(), 3u);  // the STL welding and both tetrahedralizations
  State state{model.rest_positions, model.initial_velocity, 0.0};
  const test::RunStats stats = test::run_scene(scene, model, state, scene.steps);
  test::print_stats("surface solids", stats);
  EXPECT_EQ(stats.max_intersections, 0u);
  EXPECT_EQ(stats.failed_steps, 0);
  // Both fell and the upper one rests on the lower: its lowest point is above the lower's lowest.
  const auto x = as_rows(state.x, 3);
  const Body& lower = model.bodies[0];
  const Body& upper = model.bodies[1];
  const double lower_bottom = x.middleRows(lower.first_vertex, lower.mesh.num_vertices()).col(1).minCoeff();
  const double upper_bottom = x.middleRows(upper.first_vertex, upper.mesh.num_vertices()).col(1).minCoeff();
  EXPECT_LT(lower_bottom, 0.01);  // reached the ground (it started 0.12 - 0.115 above it at most)
  EXPECT_GE(lower_bottom, 0.0);
  EXPECT_GT(upper_bottom, lower_bottom + 0.1);
}

TEST(SurfaceSolid, ASurfaceWithoutTetrahedralizeOrAnOpenOneIsRefusedWithAHint) {
  test::ScratchDir dir;
  Mesh surface = blob(0.1);
  test::write_obj_surface(dir / "blob.obj", surface);
  nlohmann::json j = blob_scene();
  j["bodies"].erase(1);
  j["bodies"][0].erase("tetrahedralize");
  SOFTSIM_EXPECT_INPUT_ERROR(build_model(parse_scene(j, dir / "s.json")), "bodies[0]", "needs tetrahedron cells",
                             "\"tetrahedralize\": {}");
  surface.cells.conservativeResize(surface.num_cells() - 2, 3);
  test::write_obj_surface(dir / "blob.obj", surface);
  j["bodies"][0]["tetrahedralize"] = nlohmann::json::object();
  if (tetrahedralization_available())
    SOFTSIM_EXPECT_INPUT_ERROR(build_model(parse_scene(j, dir / "s.json")), "s.json: bodies[0].tetrahedralize: blob.obj",
                               "not closed");
  j["bodies"][0]["tetrahedralize"] = R"json({"min_dihedral_degrees": 40})json"_json;
  SOFTSIM_EXPECT_INPUT_ERROR(parse_scene(j, dir / "s.json"), "bodies[0].tetrahedralize.min_dihedral_degrees");
  j["bodies"][0]["kind"] = "shell";
  j["bodies"][0]["tetrahedralize"] = nlohmann::json::object();
  SOFTSIM_EXPECT_INPUT_ERROR(parse_scene(j, dir / "s.json"), "bodies[0].tetrahedralize", "3D \"solid\"");
}

}  // namespace
}  // namespace softsim
