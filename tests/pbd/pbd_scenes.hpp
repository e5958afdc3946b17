#pragma once
// Scenes for the position-based integrators' tests: a 2D cantilever, a hanging cloth, a closed
// balloon (an icosphere shell with the enclosed-volume law), each built to a Model.
#include <nlohmann/json.hpp>

#include <filesystem>
#include <memory>
#include <string>

#include "softsim/integrate/stepper.hpp"
#include "softsim/scene/scene.hpp"
#include "softsim/scene/scene_stepper.hpp"
#include "support/icosphere.hpp"

namespace softsim::test {

struct PbdRun {
  Scene scene;
  Model model;  // built in place: a finalized Model must not move (its terms point into it)
  std::unique_ptr<Stepper> stepper;
  State state;
  explicit PbdRun(const nlohmann::json& j, const std::string& file = "pbd.json")
      : scene(parse_scene(j, file)), model(build_model(scene)) {
    stepper = make_scene_stepper(scene, model);
    state = State{model.rest_positions, model.initial_velocity, 0.0};
  }
  void run(int steps) {
    for (int s = 0; s < steps; ++s) stepper->step(state, scene.dt);
  }
};

// A 2D plane-strain cantilever, L x L/5, clamped at x = 0, sagging under gravity.
inline nlohmann::json pbd_cantilever(const std::string& integrator, double E = 2e4, int cells_x = 10) {
  return {{"dim", 2},
          {"time", {{"dt", 0.01}, {"steps", 1}}},
          {"gravity", {0, -9.81}},
          {"integrator", {{"type", integrator}}},
          {"solver", {{"tolerance", 1e-10}, {"max_iterations", 200}}},
          {"bodies",
           {{{"name", "beam"},
             {"generator", {{"type", "rectangle"}, {"size", {1.0, 0.2}}, {"resolution", {cells_x, cells_x / 5}}}},
             {"transform", {{"translate", {0.5, 0.0}}}},
             {"material", {{"model", "stable_neo_hookean"}, {"E", E}, {"nu", 0.3}, {"density", 100}}},
             {"fixed", {{{"box", {{-0.01, -1}, {0.01, 1}}}}}}}}}};
}

// The vertical displacement of the cantilever's tip (the vertex at x = 1, y = 0.1).
inline double cantilever_tip_sag(const Model& model, const VecX& x) {
  double best = -1.0, sag = 0.0;
  for (int i = 0; i < model.num_vertices(); ++i) {
    const double score = model.rest_positions[2 * i] + model.rest_positions[2 * i + 1];
    if (score > best) {
      best = score;
      sag = x[2 * i + 1] - model.rest_positions[2 * i + 1];
    }
  }
  return sag;
}

// A 3D neo-Hookean cantilever of tetrahedra, 1 x 0.1 x 0.1 m (cells_x x 1 x 1 cubes of 5 tets),
// rho = 1000, clamped at x = 0, sagging under gravity.
inline nlohmann::json pbd_cantilever_3d(const std::string& integrator, double E, int cells_x = 3) {
  return {{"dim", 3},
          {"time", {{"dt", 0.01}, {"steps", 1}}},
          {"gravity", {0, -9.81, 0}},
          {"integrator", {{"type", integrator}}},
          {"solver", {{"tolerance", 1e-10}, {"max_iterations", 200}}},
          {"contact", {{"enabled", false}}},
          {"bodies",
           {{{"name", "beam"},
             {"generator", {{"type", "box"}, {"size", {1.0, 0.1, 0.1}}, {"resolution", {cells_x, 1, 1}}}},
             {"transform", {{"translate", {0.5, 0.0, 0.0}}}},
             {"material", {{"model", "neo_hookean"}, {"E", E}, {"nu", 0.3}, {"density", 1000}}},
             {"fixed", {{{"box", {{-0.01, -1, -1}, {0.01, 1, 1}}}}}}}}}};
}

// The mean vertical displacement of the 3D cantilever's free end (the vertices at x = 1).
inline double cantilever_3d_tip_sag(const Model& model, const VecX& x) {
  double sum = 0.0;
  int count = 0;
  for (int i = 0; i < model.num_vertices(); ++i)
    if (model.rest_positions[3 * i] > 1.0 - 1e-9) {
      sum += x[3 * i + 1] - model.rest_positions[3 * i + 1];
      ++count;
    }
  return sum / count;
}

// A 0.5 x 0.5 m cloth (StVK membrane with hinge bending) pinned along one edge, hanging.
inline nlohmann::json pbd_hanging_cloth(const std::string& integrator, int cells = 6) {
  return {{"dim", 3},
          {"time", {{"dt", 0.01}, {"steps", 1}}},
          {"gravity", {0, -9.81, 0}},
          {"integrator", {{"type", integrator}}},
          {"solver", {{"tolerance", 1e-10}, {"max_iterations", 300}}},
          {"contact", {{"enabled", false}}},
          {"bodies",
           {{{"name", "cloth"},
             {"kind", "shell"},
             {"generator", {{"type", "sheet"}, {"size", {0.5, 1, 0.5}}, {"resolution", {cells, 1, cells}}}},
             {"transform", {{"rotate", {90, 0, 0}}}},
             {"material",
              {{"model", "stvk"}, {"E", 1e5}, {"nu", 0.3}, {"density", 200}, {"thickness", 0.001},
               {"bending_stiffness", 1e-4}}},
             {"fixed", {{{"box", {{-1, 0.24, -1}, {1, 0.26, 1}}}}}}}}}};
}

// A closed balloon: an icosphere shell (radius 0.1 m) written to dir, with the quadratic volume law.
inline nlohmann::json pbd_balloon(const std::filesystem::path& dir, double kappa_v = 1e-3) {
  std::filesystem::create_directories(dir);
  write_obj_surface(dir / "balloon.obj", icosphere(2, 0.1));
  return {{"dim", 3},
          {"time", {{"dt", 0.005}, {"steps", 1}}},
          {"gravity", {0, -9.81, 0}},
          {"integrator", {{"type", "xpbd"}, {"substeps", 10}, {"iterations", 2}}},
          {"contact", {{"enabled", false}}},
          {"bodies",
           {{{"name", "balloon"},
             {"kind", "shell"},
             {"mesh", "balloon.obj"},
             {"transform", {{"translate", {0, 0.1001, 0}}}},
             {"material", {{"model", "neo_hookean"}, {"E", 1e6}, {"nu", 0.3}, {"density", 500}, {"thickness", 0.001},
                           {"bending_stiffness", 1e-5}}},
             {"volume_penalty", {{"model", "quadratic"}, {"kappa_v", kappa_v}}}}}},
          {"obstacles", {{{"type", "plane"}, {"name", "ground"}, {"point", {0, 0, 0}}, {"normal", {0, 1, 0}}}}}};
}

// A 1 x 1 m cloth (24 x 24 cells) dropped on a small sphere above a ground plane, so that it
// drapes, reaches the ground and folds onto itself; contact between and within bodies is on
// unless `self_contact` is false.
inline nlohmann::json pbd_cloth_pile(bool self_contact, int cells = 24) {
  nlohmann::json contact = {{"dhat", 0.004}, {"friction", {{"mu", 0.3}}}};
  if (!self_contact) contact["enabled"] = false;
  return {{"dim", 3},
          {"time", {{"dt", 0.01}, {"steps", 1}}},
          {"gravity", {0, -9.81, 0}},
          {"integrator", {{"type", "xpbd"}, {"substeps", 10}, {"iterations", 1}}},
          {"contact", contact},
          {"bodies",
           {{{"name", "cloth"},
             {"kind", "shell"},
             {"generator", {{"type", "sheet"}, {"size", {1, 1, 1}}, {"resolution", {cells, 1, cells}}}},
             {"transform", {{"translate", {0.05, 0.3, 0.03}}}},
             {"material", {{"model", "stvk"}, {"E", 1e5}, {"nu", 0.3}, {"density", 200}, {"thickness", 0.001},
                           {"bending_stiffness", 1e-5}}}}}},
          {"obstacles",
           {{{"type", "sphere"}, {"name", "ball"}, {"center", {0, 0.1, 0}}, {"radius", 0.1}},
            {{"type", "plane"}, {"name", "ground"}, {"point", {0, 0, 0}}, {"normal", {0, 1, 0}}}}}};
}

}  // namespace softsim::test
