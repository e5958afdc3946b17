#include <fmt/format.h>

#include "commands.hpp"
#include "softsim/io/read_mesh.hpp"
#include "softsim/mesh/quality.hpp"
#include "softsim/scene/scene.hpp"

namespace softsim::cli {

int check_command(const std::string& scene_path) {
  const Scene scene = read_scene(scene_path);
  const Model model = build_model(scene);  // loads and validates every mesh
  int elements = 0;
  for (const Body& b : model.bodies) elements += b.mesh.num_cells();
  const std::size_t bodies = model.bodies.size();
  fmt::print("{}: ok ({}D, {} bod{}, {} vertices, {} elements, {} steps of {:g} s, integrator {})\n", scene_path,
             scene.dim, bodies, bodies == 1 ? "y" : "ies", model.num_vertices(), elements, scene.steps, scene.dt,
             name_of(scene.integrator.type));
  return 0;
}

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
  return 0;
}

}  // namespace softsim::cli
