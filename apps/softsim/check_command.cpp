#include <fmt/format.h>

#include "softsim/core/errors.hpp"
#include "softsim/peer_scenes/scene_source.hpp"

#include "commands.hpp"
#include "softsim/scene/mpm_scene.hpp"
#include "softsim/scene/pbf_scene.hpp"
#include "softsim/io/read_mesh.hpp"
#include "softsim/mesh/element_quality.hpp"
#include "softsim/mesh/quality.hpp"
#include "softsim/meshing/surface_checks.hpp"
#include "softsim/scene/scene.hpp"
#include "softsim/scene/scene_stepper.hpp"

namespace softsim::cli {

namespace {

template <int D>
void check_mpm(const MpmScene& scene, const std::string& scene_path) {
  const MpmSolver<D> solver = build_mpm_solver<D>(scene);  // samples every body, checks the grid
  fmt::print("{}: ok (MPM, {}D, {} bod{}, {} particles, grid {} cells of {:g} m, {} steps of {:g} s; CFL limit {:.3g} s "
             "at the start)\n",
             scene_path, D, scene.bodies.size(), scene.bodies.size() == 1 ? "y" : "ies", solver.particles().size(),
             fmt::join(scene.cells.data(), scene.cells.data() + D, " x "), scene.dx, scene.steps, scene.dt,
             solver.stable_time_step(1.0));
  if (scene.dt > solver.stable_time_step(1.0)) fmt::print("warning: time.dt exceeds the CFL limit\n");
}

template <int D>
void check_pbf(const PbfScene& scene, const std::string& scene_path) {
  const PbfSolver<D> solver = build_pbf_solver<D>(scene);  // samples every fluid, checks the tank
  fmt::print("{}: ok (PBF, {}D, {} fluid{}, {} particles of {:.3g} kg, spacing {:g} m, kernel radius {:g} m, {} steps of "
             "{:g} s)\n",
             scene_path, D, scene.fluids.size(), scene.fluids.size() == 1 ? "" : "s", solver.size(),
             solver.particle_mass(), scene.options.spacing, solver.kernel_radius(), scene.steps, scene.dt);
}

}  // namespace

int check_command(const std::string& scene_path) {
  const SceneSource source = read_scene_source(scene_path);  // softsim, IPC or PolyFEM
  const nlohmann::json& json = source.json;
  if (is_mpm_scene(json)) {
    const MpmScene mpm = parse_mpm_scene(json, scene_path);
    if (mpm.dim == 2) check_mpm<2>(mpm, scene_path);
    else check_mpm<3>(mpm, scene_path);
    return 0;
  }
  if (is_pbf_scene(json)) {
    const PbfScene pbf = parse_pbf_scene(json, scene_path);
    if (pbf.dim == 2) check_pbf<2>(pbf, scene_path);
    else check_pbf<3>(pbf, scene_path);
    return 0;
  }
  const Scene scene = parse_scene(json, scene_path);
  const Model model = build_model(scene);  // loads and validates every mesh
  make_scene_stepper(scene, model);        // and what the integrator refuses of the model
  int elements = 0;
  for (const Body& b : model.bodies) elements += b.mesh.num_cells();
  const std::size_t bodies = model.bodies.size();
  fmt::print("{}: ok ({}D, {} bod{}, {} vertices, {} elements, {} steps of {:g} s, integrator {})\n", scene_path,
             scene.dim, bodies, bodies == 1 ? "y" : "ies", model.num_vertices(), elements, scene.steps, scene.dt,
             name_of(scene.integrator.type));
  if (source.format != SceneFormat::softsim)
    fmt::print("note: read as {} scene; `softsim convert {} --out scene.json` writes what was understood\n",
               name_of(source.format), scene_path);
  for (const std::string& note : source.notes) fmt::print("note: {}\n", note);
  const BuildMessages messages = describe_build(model);
  for (const std::string& note : messages.notes) fmt::print("note: {}\n", note);
  for (const std::string& warning : messages.warnings) fmt::print("warning: {}\n", warning);
  return 0;
}

namespace {

void print_quality(const Mesh& mesh) {
  const QualitySummary q = summarize_quality(mesh);
  if (!q.has_quality) return;
  const bool surface = mesh.dim() == 3 && mesh.cell_type() == CellType::Triangle;
  fmt::print("quality: {} min {:.3g} (cell {}) mean {:.3g} degrees; radius ratio (1 = regular) min {:.3g} (cell {}) "
             "mean {:.3g}\n",
             q.angle_name, q.worst_angle, q.worst_angle_cell, q.mean_angle, q.worst_radius_ratio,
             q.worst_radius_ratio_cell, q.mean_radius_ratio);
  if (surface) return;  // a surface gets the summary line only
  fmt::print("{}", format_histogram(q.angle_histogram, q.angle_name + " (degrees):", 1));
  fmt::print("{}", format_histogram(q.radius_ratio_histogram, "radius ratio:", 2));
  if (q.worst_angle < kPoorElementAngleDegrees)
    fmt::print("warning: cells with a {} below {:g} degrees make the Newton systems ill-conditioned\n", q.angle_name,
               kPoorElementAngleDegrees);
}

// Whether a triangle surface could bound a solid (what `tetrahedralize` would say).
void print_closed_surface_check(const Mesh& mesh, const std::string& path) {
  Mesh copy = mesh;
  try {
    const SurfaceCheckReport r = check_closed_surface(copy, path);
    fmt::print("closed surface: yes ({} piece{}, enclosed volume {:.6g}{}); it can be tetrahedralized\n",
               r.num_components, r.num_components == 1 ? "" : "s", r.enclosed_volume,
               r.faces_reoriented ? fmt::format(", {} faces would be turned to agree with their neighbours",
                                                r.faces_reoriented)
                                  : std::string());
  } catch (const InputError& e) {
    fmt::print("closed surface: no: {}\n", e.what());
  }
}

}  // namespace

int info_command(const std::string& path, int dim) {
  const Mesh mesh = read_mesh(path, dim);
  const MeshReport r = inspect_mesh(mesh);
  fmt::print("mesh: {}\n", path);
  fmt::print("dimension: {}\nvertices: {}\ncells: {} ({})\n", r.dim, r.num_vertices, r.num_cells,
             to_string(mesh.cell_type()));
  fmt::print("bounding box: min [{}] max [{}] diagonal {:.6g}\n", fmt::join(r.bbox_min, ", "), fmt::join(r.bbox_max, ", "),
             r.bbox_diagonal);
  fmt::print("cell measure: min {:.6g} max {:.6g} total {:.6g}\n", r.min_measure, r.max_measure, r.total_measure);
  fmt::print("aspect ratio (1 = regular): min {:.4g} max {:.4g} mean {:.4g}\n", r.min_aspect_ratio, r.max_aspect_ratio,
             r.mean_aspect_ratio);
  fmt::print("surface: {} faces, {} edges, {} vertices\n", r.num_surface_faces, r.num_surface_edges, r.num_surface_vertices);
  fmt::print("inverted cells: {}\ndegenerate cells: {}\n", r.num_inverted, r.num_degenerate);
  for (const std::string& note : mesh.notes) fmt::print("note: {}\n", note);
  print_quality(mesh);
  if (mesh.dim() == 3 && mesh.cell_type() == CellType::Triangle) print_closed_surface_check(mesh, path);
  return 0;
}

}  // namespace softsim::cli
