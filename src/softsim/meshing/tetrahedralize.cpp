#include "softsim/meshing/tetrahedralize.hpp"

#include <chrono>
#include <cmath>
#include <fmt/format.h>

#include "softsim/core/errors.hpp"
#include "softsim/mesh/measure.hpp"
#include "softsim/meshing/surface_checks.hpp"
#include "softsim/meshing/tetgen_mesher.hpp"

namespace softsim {

void check_tetrahedralize_options(const TetrahedralizeOptions& o, const std::string& key_prefix) {
  if (o.edge_length && o.max_volume)
    throw InputError(fmt::format("{}edge_length and {}max_volume: give one size bound, not both", key_prefix, key_prefix));
  if (o.edge_length && !(*o.edge_length > 0 && std::isfinite(*o.edge_length)))
    throw InputError(fmt::format("{}edge_length: must be a positive length, got {}", key_prefix, *o.edge_length));
  if (o.max_volume && !(*o.max_volume > 0 && std::isfinite(*o.max_volume)))
    throw InputError(fmt::format("{}max_volume: must be a positive volume, got {}", key_prefix, *o.max_volume));
  // Delaunay refinement is guaranteed to end only for radius-edge bounds above 2; TetGen ends in
  // practice down to about 1.1, and a bound below 1 can keep it refining (Si 2015). A dihedral
  // bound above about 18 degrees is seldom met.
  if (!(o.max_radius_edge_ratio >= 1.0 && o.max_radius_edge_ratio <= 1e6))
    throw InputError(fmt::format("{}max_radius_edge_ratio: must be at least 1 (TetGen may not finish below), got {}",
                                 key_prefix, o.max_radius_edge_ratio));
  if (!(o.min_dihedral_degrees >= 0.0 && o.min_dihedral_degrees <= 18.0))
    throw InputError(fmt::format("{}min_dihedral_degrees: must be in [0, 18] (TetGen may not finish above), got {}",
                                 key_prefix, o.min_dihedral_degrees));
}

bool tetrahedralization_available() { return meshing_detail::kHaveTetGen; }

Mesh tetrahedralize(Mesh surface, const TetrahedralizeOptions& options, const std::string& source) {
  check_tetrahedralize_options(options, "");
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::string> notes = std::move(surface.notes);
  const SurfaceCheckReport check = check_closed_surface(surface, source);
  if (check.faces_reoriented > 0)
    notes.push_back(fmt::format("{}: {} face{} turned to agree with {} neighbours (consistent orientation)", source,
                                check.faces_reoriented, check.faces_reoriented == 1 ? " was" : "s were",
                                check.faces_reoriented == 1 ? "its" : "their"));
  Mesh mesh = meshing_detail::tetgen_tetrahedralize(surface, options, source);
  // TetGen's orientation convention is not ours: make every tet positive.
  for (int t = 0; t < mesh.num_cells(); ++t)
    if (cell_measure(mesh, t) < 0) std::swap(mesh.cells(t, 2), mesh.cells(t, 3));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  notes.push_back(fmt::format("{}: tetrahedralized by TetGen: {} surface faces -> {} tetrahedra, {} vertices in {:.2f} s",
                              source, surface.num_cells(), mesh.num_cells(), mesh.num_vertices(), seconds));
  mesh.notes = std::move(notes);
  return mesh;
}

}  // namespace softsim
