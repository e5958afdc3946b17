#include "commands.hpp"

#include "softsim/integrate/damping_analysis.hpp"

namespace softsim::cli {

void Commands::add_all(CLI::App& app) {
  auto* run = app.add_subcommand("run", "Run a scene (the built-in default scene when none is given)");
  run->add_option("scene", run_scene_, "Scene file: softsim JSON, IPC .txt or PolyFEM JSON");
  auto* out = run->add_option("--out", run_out_, "Output directory (frames/, stats.csv, summary.json)")->capture_default_str();
  run->add_option("--resume", run_resume_,
                  "Continue the run whose output directory this is, from its checkpoint.bin (written every "
                  "output.checkpoint_every steps and on Ctrl-C); the scene defaults to the one it ran")
      ->excludes(out);
  auto* steps = run->add_option("--steps", run_steps_, "Number of steps (overrides the scene)")->check(CLI::NonNegativeNumber);
  run->add_option("--end", run_end_, "End time in seconds (overrides the scene)")->check(CLI::PositiveNumber)->excludes(steps);
  run->add_option("--threads", run_threads_, "Worker threads (0: all cores)")->check(CLI::NonNegativeNumber);
  run->add_flag("--quiet", run_quiet_, "No progress output");
  run->callback([this] {
    chosen_ = [this] { return run_command(run_scene_, run_resume_.empty() ? run_out_ : run_resume_, !run_resume_.empty(),
                                      run_steps_, run_end_, run_threads_, run_quiet_); };
  });

  auto* check = app.add_subcommand("check", "Validate a scene and the meshes it names, without running");
  check->add_option("scene", check_scene_, "Scene file: softsim JSON, IPC .txt or PolyFEM JSON")->required();
  check->callback([this] { chosen_ = [this] { return check_command(check_scene_); }; });

  auto* convert = app.add_subcommand(
      "convert", "Write the softsim scene of an IPC (.txt) or PolyFEM (.json) scene, to read and edit what was understood");
  convert->add_option("scene", convert_in_, "IPC or PolyFEM scene file")->required();
  convert->add_option("--out", convert_out_, "softsim scene to write (JSON)")->required();
  convert->callback([this] { chosen_ = [this] { return convert_command(convert_in_, convert_out_); }; });

  auto* reduce = app.add_subcommand("reduce", "Write a reduced body's basis (modes, POD of a run, modes + modal derivatives)");
  reduce->add_option("scene", reduce_.scene, "Scene file (JSON)")->required();
  reduce->add_option("--body", reduce_.body, "The body to reduce (by name; optional for a one-body scene)");
  reduce->add_option("--basis", reduce_.basis, "modes | pod | modes+derivatives")
      ->check(CLI::IsMember({"modes", "pod", "modes+derivatives"}))
      ->capture_default_str();
  reduce->add_option("--size", reduce_.size, "Number of basis columns r")->check(CLI::Range(1, 100000))->capture_default_str();
  reduce->add_option("--snapshots", reduce_.snapshots, "pod: the output folder of a run of the scene (its VTU frames)");
  reduce->add_option("--cubature", reduce_.cubature,
                     "Solids: fit a cubature of at most T elements on the basis and store it in the file")
      ->check(CLI::Range(1, 1 << 30));
  reduce->add_option("--cubature-tolerance", reduce_.cubature_tolerance,
                     "Relative training error at which the cubature fit stops")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  reduce->add_option("--out", reduce_.out, "Basis file to write (JSON)")->required();
  reduce->callback([this] { chosen_ = [this] { return reduce_command(reduce_); }; });

  auto* info = app.add_subcommand("info", "Print counts, bounding box and element quality of a mesh");
  info->add_option("mesh", info_mesh_, "Mesh file (.msh, .node/.ele, .obj, .ply, .stl, .mesh)")->required();
  info->add_option("--dim", info_dim_, "Dimension for .obj meshes (2: a 2D body)")->check(CLI::IsMember({2, 3}));
  info->callback([this] { chosen_ = [this] { return info_command(info_mesh_, info_dim_); }; });

  auto* mesh = app.add_subcommand("mesh", "Tetrahedralize a closed triangle surface (TetGen) and write the tets");
  mesh->add_option("surface", mesh_.input, "Closed surface (.obj, .ply, .stl, .msh triangles, .mesh)")->required();
  mesh->add_option("--out", mesh_.out, "Tet mesh to write (.msh, gmsh 4.1)")->required();
  auto* edge = mesh->add_option("--edge-length", mesh_.edge_length,
                                "Target edge length: no tet larger than the regular tet of this edge (m)")
                   ->check(CLI::PositiveNumber);
  mesh->add_option("--max-volume", mesh_.max_volume, "Largest tet volume (m^3)")->check(CLI::PositiveNumber)->excludes(edge);
  mesh->add_option("--radius-edge", mesh_.max_radius_edge_ratio, "Largest circumradius / shortest edge of a tet")
      ->check(CLI::Range(1.0, 1e6))->capture_default_str();
  mesh->add_option("--min-dihedral", mesh_.min_dihedral_degrees, "Smallest dihedral angle of a tet (degrees)")
      ->check(CLI::Range(0.0, 18.0))->capture_default_str();
  mesh->add_flag("--keep-surface", mesh_.keep_surface,
                 "Keep the surface's triangles exactly (no point added on it; the bounds may then not be met near it)");
  mesh->callback([this] { chosen_ = [this] { return mesh_command(mesh_); }; });

  auto* view = app.add_subcommand("view", "Play a run's frames in 3D in the browser beside plots of its stats");
  view->add_option("run", view_run_, "Output directory of a run")->required();
  view->add_option("--port", view_port_, "Port on 127.0.0.1 (0: any free one)")->check(CLI::Range(0, 65535))->capture_default_str();
  view->add_option("--export", view_export_, "Write a static site that opens from the disk instead of serving");
  view->callback([this] {
    chosen_ = [this] {
      std::vector<std::string> args{view_run_, "--port", std::to_string(view_port_)};
      if (!view_export_.empty()) args.insert(args.end(), {"--export", view_export_});
      return python_tool_command("view", args);
    };
  });

  auto* plot = app.add_subcommand("plot", "Plot a run's energy, Newton iterations and contact distance; or compare runs");
  plot->add_option("runs", plot_runs_, "Output directories of runs")->required();
  plot->add_option("--out", plot_out_, "Figure file (.png, .svg, .pdf); default RUN/plot.png");
  plot->add_option("--labels", plot_labels_, "Comma-separated names of the runs (default: their folder names)");
  plot->add_option("--title", plot_title_, "Figure title");
  plot->callback([this] {
    chosen_ = [this] {
      std::vector<std::string> args = plot_runs_;
      if (!plot_out_.empty()) args.insert(args.end(), {"--out", plot_out_});
      if (!plot_labels_.empty()) args.insert(args.end(), {"--labels", plot_labels_});
      if (!plot_title_.empty()) args.insert(args.end(), {"--title", plot_title_});
      return python_tool_command("plot", args);
    };
  });

  auto* ccd = app.add_subcommand("ccd", "Run additive CCD on CCD benchmark query files and count errors");
  ccd->add_option("files", ccd_files_, "Query CSV files (Wang 2021 or scalable-ccd format)")->required()->check(CLI::ExistingFile);
  ccd->add_option("--type", ccd_type_, "vf (vertex-face) or ee (edge-edge); default: from the path")
      ->check(CLI::IsMember({"vf", "ee"}));
  ccd->add_option("--toi", ccd_toi_, "Write index,toi of every query reported colliding");
  ccd->callback([this] { chosen_ = [this] { return ccd_command(ccd_files_, ccd_type_, ccd_toi_); }; });

  auto* analyze = app.add_subcommand("analyze", "Analyses of the numerical methods");
  analyze->require_subcommand(1);
  auto* damping = analyze->add_subcommand("damping", "Damping curve d/omega(omega h) of an integrator (CSV)");
  damping->add_option("--method", analyze_.method, "Integrator")
      ->required()
      ->check(CLI::IsMember(softsim::damping_method_names()));
  auto* range = damping->add_option("--range", analyze_.range, "omega*h range a:b (log-spaced)")->capture_default_str();
  damping->add_option("--at", analyze_.at, "Comma-separated omega*h values")->excludes(range);
  damping->add_option("--points", analyze_.points, "Points in --range")->check(CLI::PositiveNumber)->capture_default_str();
  damping->add_option("--plot", analyze_.plot, "Also write an SVG plot");
  damping->add_option("--beta", analyze_.beta, "Newmark beta")->capture_default_str();
  damping->add_option("--gamma", analyze_.gamma, "Newmark gamma")->capture_default_str();
  damping->add_option("--rho-inf", analyze_.rho_inf, "Generalized-alpha rho_inf")->capture_default_str();
  damping->add_option("--subspace", analyze_.subspace,
                      "Additive exponential methods: the mode inside or outside the modal subspace")
      ->check(CLI::IsMember({"inside", "outside"}))
      ->capture_default_str();
  damping->add_option("--history", analyze_.history,
                      "bdf2ere, sbdf2ere, str_sbdf2ere: difference terms on the subspace's complement or the full state")
      ->check(CLI::IsMember(softsim::names_of<softsim::SubspaceHistory>()))
      ->capture_default_str();
  damping->callback([this] { chosen_ = [this] { return analyze_damping_command(analyze_); }; });
  auto* modes = analyze->add_subcommand("modes", "Lowest modes K x = lambda M x of a scene at rest (CSV, VTU, SVG)");
  modes->add_option("scene", modes_.scene, "Scene file (JSON)")->required();
  modes->add_option("--count", modes_.count, "Number of modes s")->check(CLI::PositiveNumber)->capture_default_str();
  modes->add_option("--out", modes_.out, "Directory for modes.csv and the mode shapes mode_NNN_<body>.vtu");
  modes->add_option("--plot", modes_.plot, "Also write an SVG plot of the spectrum");
  modes->callback([this] { chosen_ = [this] { return analyze_modes_command(modes_); }; });
}

int Commands::execute() { return chosen_ ? chosen_() : 2; }

}  // namespace softsim::cli
