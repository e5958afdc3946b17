// Contact between and within bodies and with mesh obstacles under XPBD (pbd/mesh_collisions.hpp):
// a cloth thrown at a static mesh floor fast enough to cross it within one substep stays on its
// side, at the thickness; blocks on a slope, on a mesh floor and on each other, slide with
// Coulomb's acceleration or stick, and edge contacts carry friction too; a cloth piling on a small sphere and the ground folds onto itself with
// no self-intersection after any step (the exact check of tests/support), where without the
// constraints it crosses itself; two strips crossing at right angles, where only edges meet, stay
// apart; one and two threads give the same bits.
#include <gtest/gtest.h>
#include <cmath>
#include <cstdio>
#include <tbb/global_control.h>

#include "pbd_scenes.hpp"
#include "softsim/pbd/xpbd_stepper.hpp"
#include "support/intersection_check.hpp"
#include "support/temp_dir.hpp"

namespace softsim::test {
namespace {

// The cloth's surface triangles at x, for the exact intersection check.
std::size_t self_intersections(const PbdRun& run) {
  const Body& cloth = run.model.bodies.front();
  const int n = static_cast<int>(cloth.mesh.vertices.rows());
  Eigen::MatrixXd V(n, 3);
  for (int i = 0; i < n; ++i) V.row(i) = run.state.x.segment<3>(3 * (cloth.first_vertex + i)).transpose();
  return triangle_intersections(V, cloth.surface.faces).size();
}

TEST(MeshCollisions, AClothThrownThroughAMeshFloorInOneSubstepStaysAboveIt) {
  TempDir dir("pbd_mesh_floor");
  Mesh floor;
  floor.vertices.resize(4, 3);
  floor.vertices << -1, 0, -1, 1, 0, -1, 1, 0, 1, -1, 0, 1;
  floor.cells.resize(2, 3);
  floor.cells << 0, 2, 1, 0, 3, 2;
  write_obj_surface(dir.path() / "floor.obj", floor);
  nlohmann::json j = pbd_cloth_pile(true, 8);
  j["obstacles"] = {{{"type", "mesh"}, {"name", "floor"}, {"mesh", "floor.obj"}}};
  j["bodies"][0]["transform"] = {{"translate", {0, 0.01, 0}}};
  j["bodies"][0]["initial_velocity"] = {0, -20, 0};  // 2 cm per substep: through the floor in the first one
  PbdRun run(j, (dir.path() / "floor.json").string());
  const auto& stepper = dynamic_cast<const XpbdStepper&>(*run.stepper);
  run.run(5);
  EXPECT_GT(stepper.contact_pairs(), 0u);
  const double thickness = 0.004;
  double lowest = 1.0;
  for (int i = 0; i < run.model.num_vertices(); ++i) lowest = std::min(lowest, run.state.x[3 * i + 1]);
  EXPECT_GT(lowest, 0.99 * thickness);  // held at the thickness, on the side it came from
  EXPECT_LT(lowest, 1.5 * thickness);
}

TEST(MeshCollisions, AClothPilingOnItselfNeverCrossesItself) {
  // Every step of 2 s: the cloth drapes, reaches the ground at about 0.3 s and folds onto itself.
  PbdRun piled(pbd_cloth_pile(true));
  for (int step = 1; step <= 200; ++step) {
    piled.run(1);
    ASSERT_EQ(self_intersections(piled), 0u) << "at t = " << piled.state.t;
  }
  // The cloth reached the ground and rests on the sphere and on it, above both.
  double lowest = 1.0;
  for (int i = 0; i < piled.model.num_vertices(); ++i) lowest = std::min(lowest, piled.state.x[3 * i + 1]);
  EXPECT_LT(lowest, 0.02);
  EXPECT_GT(lowest, -1e-9);
  // Without the constraints the folds cross (16 pairs at 0.5 s): the check has something to catch.
  PbdRun free(pbd_cloth_pile(false));
  free.run(50);
  EXPECT_GT(self_intersections(free), 0u);
}

// Two one-cell cloth strips crossing at right angles, the upper dropped on the lower (which lies
// pinned on the ground): no vertex of either is ever over a face of the other, so only the
// edge-edge constraints can stop the upper strip's long edges passing through the lower's.
nlohmann::json crossing_strips(bool self_contact) {
  nlohmann::json j = pbd_cloth_pile(self_contact, 1);
  auto strip = [](const char* name, Vec3 size, double y) {
    return nlohmann::json{{"name", name},
                          {"kind", "shell"},
                          {"generator", {{"type", "sheet"}, {"size", {size[0], 1, size[2]}}, {"resolution", {1, 1, 1}}}},
                          {"transform", {{"translate", {0, y, 0}}}},
                          {"material", {{"model", "stvk"}, {"E", 1e5}, {"nu", 0.3}, {"density", 200}, {"thickness", 0.001},
                                        {"bending_stiffness", 0.0}}}};
  };
  j["bodies"] = {strip("lower", Vec3(1.0, 0, 0.1), 0.05), strip("upper", Vec3(0.1, 0, 1.0), 0.08)};
  j["bodies"][0]["fixed"] = {{{"box", {{-1, -1, -1}, {1, 1, 1}}}}};
  j["obstacles"] = {{{"type", "plane"}, {"name", "ground"}, {"point", {0, 0, 0}}, {"normal", {0, 1, 0}}}};
  return j;
}

// Triangle pairs of different bodies (or of one) that intersect, by the exact check.
std::size_t all_intersections(const PbdRun& run) {
  const int n = run.model.num_vertices();
  Eigen::MatrixXd V(n, 3);
  for (int i = 0; i < n; ++i) V.row(i) = run.state.x.segment<3>(3 * i).transpose();
  Eigen::Index rows = 0;
  for (const Body& b : run.model.bodies) rows += b.surface.faces.rows();
  Eigen::MatrixXi F(rows, 3);
  rows = 0;
  for (const Body& b : run.model.bodies) {
    F.middleRows(rows, b.surface.faces.rows()) = b.surface.faces.array() + b.first_vertex;
    rows += b.surface.faces.rows();
  }
  return triangle_intersections(V, F).size();
}

TEST(MeshCollisions, EdgesCrossingAtRightAnglesDoNotPassThroughEachOther) {
  PbdRun held(crossing_strips(true)), free(crossing_strips(false));
  for (int step = 1; step <= 40; ++step) {  // 0.4 s: the upper strip falls 3 cm onto the lower
    held.run(1);
    free.run(1);
    ASSERT_EQ(all_intersections(held), 0u) << "at t = " << held.state.t;
  }
  auto upper_lowest = [](const PbdRun& run) {
    double y = 1.0;
    for (int i = 4; i < 8; ++i) y = std::min(y, run.state.x[3 * i + 1]);
    return y;
  };
  EXPECT_GT(upper_lowest(held), 0.05);  // resting on the lower strip (measured 2.5 mm above its plane)
  EXPECT_LT(upper_lowest(held), 0.05 + 1.5 * 0.004);
  EXPECT_LT(upper_lowest(free), 0.05);  // without the constraints it passes through, to the ground
}

// Friction between bodies (and with mesh obstacles): a 10 cm block on a slope of 30 degrees
// (gravity tilted, the floor at y = 0), resting on a mesh floor or on a second block whose bottom
// is held. The mean acceleration along the slope over [0.1 s, 0.4 s] is Coulomb's
// g (sin theta - mu cos theta) when mu < tan theta, and zero (it sticks) when mu > tan 30 = 0.577.
constexpr double kGravity = 9.81, kSlopeAngle = 30.0 * M_PI / 180.0;

nlohmann::json block(const char* name, Vec3 size, Vec3 centre) {
  return {{"name", name},
          {"generator", {{"type", "box"}, {"size", {size[0], size[1], size[2]}}, {"resolution", {2, 2, 2}}}},
          {"transform", {{"translate", {centre[0], centre[1], centre[2]}}}},
          {"material", {{"model", "stable_neo_hookean"}, {"E", 1e6}, {"nu", 0.3}, {"density", 1000}}}};
}

nlohmann::json block_on_slope(double mu, bool on_block, const std::filesystem::path& dir) {
  const double thickness = 0.002;
  nlohmann::json j = {{"dim", 3},
                      {"time", {{"dt", 0.01}, {"steps", 1}}},
                      {"gravity", {kGravity * std::sin(kSlopeAngle), -kGravity * std::cos(kSlopeAngle), 0}},
                      {"integrator", {{"type", "xpbd"}, {"substeps", 20}, {"iterations", 2}}},
                      {"contact", {{"dhat", thickness}, {"friction", {{"mu", mu}}}}}};
  if (on_block) {
    // The lower block (1 m long) has its bottom held; the upper starts at its uphill end.
    j["bodies"] = {block("lower", Vec3(1.0, 0.05, 0.2), Vec3(0.0, 0.025, 0.0)),
                   block("upper", Vec3(0.1, 0.1, 0.1), Vec3(-0.4, 0.05 + 0.05 + 1.05 * thickness, 0.0))};
    j["bodies"][0]["generator"]["resolution"] = {8, 1, 2};
    j["bodies"][0]["fixed"] = {{{"box", {{-1, -0.01, -1}, {1, 0.01, 1}}}}};
  } else {
    Mesh floor;
    floor.vertices.resize(4, 3);
    floor.vertices << -3, 0, -1, 3, 0, -1, 3, 0, 1, -3, 0, 1;
    floor.cells.resize(2, 3);
    floor.cells << 0, 2, 1, 0, 3, 2;
    write_obj_surface(dir / "floor.obj", floor);
    j["obstacles"] = {{{"type", "mesh"}, {"name", "floor"}, {"mesh", "floor.obj"}}};
    j["bodies"] = {block("block", Vec3(0.1, 0.1, 0.1), Vec3(-0.4, 0.05 + 1.05 * thickness, 0.0))};
  }
  return j;
}

// The mean x velocity of the last body's vertices.
double mean_velocity_x(const PbdRun& run) {
  const Body& b = run.model.bodies.back();
  double sum = 0.0;
  const int n = static_cast<int>(b.mesh.vertices.rows());
  for (int i = 0; i < n; ++i) sum += run.state.v[3 * (b.first_vertex + i)];
  return sum / n;
}

double slope_acceleration(double mu, bool on_block) {
  TempDir dir("pbd_block_slope");
  PbdRun run(block_on_slope(mu, on_block, dir.path()), (dir.path() / "slope.json").string());
  run.run(10);  // settle onto the support
  const double v0 = mean_velocity_x(run);
  run.run(30);
  const double a = (mean_velocity_x(run) - v0) / 0.3;
  const double coulomb = std::max(0.0, kGravity * (std::sin(kSlopeAngle) - mu * std::cos(kSlopeAngle)));
  std::printf("block on %s, mu %.2f: %.4f m/s^2 along the slope, Coulomb %.4f\n", on_block ? "a block" : "a mesh floor",
              mu, a, coulomb);
  return a;
}

TEST(MeshCollisions, ABlockSlidesOnAMeshFloorWithTheCoulombAcceleration) {
  EXPECT_NEAR(slope_acceleration(0.3, false) / (kGravity * (std::sin(kSlopeAngle) - 0.3 * std::cos(kSlopeAngle))), 1.0, 0.03);
  EXPECT_NEAR(slope_acceleration(0.0, false) / (kGravity * std::sin(kSlopeAngle)), 1.0, 0.03);
  EXPECT_LT(std::abs(slope_acceleration(0.7, false)), 0.01);
}

TEST(MeshCollisions, ABlockSlidesOnAnotherWithTheCoulombAccelerationAndSticksAboveTheSlope) {
  EXPECT_NEAR(slope_acceleration(0.3, true) / (kGravity * (std::sin(kSlopeAngle) - 0.3 * std::cos(kSlopeAngle))), 1.0, 0.03);
  EXPECT_LT(std::abs(slope_acceleration(0.7, true)), 0.01);
}

// Only edges meet where the strips cross: edge-edge friction holds the upper strip on a slope
// along its length when mu > tan theta; without friction it slides (0.30 m in the same 0.2 s).
TEST(MeshCollisions, EdgeContactsCarryFriction) {
  auto slide = [](double mu) {
    nlohmann::json j = crossing_strips(true);
    j["gravity"] = {0, -kGravity * std::cos(kSlopeAngle), kGravity * std::sin(kSlopeAngle)};
    j["contact"]["friction"]["mu"] = mu;
    PbdRun run(j);
    run.run(20);  // lands at about 0.08 s
    double z0 = 0.0, z1 = 0.0;
    for (int i = 4; i < 8; ++i) z0 += run.state.x[3 * i + 2] / 4;
    run.run(20);
    for (int i = 4; i < 8; ++i) z1 += run.state.x[3 * i + 2] / 4;
    std::printf("strip, mu %.1f: %.4e m in 0.2 s\n", mu, z1 - z0);
    return z1 - z0;
  };
  EXPECT_LT(std::abs(slide(0.7)), 1e-3);
  EXPECT_GT(slide(0.0), 0.5 * kGravity * std::sin(kSlopeAngle) * 0.04);  // at least what it would slide from rest
}

TEST(MeshCollisions, OneAndTwoThreadsGiveTheSameBits) {
  auto run_with = [](int threads) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
    PbdRun run(pbd_cloth_pile(true, 24));  // colours of ~100 elements: projected in parallel
    run.run(40);
    return run.state.x;
  };
  const VecX one = run_with(1), two = run_with(2);
  EXPECT_TRUE(one == two);
}

}  // namespace
}  // namespace softsim::test
