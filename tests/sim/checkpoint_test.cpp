// Checkpoints and resume (sim/checkpoint.hpp): a run continued from a checkpoint ends bitwise
// where the uninterrupted run ends, for every integrator family and every contact model; a
// corrupt, truncated or foreign checkpoint is refused with a message that says which.
#include "softsim/sim/checkpoint.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "softsim/core/errors.hpp"
#include "softsim/scene/scene.hpp"
#include "softsim/sim/simulation.hpp"
#include "support/run_comparison.hpp"
#include "support/small_scenes.hpp"
#include "support/temp_dir.hpp"
#include "support/text_lines.hpp"

namespace softsim {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using test::TempDir;

json small_scene(const std::string& name) {
  for (const auto& s : test::small_scenes())
    if (s.name == name) return s.json;
  ADD_FAILURE() << "no small scene " << name;
  return {};
}

// A box clamped at one end, swinging under gravity (no contact: every integrator can step it).
json clamped_box() {
  return {{"dim", 3},
          {"time", {{"dt", 0.01}, {"steps", 1}}},
          {"bodies",
           {{{"generator", {{"type", "box"}, {"size", {0.4, 0.1, 0.1}}, {"resolution", {4, 1, 1}}}},
             {"material", {{"model", "neo_hookean"}, {"E", 1e5}, {"nu", 0.3}, {"density", 1000}}},
             {"fixed", {{{"box", {{-0.21, -1, -1}, {-0.19, 1, 1}}}}}}}}}};
}

// A box 1 mm above a plane, pushed sideways: constraint contact with friction.
json constraint_box() {
  return {{"dim", 3},
          {"time", {{"dt", 0.01}, {"steps", 1}}},
          {"bodies",
           {{{"generator", {{"type", "box"}, {"size", {0.1, 0.1, 0.1}}, {"resolution", {2, 2, 2}}}},
             {"transform", {{"translate", {0, 0.051, 0}}}},
             {"initial_velocity", {0.2, 0, 0}},
             {"material", {{"model", "neo_hookean"}, {"E", 1e5}, {"nu", 0.3}, {"density", 1000}}}}}},
          {"obstacles", {{{"type", "plane"}, {"point", {0, 0, 0}}, {"normal", {0, 1, 0}}}}},
          {"contact", {{"type", "constraint"}, {"friction", {{"mu", 0.3}}}}}};
}

struct ResumeCase {
  std::string name;
  json scene;
};
void PrintTo(const ResumeCase& c, std::ostream* os) { *os << c.name; }

std::vector<ResumeCase> resume_cases() {
  std::vector<ResumeCase> cases;
  const auto with_integrator = [](json scene, const json& integrator) {
    scene["integrator"] = integrator;
    return scene;
  };
  // IPC with lagged friction under the three families of implicit methods, implicit friction
  // (residual form), penalty-driven motions against obstacles, penalty contact, volume penalties,
  // shells, 2D.
  cases.push_back({"ipc_lagged_friction_backward_euler", small_scene("ipc_lagged")});
  cases.push_back({"ipc_lagged_friction_bdf2", with_integrator(small_scene("ipc_lagged"), {{"type", "bdf2"}})});
  cases.push_back({"ipc_lagged_friction_tr_bdf2", with_integrator(small_scene("ipc_lagged"), {{"type", "tr_bdf2"}})});
  cases.push_back({"ipc_implicit_friction", small_scene("ipc_implicit")});
  cases.push_back({"penalty_motion_obstacles", small_scene("obstacles_lagged")});
  cases.push_back({"penalty_contact", small_scene("penalty_lagged")});
  cases.push_back({"volume_penalty", small_scene("volume")});
  cases.push_back({"shell_ipc_thickness", small_scene("shell")});
  cases.push_back({"two_d", small_scene("two_d")});
  cases.push_back({"generalized_alpha", with_integrator(clamped_box(), {{"type", "generalized_alpha"}})});
  cases.push_back({"semi_implicit", with_integrator(clamped_box(), {{"type", "backward_euler"}, {"semi_implicit", true}})});
  cases.push_back({"symplectic_euler", [&] {
                     json s = with_integrator(clamped_box(), {{"type", "symplectic_euler"}});
                     s["time"]["dt"] = 1e-4;
                     return s;
                   }()});
  // The modes are computed once, at the first step: they must come from the checkpoint.
  cases.push_back({"bdf2ere_modes_once",
                   with_integrator(clamped_box(), {{"type", "bdf2ere"}, {"modes", 4}, {"refresh_every", 0}})});
  cases.push_back({"ere", with_integrator(clamped_box(), {{"type", "ere"}})});
  cases.push_back({"constraint_contact", constraint_box()});
  // Stepped in its coordinates with deferred positions: the run continues from the coordinates
  // it stopped at, not from its positions taken back to coordinates (round-off apart); BDF2's
  // history and generalized-alpha's carried acceleration are coordinates too.
  for (const char* integrator : {"backward_euler", "trapezoidal", "bdf2", "generalized_alpha"}) {
    json s = with_integrator(clamped_box(), {{"type", integrator}});
    s["bodies"][0]["reduction"] = {{"basis", "modes+derivatives"}, {"size", 6}, {"cubature", {{"elements", 8}}}};
    s["contact"] = {{"enabled", false}};
    cases.push_back({std::string("reduced_cubature_in_coordinates_") + integrator, s});
  }
  // Position-based: nothing is carried between steps but the state (the multipliers restart
  // every substep); obstacle friction and a swinging clamped box.
  cases.push_back({"xpbd_obstacle_friction", [&] {
                     json s = constraint_box();
                     s["contact"] = {{"enabled", false}, {"friction", {{"mu", 0.3}}}};
                     s["integrator"] = {{"type", "xpbd"}, {"substeps", 4}, {"iterations", 2}};
                     return s;
                   }()});
  cases.push_back({"pbd", with_integrator(clamped_box(), {{"type", "pbd"}, {"substeps", 3}, {"pbd_stiffness", 0.5}})});
  return cases;
}

RunReport run(const json& scene_json, const fs::path& out, int steps, bool resume) {
  const Scene scene = parse_scene(scene_json, "resume.json");
  const Model model = build_model(scene);
  RunOptions options;
  options.out_dir = out;
  options.steps = steps;
  options.quiet = true;
  options.resume = resume;
  return run_simulation(scene, model, options);
}

class Resume : public ::testing::TestWithParam<ResumeCase> {};

TEST_P(Resume, EndsBitwiseWhereTheUninterruptedRunEnds) {
  constexpr int kSteps = 6, kStop = 3;
  json scene = GetParam().scene;
  scene["output"] = {{"checkpoint_every", 2}, {"formats", {"vtu"}}};
  TempDir tmp(GetParam().name);
  const fs::path straight = tmp.path() / "straight", resumed = tmp.path() / "resumed";
  const RunReport whole = run(scene, straight, kSteps, false);
  ASSERT_EQ(whole.status, RunStatus::Ok) << whole.message;
  // Stopped after step 3 (a checkpoint at the run's end), then continued to step 6: the
  // checkpoint of step 2 is overwritten by step 3's.
  const RunReport first = run(scene, resumed, kStop, false);
  ASSERT_EQ(first.status, RunStatus::Ok) << first.message;
  EXPECT_EQ(read_checkpoint(checkpoint_path(resumed)).step, kStop);
  const RunReport second = run(scene, resumed, kSteps, true);
  ASSERT_EQ(second.status, RunStatus::Ok) << second.message;
  EXPECT_EQ(second.steps_done, kSteps);

  // The same state, stepper state and table (but for wall time), and the same frames listed.
  test::expect_same_checkpointed_state(straight, resumed, kSteps);
  EXPECT_EQ(test::file_text(straight / "frames" / "simulation.pvd"), test::file_text(resumed / "frames" / "simulation.pvd"));
}

INSTANTIATE_TEST_SUITE_P(EveryIntegratorAndContactModel, Resume, ::testing::ValuesIn(resume_cases()),
                         [](const auto& info) { return info.param.name; });

// A finished run whose checkpoint is kept.
struct FinishedRun {
  TempDir tmp;
  fs::path out;
  json scene;
  explicit FinishedRun(const std::string& tag) : tmp(tag), out(tmp.path() / "out"), scene(clamped_box()) {
    scene["output"] = {{"checkpoint_every", 2}, {"formats", json::array()}};
    const RunReport r = run(scene, out, 2, false);
    EXPECT_EQ(r.status, RunStatus::Ok) << r.message;
  }
  std::string resume_error(int steps = 4) {
    try {
      run(scene, out, steps, true);
    } catch (const InputError& e) {
      return e.what();
    }
    return "(no error)";
  }
  void rewrite(const std::function<void(std::string&)>& edit) {
    std::string bytes = test::file_text(checkpoint_path(out));
    edit(bytes);
    std::ofstream(checkpoint_path(out), std::ios::binary | std::ios::trunc) << bytes;
  }
};

TEST(Checkpoint, ACorruptByteIsRefusedByTheChecksum) {
  FinishedRun r("corrupt");
  r.rewrite([](std::string& b) { b[b.size() / 2] ^= 0x10; });
  const std::string e = r.resume_error();
  EXPECT_NE(e.find("checkpoint.bin: the checkpoint is corrupt"), std::string::npos) << e;
}

TEST(Checkpoint, ATruncatedFileIsRefused) {
  FinishedRun r("truncated");
  r.rewrite([](std::string& b) { b.resize(b.size() - 100); });
  std::string e = r.resume_error();
  EXPECT_NE(e.find("truncated"), std::string::npos) << e;
  r.rewrite([](std::string& b) { b.resize(30); });  // inside the header
  e = r.resume_error();
  EXPECT_NE(e.find("truncated"), std::string::npos) << e;
}

TEST(Checkpoint, AnotherFileIsNotACheckpoint) {
  FinishedRun r("foreign");
  r.rewrite([](std::string& b) { b = "{\"not\": \"a checkpoint\"}"; });
  const std::string e = r.resume_error();
  EXPECT_NE(e.find("not a softsim checkpoint"), std::string::npos) << e;
}

TEST(Checkpoint, AMissingCheckpointIsNamed) {
  FinishedRun r("missing");
  fs::remove(checkpoint_path(r.out));
  const std::string e = r.resume_error();
  EXPECT_NE(e.find("checkpoint.bin: no checkpoint to resume from"), std::string::npos) << e;
}

TEST(Checkpoint, AnotherSceneIsRefused) {
  FinishedRun r("other_scene");
  r.scene["bodies"][0]["material"]["E"] = 2e5;  // the same mesh, another material
  std::string e = r.resume_error();
  EXPECT_NE(e.find("written by another scene"), std::string::npos) << e;
  r.scene = clamped_box();
  r.scene["bodies"][0]["generator"]["resolution"] = {5, 1, 1};  // another mesh
  e = r.resume_error();
  EXPECT_NE(e.find("written by another scene"), std::string::npos) << e;
  r.scene = clamped_box();
  r.scene["integrator"] = {{"type", "bdf2"}};
  e = r.resume_error();
  EXPECT_NE(e.find("integrator 'backward_euler'"), std::string::npos) << e;
}

TEST(Checkpoint, TheRunsLengthAndCheckpointCadenceMayChange) {
  FinishedRun r("extend");
  r.scene["time"]["steps"] = 50;
  r.scene["output"]["checkpoint_every"] = 1;
  EXPECT_EQ(r.resume_error(4), "(no error)");
  EXPECT_EQ(read_checkpoint(checkpoint_path(r.out)).step, 4);
}

TEST(Checkpoint, AStatsTableShorterThanTheCheckpointSaysIsRefused) {
  FinishedRun r("short_stats");
  fs::resize_file(r.out / "stats.csv", 10);
  const std::string e = r.resume_error();
  EXPECT_NE(e.find("stats.csv: 10 bytes, shorter than"), std::string::npos) << e;
}

TEST(Checkpoint, ResumingTrimsTheRowsOfStepsAfterTheCheckpoint) {
  FinishedRun r("trim");
  // Rows a killed run wrote after its last checkpoint are dropped, then written again.
  std::ofstream(r.out / "stats.csv", std::ios::app) << "3,junk\n4,junk\n";
  EXPECT_EQ(r.resume_error(4), "(no error)");
  const std::string stats = test::file_text(r.out / "stats.csv");
  EXPECT_EQ(stats.find("junk"), std::string::npos) << stats;
  EXPECT_EQ(std::count(stats.begin(), stats.end(), '\n'), 5) << stats;  // header + 4 steps
}

}  // namespace
}  // namespace softsim
