// A pile of rigid affine boxes (docs/subspace-bodies.md): N boxes of 0.1 m (one cell, 8 vertices,
// 5 tetrahedra, 12 coordinates each), slightly turned, dropped in a lattice into an open
// container (a static mesh obstacle), IPC contact with friction mu 0.3, backward Euler, h = 0.01.
// Every frame is checked for intersections with the exact test of the test suite (the boxes'
// surfaces and the container's triangles). Prints one row per N: time per step, Newton
// iterations per step, intersections, and how far the boxes are from rest at the end.
//   bench_affine_pile [--bodies 50,200,800] [--steps 150] [--threads N] [--rigid-tolerance 1e-6]
// --rigid-tolerance: the boxes' affine.tolerance (1 in effect turns the stiffening off).
#include <tbb/global_control.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "../tests/support/contact_scene.hpp"
#include "softsim/integrate/stepper.hpp"
#include "softsim/io/read_mesh.hpp"
#include "softsim/io/write_mesh.hpp"
#include "softsim/scene/scene.hpp"

using namespace softsim;

namespace {

// An open box (no lid): floor at y = 0, walls up to `height`, inner half-width `half`; normals
// pointing inwards do not matter to the barrier (unsigned distances).
void write_container(const std::filesystem::path& path, double half, double height) {
  Eigen::MatrixXd V(8, 3);
  V << -half, 0, -half, half, 0, -half, half, 0, half, -half, 0, half,  //
      -half, height, -half, half, height, -half, half, height, half, -half, height, half;
  Eigen::MatrixXi F(10, 3);
  F << 0, 1, 2, 0, 2, 3,  // floor
      0, 4, 5, 0, 5, 1,   // z = -half
      1, 5, 6, 1, 6, 2,   // x = +half
      2, 6, 7, 2, 7, 3,   // z = +half
      3, 7, 4, 3, 4, 0;   // x = -half
  write_obj(path, V, F);
}

struct PileResult {
  int bodies = 0, steps = 0, newton = 0, failed = 0;
  std::size_t intersections = 0;
  double seconds = 0.0, check_seconds = 0.0, final_speed = 0.0;
  int coordinates = 0;
};

PileResult run_pile(int n, int steps, double tolerance, const std::filesystem::path& dir) {
  const double size = 0.1, spacing = 0.16;
  const int columns = static_cast<int>(std::ceil(std::sqrt(n / 4.0)));  // about 4 layers
  const double half = 0.5 * columns * spacing + 0.05;
  const std::filesystem::path container = dir / "container.obj";
  write_container(container, half, 4.0);
  nlohmann::json j = {{"dim", 3},
                      {"time", {{"dt", 0.01}, {"steps", steps}}},
                      {"gravity", {0, -9.81, 0}},
                      {"contact", {{"dhat", 1e-3}, {"friction", {{"mu", 0.3}}}}},
                      {"obstacles", {{{"name", "container"}, {"type", "mesh"}, {"mesh", container.string()}}}}};
  j["bodies"] = nlohmann::json::array();
  for (int b = 0; b < n; ++b) {
    const int layer = b / (columns * columns), in_layer = b % (columns * columns);
    const int ix = in_layer % columns, iz = in_layer / columns;
    const double x = -0.5 * (columns - 1) * spacing + ix * spacing;
    const double z = -0.5 * (columns - 1) * spacing + iz * spacing;
    const double y = 0.1 + layer * spacing;
    j["bodies"].push_back({{"name", "box" + std::to_string(b)},
                           {"kind", "affine"},
                           {"affine", {{"rigid", true}, {"tolerance", tolerance}}},
                           {"generator", {{"type", "box"}, {"size", {size, size, size}}, {"resolution", {1, 1, 1}}}},
                           {"material", {{"density", 500}}},
                           {"transform",
                            {{"translate", {x, y, z}},
                             {"rotate", {7.0 * ((b * 7) % 5), 11.0 * ((b * 3) % 4), 5.0 * ((b * 5) % 7)}}}}});
  }
  const Scene scene = parse_scene(j, (dir / "pile.json").string());
  Model model = build_model(scene);
  auto stepper = make_stepper(model, scene.integrator);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  // The boxes' surfaces and the container, for the exact intersection check.
  const Eigen::MatrixXi boxes = test::surface_primitives(model);
  Eigen::MatrixXd container_v(8, 3);
  Eigen::MatrixXi container_f(10, 3);
  {
    const Mesh c = read_mesh(container, 3);
    container_v = c.vertices;
    container_f = c.cells;
  }
  Eigen::MatrixXi all(boxes.rows() + container_f.rows(), 3);
  all << boxes, container_f.array() + model.num_vertices();
  PileResult r;
  r.bodies = n;
  r.coordinates = model.subspace.num_coordinates();
  for (int s = 0; s < steps; ++s) {
    const auto t0 = std::chrono::steady_clock::now();
    const StepResult step = stepper->step(state, scene.dt);
    const auto t1 = std::chrono::steady_clock::now();
    r.seconds += std::chrono::duration<double>(t1 - t0).count();
    r.newton += step.newton_iterations;
    r.failed += step.converged ? 0 : 1;
    ++r.steps;
    Eigen::MatrixXd V(model.num_vertices() + 8, 3);
    V << as_rows(state.x, 3), container_v;
    r.intersections = std::max(r.intersections, test::triangle_intersections(V, all).size());
    r.check_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
    if (!step.converged) break;
  }
  r.final_speed = test::max_speed(model, state.v);
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> counts{50, 200, 800};
  int steps = 150, threads = 0;
  double tolerance = 1e-6;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--bodies") && i + 1 < argc) {
      counts.clear();
      std::stringstream list(argv[++i]);
      for (std::string item; std::getline(list, item, ',');) counts.push_back(std::stoi(item));
    } else if (!std::strcmp(argv[i], "--steps") && i + 1 < argc) {
      steps = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--rigid-tolerance") && i + 1 < argc) {
      tolerance = std::atof(argv[++i]);
    } else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) {
      threads = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr, "unknown or incomplete argument %s (see the comment at the top of bench_affine_pile.cpp)\n",
                   argv[i]);
      return 2;
    }
  }
  std::unique_ptr<tbb::global_control> limit;
  if (threads > 0) limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, threads);
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "softsim_affine_pile";
  std::filesystem::create_directories(dir);
  std::printf("| boxes | coordinates | steps | ms per step | Newton its per step | failed steps | max intersections | "
              "final max speed (m/s) |\n|---|---|---|---|---|---|---|---|\n");
  for (int n : counts) {
    const PileResult r = run_pile(n, steps, tolerance, dir);
    std::printf("| %d | %d | %d | %.1f | %.2f | %d | %zu | %.3g |\n", r.bodies, r.coordinates, r.steps,
                1e3 * r.seconds / r.steps, double(r.newton) / r.steps, r.failed, r.intersections, r.final_speed);
    std::fflush(stdout);
  }
  std::filesystem::remove_all(dir);
  return 0;
}
