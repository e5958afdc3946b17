#include "softsim/mesh/weld_vertices.hpp"

#include <array>
#include <cmath>
#include <unordered_map>
#include <vector>

#include "softsim/mesh/measure.hpp"

namespace softsim {

namespace {

// Cell of a uniform grid of spacing >= tolerance: a vertex's partners lie in its cell or in one
// of the 26 around it.
using GridCell = std::array<long long, 3>;
struct GridCellHash {
  std::size_t operator()(const GridCell& c) const {
    return static_cast<std::size_t>(c[0] * 73856093LL ^ c[1] * 19349663LL ^ c[2] * 83492791LL);
  }
};

}  // namespace

WeldReport weld_vertices(Mesh& mesh, double relative_tolerance) {
  WeldReport report;
  const int n = mesh.num_vertices();
  const int dim = mesh.dim();
  report.vertices_before = n;
  const BoundingBox box = bounding_box(mesh.vertices);
  report.tolerance = relative_tolerance * box.diagonal();
  // Spacing: the tolerance, or (exact welding, or a point-sized mesh) one cell for everything
  // equal; the bounding box keeps cell coordinates small whatever the mesh's offset.
  const double spacing = report.tolerance > 0 ? report.tolerance : 1.0;
  const double tol2 = report.tolerance * report.tolerance;
  std::unordered_map<GridCell, std::vector<int>, GridCellHash> grid;
  grid.reserve(static_cast<std::size_t>(n));
  std::vector<int> kept_of(static_cast<std::size_t>(n));
  Eigen::MatrixXd kept(n, dim);
  int num_kept = 0;
  for (int v = 0; v < n; ++v) {
    GridCell cell{0, 0, 0};
    for (int d = 0; d < dim; ++d)
      cell[d] = static_cast<long long>(std::floor((mesh.vertices(v, d) - box.min(d)) / spacing));
    int match = -1;
    for (long long dx = -1; dx <= 1 && match < 0; ++dx)
      for (long long dy = -1; dy <= 1 && match < 0; ++dy)
        for (long long dz = (dim == 3 ? -1 : 0); dz <= (dim == 3 ? 1 : 0) && match < 0; ++dz) {
          const auto it = grid.find({cell[0] + dx, cell[1] + dy, cell[2] + dz});
          if (it == grid.end()) continue;
          for (int k : it->second)
            if ((kept.row(k) - mesh.vertices.row(v)).squaredNorm() <= tol2) {
              match = k;
              break;
            }
        }
    if (match < 0) {
      match = num_kept++;
      kept.row(match) = mesh.vertices.row(v);
      grid[cell].push_back(match);
    }
    kept_of[static_cast<std::size_t>(v)] = match;
  }
  for (Eigen::Index c = 0; c < mesh.cells.rows(); ++c)
    for (Eigen::Index q = 0; q < mesh.cells.cols(); ++q) mesh.cells(c, q) = kept_of[static_cast<std::size_t>(mesh.cells(c, q))];
  mesh.vertices = kept.topRows(num_kept).eval();
  report.vertices_after = num_kept;
  return report;
}

}  // namespace softsim
