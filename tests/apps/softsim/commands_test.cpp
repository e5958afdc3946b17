// End-to-end runs of the softsim tool: usage and exit codes, a tiny valid scene and its
// outputs, SIGINT handling, `info` on a mesh file, and a run that fails.
#include <signal.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <thread>

#include "apps/softsim/cli_support.hpp"
#include "softsim/io/write_mesh.hpp"
#include "softsim/mesh/generators.hpp"

namespace softsim_cli_test {
namespace {

// Files listed by a .pvd (file="..." attributes), relative to its directory.
std::vector<std::string> pvd_files(const fs::path& pvd) {
  std::vector<std::string> files;
  const std::string text = read_text(pvd);
  const std::regex attr(R"(file\s*=\s*"([^"]+)\")");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), attr); it != std::sregex_iterator(); ++it)
    files.push_back((*it)[1].str());
  return files;
}

std::vector<fs::path> files_with_extension(const fs::path& dir, const std::string& ext) {
  std::vector<fs::path> out;
  if (!fs::exists(dir)) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ext) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// ---- usage ----

TEST(Usage, VersionExitsZero) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("version");
  const Result r = run_tool({"--version"}, tmp.path());
  ASSERT_TRUE(r.exited) << r;
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_NE(r.out.find("softsim"), std::string::npos) << r;
}

TEST(Usage, HelpOfEverySubcommandExitsZero) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("help");
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"--help"}, {"run", "--help"}, {"check", "--help"}, {"info", "--help"}}) {
    const Result r = run_tool(args, tmp.path());
    ASSERT_TRUE(r.exited) << r;
    EXPECT_EQ(r.code, 0) << args[0] << "\n" << r;
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << args[0] << "\n" << r;
  }
}

TEST(Usage, UnknownSubcommandOrOptionExitsTwo) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("usage");
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {},
           {"frobnicate"},
           {"run", "--no-such-option"},
           {"run", "--steps", "-3"},
           {"run", "--steps", "3", "--end", "1"},
           {"check"},
           {"info", "x.msh", "--dim", "4"}}) {
    const Result r = run_tool(args, tmp.path());
    std::string joined;
    for (const auto& a : args) joined += a + " ";
    ASSERT_TRUE(r.exited) << joined << "\n" << r;
    EXPECT_EQ(r.code, 2) << joined << "\n" << r;
    EXPECT_FALSE(r.err.empty()) << joined << ": no message on stderr\n" << r;
  }
  EXPECT_FALSE(fs::exists(tmp.path() / "output")) << "a usage error must not start a run";
}

// Inputs that are not files of the corpus: a directory as the scene, a missing scene, a file
// as --out. Bad input (2), one "error: <path>: ..." line, no crash.
TEST(Usage, BadPathsExitTwoWithOneLine) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("paths");
  const std::string a_file = (tmp.path() / "a_file").string();
  { std::ofstream(a_file) << "x"; }
  const std::string tiny = (data_dir() / "scenes" / "tiny_box.json").string();
  struct Case {
    std::vector<std::string> args;
    std::string fragment;
  };
  for (const Case& c : std::vector<Case>{
           {{"check", tmp.path().string()}, tmp.path().string() + ": expected a scene file (JSON), found a directory"},
           {{"run", tmp.path().string(), "--out", (tmp.path() / "o").string()}, "found a directory"},
           {{"check", (tmp.path() / "nope.json").string()}, "nope.json: cannot open the scene file"},
           {{"run", tiny, "--out", a_file, "--quiet"}, a_file + ": --out: cannot create the output directory"},
           {{"info", (tmp.path() / "nope.msh").string()}, "nope.msh: the mesh file does not exist"},
           {{"run", tiny, "--end", "1e12", "--out", (tmp.path() / "o").string()}, "--end: 1e+12 s at dt = 0.01 s"}}) {
    const Result r = run_tool(c.args, tmp.path());
    ASSERT_TRUE(r.exited) << c.args[1] << "\n" << r;
    EXPECT_EQ(r.code, 2) << c.args[1] << "\n" << r;
    const auto lines = lines_of(r.err);
    ASSERT_EQ(lines.size(), 1u) << r;
    EXPECT_EQ(lines[0].rfind("error: ", 0), 0u) << r;
    EXPECT_NE(lines[0].find(c.fragment), std::string::npos) << "expected \"" << c.fragment << "\"\n" << r;
  }
  EXPECT_FALSE(fs::exists(tmp.path() / "o")) << "a bad scene must not create the output directory";
}

TEST(Usage, CheckOfAValidSceneSaysOk) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("check_ok");
  const Result r = run_tool({"check", (data_dir() / "scenes" / "tiny_box.json").string()}, tmp.path());
  ASSERT_TRUE(r.exited) << r;
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_NE(r.out.find("tiny_box.json: ok"), std::string::npos) << r;
  EXPECT_NE(r.out.find("3 steps"), std::string::npos) << r;
}

// Every example scene in scenes/ stays valid: `softsim check` builds its model (meshes, the
// initial_equilibrium solves) and says ok. A scene whose mesh lives in ../shared/data is skipped
// where that folder is absent (a user's clone).
TEST(Usage, EveryExampleSceneChecksOk) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("check_examples");
  const std::vector<fs::path> scenes = files_with_extension(fs::path(SOFTSIM_SOURCE_DIR) / "scenes", ".json");
  ASSERT_GE(scenes.size(), 20u);
  int checked = 0;
  for (const fs::path& scene : scenes) {
    std::ifstream in(scene);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (text.find("shared/data") != std::string::npos &&
        !fs::exists(fs::path(SOFTSIM_SOURCE_DIR).parent_path() / "shared" / "data")) {
      std::printf("[ skipped ] %s: its mesh is in ../shared/data, absent here\n", scene.filename().c_str());
      continue;
    }
    const Result r = run_tool({"check", scene.string()}, tmp.path());
    ASSERT_TRUE(r.exited) << scene << r;
    EXPECT_EQ(r.code, 0) << scene << r;
    EXPECT_NE(r.out.find(": ok"), std::string::npos) << scene << r;
    ++checked;
  }
  std::printf("[ check ] %d of %zu example scenes ok\n", checked, scenes.size());
}

// ---- a tiny valid run ----

TEST(Run, TinyBoxWritesCompleteOutputs) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("tiny");
  const fs::path out = tmp.path() / "out";
  const Result r = run_tool({"run", (data_dir() / "scenes" / "tiny_box.json").string(), "--out", out.string(),
                             "--threads", "1", "--quiet"},
                            tmp.path());
  ASSERT_TRUE(r.exited) << r;
  ASSERT_EQ(r.code, 0) << r;

  const nlohmann::json summary = read_json(out / "summary.json");
  EXPECT_EQ(summary.value("status", ""), "ok") << summary.dump(2);
  EXPECT_EQ(summary.value("steps_done", -1), 3) << summary.dump(2);

  const auto stats = lines_of(read_text(out / "stats.csv"));
  ASSERT_EQ(stats.size(), 4u) << read_text(out / "stats.csv");
  EXPECT_EQ(stats[0], "step,t,newton_iters,linear_iters,residual,kinetic,potential,total_energy,min_distance,wall_ms,krylov_dim");
  for (int i = 1; i <= 3; ++i) EXPECT_EQ(stats[i].rfind(std::to_string(i) + ",", 0), 0u) << stats[i];

  const fs::path frames = out / "frames";
  const auto vtus = files_with_extension(frames, ".vtu");
  EXPECT_EQ(vtus.size(), 4u) << "frames 0..3 expected (output.every = 1)";
  EXPECT_FALSE(files_with_extension(frames, ".obj").empty()) << "surface_*.obj expected (formats has obj)";
  EXPECT_TRUE(fs::exists(frames / "frame_00000.vtu"));
  EXPECT_TRUE(fs::exists(frames / "frame_00003.vtu"));
  EXPECT_TRUE(fs::exists(frames / "surface_00003.obj"));

  ASSERT_TRUE(fs::exists(frames / "simulation.pvd"));
  const auto listed = pvd_files(frames / "simulation.pvd");
  EXPECT_EQ(listed.size(), vtus.size()) << read_text(frames / "simulation.pvd");
  for (const auto& f : listed) EXPECT_TRUE(fs::exists(frames / f)) << f << " is listed in the .pvd but missing";
  for (const auto& v : vtus)
    EXPECT_NE(std::find(listed.begin(), listed.end(), v.filename().string()), listed.end())
        << v.filename() << " is not listed in the .pvd";

  EXPECT_TRUE(files_with_extension(out, ".tmp").empty()) << "a *.tmp file was left behind";
}

// Constraint contact writes every contact's multipliers after every step (contact_forces.csv).
TEST(Run, ConstraintContactWritesContactForces) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("contact_forces");
  const fs::path out = tmp.path() / "out";
  const fs::path scene = fs::path(SOFTSIM_SOURCE_DIR) / "scenes" / "constraint_block_on_slope.json";
  const Result r = run_tool({"run", scene.string(), "--out", out.string(), "--steps", "3", "--threads", "1", "--quiet"},
                            tmp.path());
  ASSERT_TRUE(r.exited) << r;
  ASSERT_EQ(r.code, 0) << r;
  const auto rows = lines_of(read_text(out / "contact_forces.csv"));
  ASSERT_GE(rows.size(), 2u);
  EXPECT_EQ(rows[0],
            "step,t,contact,kind,vertex,feature0,feature1,feature2,obstacle,gap,normal_force,tangential_force,fx,fy,fz");
  // The block (8 kg) slides on the tilted plane: at step 3 the normal forces carry m g cos(10 deg)
  // = 77.3 N and the tangential ones are mu = 0.177 times them (sliding).
  double normal = 0.0, tangential = 0.0;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    std::vector<std::string> cells;
    std::stringstream line(rows[i]);
    for (std::string cell; std::getline(line, cell, ',');) cells.push_back(cell);
    ASSERT_EQ(cells.size(), 15u) << rows[i];
    if (cells[0] != "3") continue;
    EXPECT_EQ(cells[3], "point_obstacle");
    normal += std::stod(cells[10]);
    tangential += std::stod(cells[11]);
  }
  EXPECT_NEAR(normal, 8.0 * 9.66096, 1e-3 * 8.0 * 9.66096);
  EXPECT_NEAR(tangential, 0.177 * normal, 1e-6 * normal);
}

TEST(Run, EveryVtuIsWellFormedXml) {
  SOFTSIM_REQUIRE_TOOL();
  if (!fs::exists("/usr/bin/xmllint")) GTEST_SKIP() << "/usr/bin/xmllint not installed; .vtu XML not validated";
  TempDir tmp("xml");
  const fs::path out = tmp.path() / "out";
  const Result r =
      run_tool({"run", (data_dir() / "scenes" / "tiny_box.json").string(), "--out", out.string(), "--quiet"},
               tmp.path());
  ASSERT_EQ(r.code, 0) << r;
  auto files = files_with_extension(out / "frames", ".vtu");
  files.push_back(out / "frames" / "simulation.pvd");
  ASSERT_GT(files.size(), 1u);
  for (const auto& f : files) {
    const std::string cmd = "/usr/bin/xmllint --noout " + quote(f.string()) + " 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << f << " is not well-formed XML";
  }
}

TEST(Run, StepsOverrideOnTheCommandLine) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("steps");
  const fs::path out = tmp.path() / "out";
  const Result r = run_tool({"run", (data_dir() / "scenes" / "tiny_box.json").string(), "--out", out.string(),
                             "--steps", "2", "--quiet"},
                            tmp.path());
  ASSERT_EQ(r.code, 0) << r;
  const nlohmann::json summary = read_json(out / "summary.json");
  EXPECT_EQ(summary.value("steps_done", -1), 2) << summary.dump(2);
  EXPECT_EQ(lines_of(read_text(out / "stats.csv")).size(), 3u);
}

// ---- SIGINT ----

// Starts `softsim run long_run.json --out OUT` in the background (stderr to `log`); returns its pid.
pid_t start_long_run(const fs::path& out, const std::string& log) {
  const std::string scene = (data_dir() / "scenes" / "long_run.json").string();
  return start_tool({"run", scene, "--out", out.string(), "--threads", "1", "--quiet"}, log);
}

TEST(Run, SigintStopsAfterTheCurrentStepWithExit130) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("sigint");
  const fs::path out = tmp.path() / "out";
  const std::string log = (tmp.path() / "stderr.txt").string();
  const pid_t pid = start_long_run(out, log);
  ASSERT_GE(pid, 0);
  // Wait for the run to start (summary.json is written before the first step) and to finish
  // at least one step (a row in stats.csv), then interrupt it.
  const Interruption stop = interrupt_when(
      pid, [&] { return fs::exists(out / "summary.json") && lines_of(read_text(out / "stats.csv")).size() >= 2; },
      std::chrono::seconds(20), std::chrono::seconds(10));
  ASSERT_FALSE(stop.ended_early) << "softsim ended before it was interrupted:\n" << read_text(log);
  ASSERT_TRUE(stop.stopped) << "softsim did not stop within 10 s of SIGINT";
  const int status = stop.status;
  const bool started = stop.started;
  ASSERT_TRUE(started) << "the run did not start within 20 s:\n" << read_text(log);
  ASSERT_TRUE(WIFEXITED(status)) << "softsim was killed by signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  EXPECT_EQ(WEXITSTATUS(status), 130) << read_text(log);
  EXPECT_NE(read_text(log).find("interrupted"), std::string::npos) << read_text(log);
  // Ctrl-C leaves a checkpoint of the last finished step, and says how to continue.
  EXPECT_NE(read_text(log).find("softsim run --resume"), std::string::npos) << read_text(log);
  EXPECT_TRUE(fs::exists(out / "checkpoint.bin"));

  const nlohmann::json summary = read_json(out / "summary.json");
  EXPECT_EQ(summary.value("status", ""), "interrupted") << summary.dump(2);
  EXPECT_GE(summary.value("steps_done", -1), 1) << summary.dump(2);
  EXPECT_LT(summary.value("steps_done", -1), 1000000) << summary.dump(2);
  // stats.csv has one row per finished step.
  EXPECT_EQ(lines_of(read_text(out / "stats.csv")).size(), summary.value("steps_done", -1) + 1u);

  const fs::path pvd = out / "frames" / "simulation.pvd";
  ASSERT_TRUE(fs::exists(pvd));
  const auto listed = pvd_files(pvd);
  EXPECT_FALSE(listed.empty());
  for (const auto& f : listed) EXPECT_TRUE(fs::exists(out / "frames" / f)) << f << " is listed in the .pvd but missing";
  EXPECT_TRUE(files_with_extension(out, ".tmp").empty()) << "a *.tmp file was left behind";
}

TEST(Run, SummarySaysRunningWithTheLastFinishedStepUntilTheRunEnds) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("running");
  const fs::path out = tmp.path() / "out";
  const std::string log = (tmp.path() / "stderr.txt").string();
  const pid_t pid = start_long_run(out, log);
  ASSERT_GE(pid, 0);
  // The summary is rewritten about once a second while the run goes on: wait for one that
  // counts finished steps, then kill the run without warning (as a power loss would).
  nlohmann::json summary;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    if (fs::exists(out / "summary.json")) {
      summary = read_json(out / "summary.json");
      if (summary.value("steps_done", 0) >= 1) break;
      EXPECT_EQ(summary.value("status", ""), "running") << summary.dump(2);
    }
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) FAIL() << "softsim ended before it was killed:\n" << read_text(log);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  summary = read_json(out / "summary.json");
  EXPECT_EQ(summary.value("status", ""), "running") << summary.dump(2);
  EXPECT_GE(summary.value("steps_done", -1), 1) << summary.dump(2);
  // stats.csv is flushed every step, so it holds at least the steps the summary counts.
  EXPECT_GE(lines_of(read_text(out / "stats.csv")).size(), summary.value("steps_done", -1) + 1u);
}

// ---- info ----

TEST(Info, PrintsVertexAndCellCountsOfAWrittenMesh) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("info");
  const softsim::Mesh box = softsim::generate_box(softsim::Vec3(1.0, 0.5, 0.5), Eigen::Vector3i(2, 1, 1));
  const fs::path v41 = tmp.path() / "box_v41.msh", v22 = tmp.path() / "box_v22.msh";
  softsim::write_msh41_ascii(v41, box);
  softsim::write_msh22_ascii(v22, box);
  for (const fs::path& mesh : {v41, v22}) {
    const Result r = run_tool({"info", mesh.string()}, tmp.path());
    ASSERT_TRUE(r.exited) << r;
    EXPECT_EQ(r.code, 0) << r;
    EXPECT_NE(r.out.find("vertices: " + std::to_string(box.num_vertices()) + "\n"), std::string::npos) << r;
    EXPECT_NE(r.out.find("cells: " + std::to_string(box.num_cells()) + " "), std::string::npos) << r;
    EXPECT_NE(r.out.find("dimension: 3"), std::string::npos) << r;
    EXPECT_NE(r.out.find("inverted cells: 0"), std::string::npos) << r;
    EXPECT_TRUE(r.err.empty()) << r;
  }
}

// ---- a failing run ----

TEST(Run, NewtonFailureWithOnFailureErrorExitsOne) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("fail");
  const fs::path out = tmp.path() / "out";
  const Result r = run_tool({"run", (data_dir() / "scenes" / "newton_cannot_converge.json").string(), "--out",
                             out.string(), "--threads", "1", "--quiet"},
                            tmp.path());
  ASSERT_TRUE(r.exited) << r;
  EXPECT_EQ(r.code, 1) << r;
  const auto lines = lines_of(r.err);
  ASSERT_FALSE(lines.empty()) << r;
  EXPECT_EQ(lines.back().rfind("error: ", 0), 0u) << r;
  EXPECT_NE(lines.back().find("did not converge"), std::string::npos) << r;
  const nlohmann::json summary = read_json(out / "summary.json");
  EXPECT_EQ(summary.value("status", ""), "failed") << summary.dump(2);
  EXPECT_NE(summary.value("message", "").find("on_failure"), std::string::npos) << summary.dump(2);
  EXPECT_TRUE(files_with_extension(out, ".tmp").empty()) << "a *.tmp file was left behind";
}

}  // namespace
}  // namespace softsim_cli_test
