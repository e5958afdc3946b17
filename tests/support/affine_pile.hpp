#pragma once
// A pile of rigid affine boxes dropped into an open container (a static mesh obstacle), shared by
// the pile test (tests/scenes/affine_body_test.cpp, a few boxes) and its benchmark
// (bench/bench_affine_pile.cpp, 50 to 800): boxes of 0.1 m (one cell, 8 vertices, 5 tetrahedra,
// 12 coordinates each), slightly turned, in a lattice of about four layers; IPC contact with
// friction mu 0.3, backward Euler, h = 0.01. The intersection check covers the boxes' surfaces and
// the container's triangles (contact_scene.hpp's check sees bodies only).
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "softsim/io/write_mesh.hpp"
#include "softsim/model/model.hpp"
#include "contact_scene.hpp"

namespace softsim::test {

struct AffinePile {
  nlohmann::json scene;
  Eigen::MatrixXd container_vertices;
  Eigen::MatrixXi container_faces;
};

// An open box (no lid): floor at y = 0, walls up to `height`, inner half-width `half`, as OBJ at
// `path`; normals pointing inwards do not matter to the barrier (unsigned distances).
inline void write_open_container(const std::filesystem::path& path, double half, double height,
                                 AffinePile& pile) {
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
  pile.container_vertices = V;
  pile.container_faces = F;
}

// `n` boxes with the rigid tolerance `tolerance`, `steps` steps; the container is written into
// `dir`.
inline AffinePile affine_pile(int n, int steps, double tolerance, const std::filesystem::path& dir) {
  const double size = 0.1, spacing = 0.16;
  const int columns = static_cast<int>(std::ceil(std::sqrt(n / 4.0)));  // about 4 layers
  const double half = 0.5 * columns * spacing + 0.05;
  AffinePile pile;
  const std::filesystem::path container = dir / "container.obj";
  write_open_container(container, half, 4.0, pile);
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
  pile.scene = j;
  return pile;
}

// Intersecting triangle pairs among the boxes' surfaces (`boxes`: surface_primitives(model)) and
// the container at x.
inline std::size_t pile_intersections(const Model& model, const Eigen::MatrixXi& boxes, const AffinePile& pile,
                                      const VecX& x) {
  const Eigen::Index nc = pile.container_vertices.rows();
  Eigen::MatrixXd V(model.num_vertices() + nc, 3);
  V << as_rows(x, 3), pile.container_vertices;
  Eigen::MatrixXi all(boxes.rows() + pile.container_faces.rows(), 3);
  all << boxes, pile.container_faces.array() + model.num_vertices();
  return triangle_intersections(V, all).size();
}

}  // namespace softsim::test
