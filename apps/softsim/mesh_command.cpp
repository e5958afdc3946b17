#include <fmt/format.h>

#include <filesystem>

#include "commands.hpp"
#include "softsim/core/errors.hpp"
#include "softsim/io/read_mesh.hpp"
#include "softsim/io/write_mesh.hpp"
#include "softsim/mesh/element_quality.hpp"
#include "softsim/meshing/tetrahedralize.hpp"

namespace softsim::cli {

int mesh_command(const MeshOptions& o) {
  const std::filesystem::path out(o.out);
  if (out.extension() != ".msh")
    throw InputError(fmt::format("{}: --out: the tet mesh is written as gmsh .msh; give a name ending in .msh", o.out));
  TetrahedralizeOptions options;
  options.edge_length = o.edge_length;
  options.max_volume = o.max_volume;
  options.max_radius_edge_ratio = o.max_radius_edge_ratio;
  options.min_dihedral_degrees = o.min_dihedral_degrees;
  options.keep_surface = o.keep_surface;
  const Mesh tets = tetrahedralize(read_mesh(o.input), options, o.input);
  write_msh41_ascii(out, tets);  // atomically: a failed write leaves no half-written file
  for (const std::string& note : tets.notes) fmt::print("{}\n", note);
  const QualitySummary q = summarize_quality(tets);
  fmt::print("{}: {} tetrahedra, {} vertices; {} min {:.3g} (mean {:.3g}) degrees, radius ratio min {:.3g} (mean "
             "{:.3g})\n",
             o.out, tets.num_cells(), tets.num_vertices(), q.angle_name, q.worst_angle, q.mean_angle,
             q.worst_radius_ratio, q.mean_radius_ratio);
  return 0;
}

}  // namespace softsim::cli
