#pragma once
// Running a contact scene through the production path (read_scene -> build_model ->
// make_stepper) with the exact intersection check (tests/support/intersection_check.hpp) after
// every step.
#include <gtest/gtest.h>

#include <cstdio>
#include <functional>

#include "softsim/contact/barrier/ipc_contact.hpp"
#include "softsim/integrate/stepper.hpp"
#include "softsim/scene/scene.hpp"
#include "body_rows.hpp"
#include "intersection_check.hpp"
#include "scene_file.hpp"

namespace softsim::test {

// Every body's collision surface with global vertex ids: 3D: the boundary faces of solids and the
// triangles of shells; 2D: the boundary edges of solids. Mass-spring bodies have none.
inline Eigen::MatrixXi surface_primitives(const Model& model) {
  std::vector<Eigen::MatrixXi> blocks;
  for (const Body& body : model.bodies) {
    const CellType type = body.mesh.cell_type();
    if (type == CellType::Edge) continue;
    const Eigen::MatrixXi& p = model.dim() == 3 ? body.surface.faces : body.surface.edges;
    blocks.push_back(p.array() + body.first_vertex);
  }
  const int cols = model.dim() == 3 ? 3 : 2;
  Eigen::Index rows = 0;
  for (const auto& b : blocks) rows += b.rows();
  Eigen::MatrixXi all(rows, cols);
  rows = 0;
  for (const auto& b : blocks) {
    all.middleRows(rows, b.rows()) = b;
    rows += b.rows();
  }
  return all;
}

// Intersecting pairs among all collision surfaces at x, except pairs of two kinematic bodies
// (Body::kinematic: scripted colliders, which contact ignores between themselves, may cross).
inline std::size_t count_intersections(const Model& model, const Eigen::MatrixXi& prims, const VecX& x) {
  const Eigen::MatrixXd V = as_rows(x, model.dim());
  const auto pairs = model.dim() == 3 ? triangle_intersections(V, prims) : segment_intersections_2d(V, prims);
  std::vector<char> kinematic(static_cast<std::size_t>(model.num_vertices()), 0);
  for (const Body& body : model.bodies)
    if (body.kinematic) std::fill_n(kinematic.begin() + body.first_vertex, body.mesh.num_vertices(), char(1));
  std::size_t count = 0;
  for (const auto& [a, b] : pairs) count += !(kinematic[static_cast<std::size_t>(prims(a, 0))] && kinematic[static_cast<std::size_t>(prims(b, 0))]);
  return count;
}

inline const IpcContact* find_ipc(const Model& model) {
  for (const auto& e : model.energies())
    if (auto* c = dynamic_cast<const IpcContact*>(e.get())) return c;
  return nullptr;
}

inline double max_speed(const Model& model, const VecX& v) {
  return as_rows(v, model.dim()).rowwise().norm().maxCoeff();
}

struct RunStats {
  int steps = 0, failed_steps = 0, newton_iterations = 0;
  std::size_t max_intersections = 0;
  int first_intersection_step = -1;
  double seconds = 0.0;
};

// Steps the scene `steps` times, checking intersections after each step and calling `each`
// (with the stepper, whose data() holds the run's contact stiffness).
inline RunStats run_scene(const Scene& scene, Model& model, State& state, int steps,
                          const std::function<void(int, const StepResult&, const Stepper&)>& each = {}) {
  auto stepper = make_stepper(model, scene.integrator);
  const Eigen::MatrixXi prims = surface_primitives(model);
  RunStats s;
  EXPECT_EQ(count_intersections(model, prims, state.x), 0u) << "initial state";
  const auto t0 = std::chrono::steady_clock::now();
  for (int n = 0; n < steps; ++n) {
    const StepResult r = stepper->step(state, scene.dt);
    ++s.steps;
    s.newton_iterations += r.newton_iterations;
    if (!r.converged) {
      ++s.failed_steps;
      ADD_FAILURE() << "step " << n << " did not converge: " << r.failure;
    }
    const std::size_t k = count_intersections(model, prims, state.x);
    if (k > 0 && s.first_intersection_step < 0) s.first_intersection_step = n;
    s.max_intersections = std::max(s.max_intersections, k);
    if (!state.x.allFinite()) {
      ADD_FAILURE() << "non-finite state at step " << n;
      break;
    }
    if (each) each(n, r, *stepper);
  }
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return s;
}

inline void print_stats(const char* name, const RunStats& s) {
  std::printf("[ scene ] %s: %d steps, %d Newton iterations (%.1f/step), %d failed, max intersections %zu, %.2f s\n",
              name, s.steps, s.newton_iterations, s.steps ? double(s.newton_iterations) / s.steps : 0.0,
              s.failed_steps, s.max_intersections, s.seconds);
}

}  // namespace softsim::test
