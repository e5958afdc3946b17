#include "softsim/meshing/tetgen_mesher.hpp"

#include <cmath>
#include <fmt/format.h>

#include "softsim/core/errors.hpp"

#ifdef SOFTSIM_HAVE_TETGEN
// Debian's libtet is built as a library (TETLIBRARY): errors are thrown as int codes instead of
// exiting, and the header must agree.
#define TETLIBRARY
#include <tetgen.h>
#endif

namespace softsim::meshing_detail {

#ifdef SOFTSIM_HAVE_TETGEN

namespace {

// TetGen's error codes (tetgen.h, terminatetetgen) in words, with what the user can do.
std::string tetgen_failure(int code) {
  switch (code) {
    case 1: return "out of memory";
    case 3: return "it found a self-intersection of the surface (two faces crossing within its exact predicates)";
    case 4: return "the surface has a feature smaller than its tolerance (nearly touching faces or a tiny edge)";
    case 5: return "two input faces are very close to each other; try \"keep_surface\": true";
    case 10: return "it found an input error";
    default: return fmt::format("internal error {}", code);
  }
}

}  // namespace

Mesh tetgen_tetrahedralize(const Mesh& surface, const TetrahedralizeOptions& options, const std::string& source) {
  tetgenio in, out;
  in.firstnumber = 0;
  in.numberofpoints = surface.num_vertices();
  in.pointlist = new REAL[static_cast<std::size_t>(in.numberofpoints) * 3];
  for (int v = 0; v < surface.num_vertices(); ++v)
    for (int c = 0; c < 3; ++c) in.pointlist[3 * v + c] = surface.vertices(v, c);
  in.numberoffacets = surface.num_cells();
  in.facetlist = new tetgenio::facet[static_cast<std::size_t>(in.numberoffacets)];
  for (int f = 0; f < surface.num_cells(); ++f) {
    tetgenio::facet& facet = in.facetlist[f];
    tetgenio::init(&facet);
    facet.numberofpolygons = 1;
    facet.polygonlist = new tetgenio::polygon[1];
    tetgenio::init(&facet.polygonlist[0]);
    facet.polygonlist[0].numberofvertices = 3;
    facet.polygonlist[0].vertexlist = new int[3];
    for (int c = 0; c < 3; ++c) facet.polygonlist[0].vertexlist[c] = surface.cells(f, c);
  }
  // p: mesh the piecewise linear complex; q: quality bound (radius-edge / min dihedral); a: volume
  // bound; Y: no points on the boundary; z: number from 0; Q: quiet.
  std::string switches = fmt::format("pzQq{:.17g}/{:.17g}", options.max_radius_edge_ratio, options.min_dihedral_degrees);
  double max_volume = 0.0;
  if (options.max_volume) max_volume = *options.max_volume;
  if (options.edge_length) max_volume = std::pow(*options.edge_length, 3) / (6.0 * std::sqrt(2.0));
  if (max_volume > 0) switches += fmt::format("a{:.17g}", max_volume);
  if (options.keep_surface) switches += "Y";
  try {
    tetrahedralize(switches.data(), &in, &out);
  } catch (int code) {
    throw InputError(fmt::format("{}: TetGen could not tetrahedralize the surface: {}", source, tetgen_failure(code)));
  }
  Mesh mesh;
  mesh.vertices.resize(out.numberofpoints, 3);
  for (int v = 0; v < out.numberofpoints; ++v)
    for (int c = 0; c < 3; ++c) mesh.vertices(v, c) = out.pointlist[3 * v + c];
  mesh.cells.resize(out.numberoftetrahedra, 4);
  for (int t = 0; t < out.numberoftetrahedra; ++t)
    for (int c = 0; c < 4; ++c) mesh.cells(t, c) = out.tetrahedronlist[out.numberofcorners * t + c];
  return mesh;
}

#else

Mesh tetgen_tetrahedralize(const Mesh&, const TetrahedralizeOptions&, const std::string& source) {
  throw InputError(fmt::format("{}: this softsim was built without a tetrahedral mesher (CMake option "
                               "SOFTSIM_WITH_TETGEN=OFF), so it cannot tetrahedralize a surface; give a tetrahedral "
                               "mesh (.msh, .node/.ele, .mesh) or rebuild with -DSOFTSIM_WITH_TETGEN=ON",
                               source));
}

#endif

}  // namespace softsim::meshing_detail
