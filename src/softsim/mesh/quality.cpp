#include "softsim/mesh/quality.hpp"

#include <cmath>
#include <fmt/format.h>
#include <limits>

#include "softsim/core/errors.hpp"
#include "softsim/mesh/measure.hpp"
#include "softsim/mesh/surface.hpp"

namespace softsim {

MeshReport inspect_mesh(const Mesh& mesh) {
  MeshReport r;
  r.dim = mesh.dim();
  r.num_vertices = mesh.num_vertices();
  r.num_cells = mesh.num_cells();
  r.vertices_per_cell = static_cast<int>(mesh.cells.cols());
  const BoundingBox box = bounding_box(mesh.vertices);
  r.bbox_min = box.min;
  r.bbox_max = box.max;
  r.bbox_diagonal = box.diagonal();
  if (mesh.num_cells() == 0) return r;
  const bool is_signed = cell_measure_is_signed(mesh);
  const double tol = degenerate_measure_tolerance(mesh);
  r.min_measure = std::numeric_limits<double>::infinity();
  r.max_measure = -std::numeric_limits<double>::infinity();
  r.min_aspect_ratio = std::numeric_limits<double>::infinity();
  r.max_aspect_ratio = 0.0;
  double aspect_sum = 0.0;
  for (int c = 0; c < mesh.num_cells(); ++c) {
    const double m = cell_measure(mesh, c);
    r.min_measure = std::min(r.min_measure, m);
    r.max_measure = std::max(r.max_measure, m);
    r.total_measure += m;
    if (std::abs(m) <= tol) ++r.num_degenerate;
    else if (is_signed && m < 0) ++r.num_inverted;
    const double q = cell_aspect_ratio(mesh, c);
    r.min_aspect_ratio = std::min(r.min_aspect_ratio, q);
    r.max_aspect_ratio = std::max(r.max_aspect_ratio, q);
    aspect_sum += q;
  }
  r.mean_aspect_ratio = aspect_sum / mesh.num_cells();
  const Surface s = extract_surface(mesh);
  r.num_surface_faces = static_cast<int>(s.faces.rows());
  r.num_surface_edges = static_cast<int>(s.edges.rows());
  r.num_surface_vertices = static_cast<int>(s.vertices.size());
  return r;
}

void validate_mesh(const Mesh& mesh, const std::string& source) {
  if (mesh.num_vertices() == 0) throw InputError(fmt::format("{}: the mesh has no vertices.", source));
  if (mesh.dim() != 2 && mesh.dim() != 3)
    throw InputError(fmt::format("{}: vertices have {} coordinates; expected 2 or 3.", source, mesh.dim()));
  if (mesh.num_cells() == 0) throw InputError(fmt::format("{}: the mesh has no cells.", source));
  const int k = static_cast<int>(mesh.cells.cols());
  if (k < 2 || k > 4)
    throw InputError(fmt::format("{}: cells have {} vertices; expected 2, 3 or 4.", source, k));
  if (k == 4 && mesh.dim() != 3)
    throw InputError(fmt::format("{}: tetrahedra need 3D vertices, got {}D.", source, mesh.dim()));
  if (!mesh.cell_tags.empty() && static_cast<int>(mesh.cell_tags.size()) != mesh.num_cells())
    throw InputError(fmt::format("{}: {} cell tags for {} cells.", source, mesh.cell_tags.size(), mesh.num_cells()));
  for (int v = 0; v < mesh.num_vertices(); ++v)
    if (!mesh.vertices.row(v).allFinite())
      throw InputError(fmt::format("{}: vertex {} has a non-finite coordinate.", source, v));
  for (int c = 0; c < mesh.num_cells(); ++c)
    for (int a = 0; a < k; ++a) {
      const int v = mesh.cells(c, a);
      if (v < 0 || v >= mesh.num_vertices())
        throw InputError(fmt::format("{}: cell {} refers to vertex {}, but the mesh has {} vertices (0-based).",
                                     source, c, v, mesh.num_vertices()));
      for (int b = 0; b < a; ++b)
        if (mesh.cells(c, b) == v)
          throw InputError(fmt::format("{}: cell {} uses vertex {} twice.", source, c, v));
    }
  const bool is_signed = cell_measure_is_signed(mesh);
  const double tol = degenerate_measure_tolerance(mesh);
  const char* measure_name = k == 4 ? "volume" : k == 3 ? "area" : "length";
  int first_degenerate = -1, num_degenerate = 0, first_inverted = -1, num_inverted = 0;
  double degenerate_value = 0, inverted_value = 0;
  for (int c = 0; c < mesh.num_cells(); ++c) {
    const double m = cell_measure(mesh, c);
    if (std::abs(m) <= tol) {
      if (num_degenerate++ == 0) first_degenerate = c, degenerate_value = m;
    } else if (is_signed && m < 0) {
      if (num_inverted++ == 0) first_inverted = c, inverted_value = m;
    }
  }
  if (num_degenerate > 0)
    throw InputError(fmt::format("{}: {} degenerate cell(s) ({} within {:.3g} of zero); the first is cell {} ({} {:.6g}).",
                                 source, num_degenerate, measure_name, tol, first_degenerate, measure_name,
                                 degenerate_value));
  if (num_inverted > 0)
    throw InputError(fmt::format("{}: {} inverted cell(s) (negative signed {}); the first is cell {} ({} {:.6g}).",
                                 source, num_inverted, measure_name, first_inverted, measure_name, inverted_value));
}

}  // namespace softsim
