// MPM scene files (scene/mpm_scene.hpp): what is read and defaulted, the particles built from
// boxes, and one clear message naming the key or the body for each kind of bad input.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>

#include "softsim/core/errors.hpp"
#include "softsim/meshing/tetrahedralize.hpp"
#include "softsim/scene/mpm_scene.hpp"
#include "softsim/scene/scene.hpp"
#include "support/temp_dir.hpp"

namespace softsim {
namespace {

nlohmann::json sand_scene() {
  return R"json({
    "dim": 2, "gravity": [0, -9.81], "time": {"dt": 2e-4, "steps": 10}, "output": {"every": 5},
    "mpm": {
      "grid": {"origin": [0, 0], "cells": [32, 32], "spacing": 0.03125},
      "transfer": "flip", "flip_ratio": 0.9, "kernel": "cubic",
      "walls": {"nodes": 4, "condition": "friction", "friction": 0.3},
      "materials": [{"name": "sand", "elasticity": "stvk_hencky", "plasticity": "drucker_prager",
                     "E": 3.5e5, "nu": 0.3, "density": 400, "friction_angle": 30},
                    {"name": "clay", "plasticity": "von_mises", "yield_stress": 2000, "E": 1e5, "nu": 0.25},
                    {"name": "snow", "plasticity": "snow", "critical_compression": 0.02, "critical_stretch": 0.005,
                     "hardening": 8}],
      "bodies": [{"name": "column", "box": {"min": [0.4, 0.4], "max": [0.6, 0.8]}, "velocity": [1, 0],
                  "particles_per_cell": 4, "material": "sand"}],
      "colliders": [{"type": "sphere", "center": [0.5, 0.3], "radius": 0.1, "condition": "friction", "friction": 0.5},
                    {"type": "plane", "point": [0, 0.2], "normal": [0, 3]},
                    {"type": "box", "center": [0.2, 0.5], "size": [0.1, 0.2], "velocity": [0, -1], "condition": "slip"}]
    }
  })json"_json;
}

std::string mpm_scene_error(const nlohmann::json& j) {
  try {
    const MpmScene scene = parse_mpm_scene(j, "sand.json");
    if (scene.dim == 2) build_mpm_solver<2>(scene);
    else build_mpm_solver<3>(scene);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(MpmScene, ReadsEveryKeyAndBuildsTheParticles) {
  const nlohmann::json j = sand_scene();
  ASSERT_TRUE(is_mpm_scene(j));
  const MpmScene s = parse_mpm_scene(j, "sand.json");
  EXPECT_EQ(s.dim, 2);
  EXPECT_EQ(s.steps, 10);
  EXPECT_EQ(s.output_every, 5);
  EXPECT_EQ(s.kernel, MpmKernel::cubic);
  EXPECT_EQ(s.transfer, MpmTransfer::flip);
  EXPECT_DOUBLE_EQ(s.flip_ratio, 0.9);
  EXPECT_DOUBLE_EQ(s.gravity[1], -9.81);
  EXPECT_EQ(s.walls, MpmBoundary::friction);
  EXPECT_DOUBLE_EQ(s.wall_friction, 0.3);
  EXPECT_EQ(s.wall_nodes, 4);
  ASSERT_EQ(s.materials.size(), 3u);
  EXPECT_EQ(s.materials[2].plasticity, MpmPlasticity::snow);
  EXPECT_DOUBLE_EQ(s.materials[2].critical_compression, 0.02);
  EXPECT_DOUBLE_EQ(s.materials[2].critical_stretch, 0.005);
  EXPECT_DOUBLE_EQ(s.materials[2].hardening, 8.0);
  EXPECT_EQ(s.materials[0].plasticity, MpmPlasticity::drucker_prager);
  EXPECT_DOUBLE_EQ(s.materials[0].friction_angle, 30.0);
  EXPECT_EQ(s.materials[1].plasticity, MpmPlasticity::von_mises);
  EXPECT_DOUBLE_EQ(s.materials[1].yield_stress, 2000.0);
  EXPECT_DOUBLE_EQ(s.materials[1].poisson_ratio, 0.25);
  EXPECT_EQ(s.materials[1].elasticity, MpmElasticity::fixed_corotated);  // the default
  ASSERT_EQ(s.colliders.size(), 3u);
  EXPECT_EQ(s.colliders[0].boundary, MpmBoundary::friction);
  EXPECT_DOUBLE_EQ(s.colliders[0].friction, 0.5);
  EXPECT_DOUBLE_EQ(s.colliders[0].radius, 0.1);
  EXPECT_NEAR(s.colliders[1].normal.norm(), 1.0, 1e-15);
  EXPECT_EQ(s.colliders[2].shape, MpmCollider<3>::Shape::box);
  EXPECT_DOUBLE_EQ(s.colliders[2].half_size[1], 0.1);
  EXPECT_DOUBLE_EQ(s.colliders[2].velocity[1], -1.0);
  EXPECT_EQ(s.colliders[2].boundary, MpmBoundary::slip);
  const MpmSolver<2> solver = build_mpm_solver<2>(s);
  // 4 per cell of 1/32 m over 0.2 x 0.4 m: a lattice of 12 x 25.
  EXPECT_EQ(solver.particles().size(), 12u * 25u);
  double mass = 0.0;
  for (double m : solver.particles().mass) mass += m;
  EXPECT_NEAR(mass, 400 * 0.2 * 0.4, 1e-12);  // the box's volume times the material's density
  EXPECT_EQ(solver.particles().v[0], VecD<2>(1.0, 0.0));
}

// An L of three unit squares (the square [1, 2] x [1, 2] missing), six triangles in an OBJ.
void write_l_shape(const std::filesystem::path& file) {
  std::ofstream out(file);
  out << "v 0 0 0\nv 1 0 0\nv 2 0 0\nv 0 1 0\nv 1 1 0\nv 2 1 0\nv 0 2 0\nv 1 2 0\n"
         "f 1 2 5\nf 1 5 4\nf 2 3 6\nf 2 6 5\nf 4 5 8\nf 4 8 7\n";
}

// A square ring: [0, 3]^2 without [1, 2]^2, eight unit squares of two triangles each.
void write_square_ring(const std::filesystem::path& file) {
  std::ofstream out(file);
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 4; ++i) out << "v " << i << " " << j << " 0\n";
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) {
      if (i == 1 && j == 1) continue;
      const int a = 1 + i + 4 * j, b = a + 1, c = a + 5, d = a + 4;
      out << "f " << a << " " << b << " " << c << "\nf " << a << " " << c << " " << d << "\n";
    }
}

TEST(MpmScene, SpheresAndMeshVolumesAreFilledWithParticlesOfTheirVolume) {
  test::TempDir dir("mpm_shapes");
  write_l_shape(dir.path() / "l.obj");
  nlohmann::json j = sand_scene();
  j["mpm"]["damping"] = 2.5;
  j["mpm"]["bodies"] = R"json([
    {"name": "ball", "sphere": {"center": [0.5, 0.6], "radius": 0.15}, "material": "clay"},
    {"name": "ell", "mesh": "l.obj", "transform": {"scale": [0.1, 0.1], "translate": [0.2, 0.2]},
     "sampling": "poisson", "seed": 4, "material": "clay"}])json"_json;
  const MpmScene s = parse_mpm_scene(j, dir.path() / "sand.json");
  EXPECT_DOUBLE_EQ(s.damping, 2.5);
  const MpmSolver<2> solver = build_mpm_solver<2>(s);
  EXPECT_DOUBLE_EQ(solver.options().damping, 2.5);
  const MpmParticles<2>& p = solver.particles();
  double ball_mass = 0.0, ell_mass = 0.0;
  std::size_t ball = 0, ell = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if ((p.x[i] - VecD<2>(0.5, 0.6)).norm() <= 0.15 + 1e-12) {
      ball_mass += p.mass[i];
      ++ball;
      continue;
    }
    // Every other particle is the L's: inside its 0.2 m square, outside the missing corner.
    const VecD<2> u = (p.x[i] - VecD<2>(0.2, 0.2)) / 0.1;
    ASSERT_TRUE(u.minCoeff() >= -1e-9 && u.maxCoeff() <= 2 + 1e-9) << u.transpose();
    ASSERT_FALSE(u[0] > 1 + 1e-9 && u[1] > 1 + 1e-9) << "particle in the L's missing corner: " << u.transpose();
    ell_mass += p.mass[i];
    ++ell;
  }
  // Each body's mass is its volume times the density (the default 1000 of "clay"), whatever its count.
  EXPECT_NEAR(ball_mass, 1000 * M_PI * 0.15 * 0.15, 1e-9);
  EXPECT_NEAR(ell_mass, 1000 * 3 * 0.01, 1e-9);
  // About 8 particles per cell of 1/32 m.
  EXPECT_NEAR(ball, 8 * M_PI * 0.15 * 0.15 * 32 * 32, 0.1 * 8 * M_PI * 0.15 * 0.15 * 32 * 32);
  EXPECT_NEAR(ell, 8 * 0.03 * 32 * 32, 0.2 * 8 * 0.03 * 32 * 32);
}

TEST(MpmScene, AClosedSurfaceIsTetrahedralizedAndFilledIn3D) {
  if (!tetrahedralization_available()) GTEST_SKIP() << "built without TetGen: no surface-to-tet meshing";
  test::TempDir dir("mpm_cube");
  {
    std::ofstream out(dir.path() / "cube.obj");
    out << "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
           "f 1 4 3\nf 1 3 2\nf 5 6 7\nf 5 7 8\nf 1 2 6\nf 1 6 5\nf 2 3 7\nf 2 7 6\nf 3 4 8\nf 3 8 7\n"
           "f 4 1 5\nf 4 5 8\n";
  }
  const nlohmann::json j = R"json({"dim": 3, "mpm": {"grid": {"cells": [16, 16, 16], "spacing": 0.0625},
      "materials": [{"density": 500}],
      "bodies": [{"mesh": "cube.obj", "transform": {"scale": [0.5, 0.25, 0.5], "translate": [0.25, 0.25, 0.25]}}]}})json"_json;
  const MpmSolver<3> solver = build_mpm_solver<3>(parse_mpm_scene(j, dir.path() / "cube.json"));
  const MpmParticles<3>& p = solver.particles();
  double mass = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const VecD<3> u = p.x[i] - VecD<3>(0.25, 0.25, 0.25);
    ASSERT_TRUE(u.minCoeff() >= -1e-9 && u[0] <= 0.5 + 1e-9 && u[1] <= 0.25 + 1e-9 && u[2] <= 0.5 + 1e-9);
    mass += p.mass[i];
  }
  EXPECT_NEAR(mass, 500 * 0.5 * 0.25 * 0.5, 1e-9);
  EXPECT_EQ(p.size(), 8u * 4u * 8u * 8u);  // the regular lattice: 2 per cell axis over 8 x 4 x 8 cells
}

TEST(MpmScene, BadInputIsOneMessageNamingTheKey) {
  auto with = [](const std::function<void(nlohmann::json&)>& change) {
    nlohmann::json j = sand_scene();
    change(j);
    return mpm_scene_error(j);
  };
  auto expect_mentions = [](const std::string& message, const std::vector<std::string>& parts) {
    ASSERT_FALSE(message.empty()) << "no error; expected one mentioning " << parts.front();
    EXPECT_NE(message.find("sand.json"), std::string::npos) << message;
    for (const std::string& part : parts) EXPECT_NE(message.find(part), std::string::npos) << message;
  };
  expect_mentions(with([](auto& j) { j["mpm"]["kernel"] = "quartic"; }), {"mpm.kernel", "quadratic"});
  expect_mentions(with([](auto& j) { j["mpm"]["grids"] = 1; }), {"grids"});
  expect_mentions(with([](auto& j) { j["mpm"]["bodies"][0]["material"] = "mud"; }), {"material", "sand"});
  expect_mentions(with([](auto& j) { j["mpm"]["materials"][0].erase("plasticity"); }), {"friction_angle", "drucker_prager"});
  expect_mentions(with([](auto& j) { j["mpm"]["grid"]["cells"] = {32}; }), {"cells", "2 numbers"});
  expect_mentions(with([](auto& j) { j["mpm"]["materials"][0]["hardening"] = 10; }), {"materials[0].hardening", "snow"});
  expect_mentions(with([](auto& j) { j["mpm"]["materials"][2]["critical_compression"] = 1.5; }),
                  {"materials[2].critical_compression"});
  expect_mentions(with([](auto& j) { j["mpm"]["bodies"][0]["box"]["max"] = {0.3, 0.8}; }), {"max"});
  expect_mentions(with([](auto& j) { j["mpm"]["transfer"] = "apic"; }), {"flip_ratio", "flip"});
  expect_mentions(with([](auto& j) { j["bodies"] = nlohmann::json::array(); }), {"bodies", "MPM"});
  expect_mentions(with([](auto& j) { j["mpm"]["colliders"][0]["type"] = "cone"; }), {"type"});
  // A body outside the grid's interior: refused before sampling, with the interior's extent.
  expect_mentions(with([](auto& j) { j["mpm"]["bodies"][0]["box"] = {{"min", {0.9, 0.4}}, {"max", {1.2, 0.8}}}; }),
                  {"mpm.bodies[0].box", "outside the grid's interior", "0.96875"});
  // Sizes that would exhaust memory are refused before anything is allocated.
  expect_mentions(mpm_scene_error(R"json({"dim": 3, "mpm": {"grid": {"cells": [512, 512, 512], "spacing": 0.01},
                                   "materials": [{}], "bodies": [{"box": {"min": [1, 1, 1], "max": [2, 2, 2]}}]}})json"_json),
                  {"mpm.grid.cells", "limit"});
  expect_mentions(with([](auto& j) { j["mpm"]["bodies"][0]["particles_per_cell"] = 1000; j["mpm"]["grid"]["cells"] = {2048, 2048};
                                     j["mpm"]["grid"]["spacing"] = 1.0 / 2048; }),
                  {"particles_per_cell", "limit"});
  // Arrays where objects belong, and keys that must be given.
  expect_mentions(with([](auto& j) { j["mpm"]["bodies"][0]["box"] = {{0.4, 0.4}, {0.6, 0.8}}; }), {"box", "expected an object"});
  expect_mentions(with([](auto& j) { j["mpm"]["colliders"][0] = {1, 2}; }), {"colliders[0]", "expected an object"});
  expect_mentions(with([](auto& j) { j["mpm"]["colliders"][0].erase("type"); }), {"type", "missing"});
  expect_mentions(with([](auto& j) { j["mpm"]["colliders"][0].erase("radius"); }), {"radius", "missing"});
  expect_mentions(with([](auto& j) { j["mpm"]["bodies"][0]["box"].erase("min"); }), {"min", "missing"});
  expect_mentions(with([](auto& j) { j["mpm"]["walls"]["nodes"] = 16; }), {"walls.nodes", "whole grid"});
  expect_mentions(with([](auto& j) { j["mpm"]["bodies"][0]["seed"] = 3; }), {"seed", "poisson"});
  expect_mentions(with([](auto& j) { j["mpm"]["grid"]["cells"] = {4294967328LL, 32}; }), {"cells"});
  // Regions: exactly one; a mesh that is missing, outside the grid or of the wrong kind.
  expect_mentions(with([](auto& j) { j["mpm"]["bodies"][0]["sphere"] = {{"center", {0.5, 0.5}}, {"radius", 0.1}}; }),
                  {"mpm.bodies[0]", "exactly one of"});
  expect_mentions(with([](auto& j) { j["mpm"]["bodies"][0].erase("box"); }), {"mpm.bodies[0]", "missing its region"});
  expect_mentions(with([](auto& j) { j["mpm"]["bodies"][0]["transform"] = nlohmann::json::object(); }),
                  {"transform", "mesh"});
  expect_mentions(with([](auto& j) { j["mpm"]["bodies"][0] = {{"sphere", {{"center", {0.5, 0.5}}, {"radius", 0.6}}}}; }),
                  {"mpm.bodies[0].sphere", "outside the grid's interior"});
  expect_mentions(with([](auto& j) { j["mpm"]["bodies"][0] = {{"mesh", "nowhere.obj"}}; }), {"nowhere.obj"});
  {
    test::TempDir dir("mpm_bad_mesh");
    write_l_shape(dir.path() / "l.obj");
    nlohmann::json j = sand_scene();
    j["mpm"]["bodies"][0] = {{"mesh", "l.obj"}};  // 2 m across: off the 1 m grid
    try {
      build_mpm_solver<2>(parse_mpm_scene(j, dir.path() / "sand.json"));
      FAIL() << "a mesh off the grid was accepted";
    } catch (const InputError& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("mpm.bodies[0].mesh"), std::string::npos) << m;
      EXPECT_NE(m.find("l.obj"), std::string::npos) << m;
      EXPECT_NE(m.find("outside the grid's interior"), std::string::npos) << m;
    }
    // A transform that overflows: refused by name, not sampled from NaN coordinates.
    j["mpm"]["bodies"][0] = {{"mesh", "l.obj"}, {"transform", {{"scale", {1e308, 1e308}}, {"rotate", 45}}}};
    try {
      build_mpm_solver<2>(parse_mpm_scene(j, dir.path() / "sand.json"));
      FAIL() << "a mesh with non-finite coordinates was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("not finite"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("mpm.bodies[0].mesh"), std::string::npos) << e.what();
    }
    // A ring so thin that the only lattice point, at its centre, falls in its hole.
    write_square_ring(dir.path() / "ring.obj");
    j["mpm"]["bodies"][0] = {{"mesh", "ring.obj"}, {"transform", {{"scale", {0.001, 0.001}}, {"translate", {0.5, 0.5}}}}};
    try {
      build_mpm_solver<2>(parse_mpm_scene(j, dir.path() / "sand.json"));
      FAIL() << "a body smaller than the particle spacing was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("no particle"), std::string::npos) << e.what();
    }
  }
  // A FEM reading of an MPM scene says what it is, before reading a key MPM reads differently.
  try {
    parse_scene(sand_scene(), "sand.json");  // gravity has 2 numbers and dim is 2 here anyway
    FAIL() << "parsed as a FEM scene";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("MPM"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace softsim
