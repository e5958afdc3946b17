// Constraint contact's phases (Zeng & Courtecuisse 2023, Table 1) on the CPU: a soft column
// (neo-Hookean, E = 1e5 Pa) resting on the plane y = 0, its bottom nodes the contacts, at four sizes
// near the paper's 18K, 24K, 30K and 36K DOFs with 300-500 contacts; 5 Newton iterations of the
// recursive corrective motion with 30 PGS sweeps each (the paper's settings), for the standard
// update (W_i from A^-1 every iteration) and the fast one (W_g once per step, products after).
// Per step, averaged over the measured steps: Build, Rebuild, PGS, Corr. (and the fast update's
// one solve after the loop, Final), Newton it. = (Rebuild + PGS + Corr.) / 5, Total = Build + 5
// Newton it. + Final, Update % = (Rebuild + Corr.) / Newton it., and the fast update's speed-up
// per Newton iteration and over the whole correction. Then the same column with IPC contact
// (barrier on the plane): time per step and the deepest penetration of each model.
//
//   bench_constraint_contact [--steps N] [--sizes K] [--threads T]
// Prints CSV: size,dofs,contacts,method,build_ms,rebuild_ms,pgs_ms,corr_ms,final_ms,newton_it_ms,
// total_ms,update_percent,step_ms,deepest_gap_m
#include <tbb/global_control.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>

#include "softsim/integrate/constraint/constraint_stepper.hpp"
#include "softsim/scene/scene.hpp"

using namespace softsim;

namespace {

nlohmann::json column_scene(const Eigen::Vector3i& cells, const std::string& contact, const std::string& update) {
  const double cell = 0.01;  // m
  const Vec3 size = cells.cast<double>() * cell;
  nlohmann::json j = {
      {"dim", 3},
      {"time", {{"dt", 0.01}, {"steps", 1}}},
      {"bodies",
       {{{"name", "column"},
         {"generator", {{"type", "box"}, {"size", {size.x(), size.y(), size.z()}}, {"resolution", {cells.x(), cells.y(), cells.z()}}}},
         {"transform", {{"translate", {0.0, 0.5 * size.y() + (contact == "barrier" ? 2e-4 : 0.0), 0.0}}}},
         {"material", {{"model", "neo_hookean"}, {"E", 1e5}, {"nu", 0.3}, {"density", 1000}}}}}},
      {"obstacles", {{{"type", "plane"}, {"point", {0, 0, 0}}, {"normal", {0, 1, 0}}}}}};
  if (contact == "constraint")
    j["contact"] = {{"type", "constraint"},
                    {"friction", {{"mu", 0.3}}},
                    {"constraint", {{"update", update}, {"newton_iterations", 5}, {"pgs_iterations", 30}, {"pgs_tolerance", 0}}}};
  else
    j["contact"] = {{"enabled", false}, {"dhat", 1e-3}, {"friction", {{"mu", 0.3}}}};  // the plane's barrier only
  return j;
}

struct Row {
  int dofs = 0;
  double contacts = 0, step_ms = 0, deepest = HUGE_VAL;
  ConstraintPhaseTimes t;
};

Row run(const Eigen::Vector3i& cells, const std::string& contact, const std::string& update, int steps) {
  const Scene scene = parse_scene(column_scene(cells, contact, update), "column.json");
  Model model = build_model(scene);
  auto stepper = make_stepper(model, scene.integrator);
  auto* constraint = dynamic_cast<ConstraintStepper*>(stepper.get());
  State state{model.rest_positions, VecX::Zero(model.num_dofs()), 0.0};
  Row row;
  row.dofs = model.num_dofs();
  stepper->step(state, scene.dt);  // warm-up: the column settles onto the plane, analyses are made
  for (int s = 0; s < steps; ++s) {
    const auto start = std::chrono::steady_clock::now();
    const StepResult r = stepper->step(state, scene.dt);
    row.step_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (!r.converged) std::fprintf(stderr, "step failed: %s\n", r.failure.c_str());
    if (constraint) {
      const ConstraintPhaseTimes& t = constraint->last_times();
      row.t.build_ms += t.build_ms;
      row.t.rebuild_ms += t.rebuild_ms;
      row.t.pgs_ms += t.pgs_ms;
      row.t.correction_ms += t.correction_ms;
      row.t.final_ms += t.final_ms;
      row.contacts += static_cast<double>(constraint->last_contacts().size());
      for (const ContactForce& f : *constraint->contact_forces()) row.deepest = std::min(row.deepest, f.gap);
    } else {
      const auto X = as_rows(state.x, 3);
      row.deepest = std::min(row.deepest, X.col(1).minCoeff());
    }
  }
  const double n = steps;
  row.step_ms /= n;
  row.contacts /= n;
  row.t.build_ms /= n;
  row.t.rebuild_ms /= n;
  row.t.pgs_ms /= n;
  row.t.correction_ms /= n;
  row.t.final_ms /= n;
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  int steps = 3, sizes = 4, threads = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--steps")) steps = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--sizes")) sizes = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--threads")) threads = std::atoi(argv[i + 1]);
  }
  std::unique_ptr<tbb::global_control> control;
  if (threads > 0) control = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, threads);
  // Columns of 1 cm cells: (cells + 1)^3 nodes, the bottom layer (cx + 1)(cz + 1) in contact.
  const Eigen::Vector3i columns[] = {{16, 19, 17}, {18, 21, 19}, {19, 24, 20}, {21, 24, 22}};
  std::printf("size,dofs,contacts,method,build_ms,rebuild_ms,pgs_ms,corr_ms,final_ms,newton_it_ms,total_ms,update_percent,"
              "step_ms,deepest_gap_m\n");
  for (int k = 0; k < std::min(sizes, 4); ++k) {
    double newton_it[2] = {0, 0}, total[2] = {0, 0};
    int i = 0;
    for (const char* update : {"standard", "fast"}) {
      const Row r = run(columns[k], "constraint", update, steps);
      const ConstraintPhaseTimes& t = r.t;
      const double it = (t.rebuild_ms + t.pgs_ms + t.correction_ms) / 5.0;
      const double all = t.build_ms + 5.0 * it + t.final_ms;
      newton_it[i] = it;
      total[i++] = all;
      std::printf("%d,%d,%.1f,%s,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.3g\n", k, r.dofs, r.contacts, update,
                  t.build_ms, t.rebuild_ms / 5, t.pgs_ms / 5, t.correction_ms / 5, t.final_ms, it, all,
                  100.0 * (t.rebuild_ms + t.correction_ms) / 5.0 / it, r.step_ms, r.deepest);
      std::fflush(stdout);
    }
    const Row ipc = run(columns[k], "barrier", "", steps);
    std::printf("%d,%d,,ipc,,,,,,,,,%.2f,%.3g\n", k, ipc.dofs, ipc.step_ms, ipc.deepest);
    std::printf("# size %d: fast update speed-up per Newton iteration %.2fx, over the whole correction %.2fx\n", k,
                newton_it[0] / newton_it[1], total[0] / total[1]);
    std::fflush(stdout);
  }
  return 0;
}
