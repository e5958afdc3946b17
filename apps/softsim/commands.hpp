#pragma once
// The subcommands of the softsim tool, each registered on the CLI11 app and run after parsing.
#include <CLI/CLI.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace softsim::cli {

struct AnalyzeOptions {
  std::string method = "backward_euler", range = "0.01:100", at, plot;
  int points = 100;
  double beta = 0.25, gamma = 0.5, rho_inf = 0.5;
  std::string subspace = "outside";  // additive exponential methods: the mode inside / outside the subspace
  std::string history = "complement";  // bdf2ere, sbdf2ere, str_sbdf2ere (SubspaceHistory)
};

struct ModesOptions {
  std::string scene, out, plot;
  int count = 20;
};

struct ReduceOptions {
  std::string scene, body, basis = "modes", out, snapshots;
  int size = 20;
  int cubature = 0;                 // > 0: fit a cubature of at most this many elements, stored in the file
  double cubature_tolerance = 0.01;
};

struct MeshOptions {
  std::string input, out;
  std::optional<double> edge_length, max_volume;
  double max_radius_edge_ratio = 1.5, min_dihedral_degrees = 10.0;
  bool keep_surface = false;
};

class Commands {
 public:
  void add_all(CLI::App& app);
  int execute();  // runs the chosen subcommand; returns the exit code

 private:
  std::function<int()> chosen_;
  // run
  std::string run_scene_, run_out_ = "output", run_resume_;
  std::optional<int> run_steps_;
  std::optional<double> run_end_;
  int run_threads_ = 0;
  bool run_quiet_ = false;
  // check / info
  std::string check_scene_, info_mesh_;
  int info_dim_ = 3;
  // convert
  std::string convert_in_, convert_out_;
  // analyze damping
  AnalyzeOptions analyze_;
  ModesOptions modes_;
  ReduceOptions reduce_;
  MeshOptions mesh_;
  // view / plot (Python tools)
  std::string view_run_, view_export_;
  int view_port_ = 8000;
  std::vector<std::string> plot_runs_;
  std::string plot_out_, plot_labels_, plot_title_;
  // ccd
  std::vector<std::string> ccd_files_;
  std::string ccd_type_, ccd_toi_;
};

// resume: continue the run in `out` from its checkpoint; an empty scene is then the one it ran.
int run_command(const std::string& scene, const std::string& out, bool resume, std::optional<int> steps,
                std::optional<double> end, int threads, bool quiet);
int check_command(const std::string& scene);
int convert_command(const std::string& in, const std::string& out);
int analyze_damping_command(const AnalyzeOptions& options);
int analyze_modes_command(const ModesOptions& options);
int reduce_command(const ReduceOptions& options);
int info_command(const std::string& mesh, int dim);
int mesh_command(const MeshOptions& options);
// Runs python/softsim/<tool>.py with args in place of this process (view, plot).
int python_tool_command(const std::string& tool, const std::vector<std::string>& args);
int ccd_command(const std::vector<std::string>& files, const std::string& type, const std::string& toi_out);

}  // namespace softsim::cli
