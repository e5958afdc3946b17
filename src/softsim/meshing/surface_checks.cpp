#include "softsim/meshing/surface_checks.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <atomic>
#include <fmt/format.h>
#include <limits>
#include <vector>

#include <tbb/parallel_for.h>

#include "softsim/contact/broad_phase/aabb.hpp"
#include "softsim/contact/broad_phase/box_pairs.hpp"
#include "softsim/core/errors.hpp"
#include "softsim/mesh/measure.hpp"
#include "softsim/meshing/triangle_intersection.hpp"
#include "softsim/volume/enclosed_volume.hpp"

namespace softsim {

namespace {

// One face's use of an undirected edge (lo < hi); `forward` when the face runs lo -> hi.
struct EdgeUse {
  int lo, hi, face;
  bool forward;
};

std::vector<EdgeUse> sorted_edge_uses(const Eigen::MatrixXi& F) {
  std::vector<EdgeUse> uses;
  uses.reserve(static_cast<std::size_t>(F.rows()) * 3);
  for (int f = 0; f < F.rows(); ++f)
    for (int k = 0; k < 3; ++k) {
      const int a = F(f, k), b = F(f, (k + 1) % 3);
      uses.push_back({std::min(a, b), std::max(a, b), f, a < b});
    }
  std::sort(uses.begin(), uses.end(), [](const EdgeUse& x, const EdgeUse& y) {
    return std::tie(x.lo, x.hi, x.face) < std::tie(y.lo, y.hi, y.face);
  });
  return uses;
}

void check_zero_area(const Mesh& mesh, const std::string& source) {
  const double tol = degenerate_measure_tolerance(mesh);
  int first = -1, count = 0;
  for (int f = 0; f < mesh.num_cells(); ++f) {
    const bool repeated = mesh.cells(f, 0) == mesh.cells(f, 1) || mesh.cells(f, 1) == mesh.cells(f, 2) ||
                          mesh.cells(f, 2) == mesh.cells(f, 0);
    if (repeated || cell_measure(mesh, f) <= tol) {
      if (first < 0) first = f;
      ++count;
    }
  }
  if (first >= 0)
    throw InputError(fmt::format("{}: face {} (vertices {}, {}, {}) has zero area ({} such face{}); a solid's surface "
                                 "needs faces of positive area",
                                 source, first, mesh.cells(first, 0), mesh.cells(first, 1), mesh.cells(first, 2), count,
                                 count == 1 ? "" : "s"));
}

// Every edge in exactly two faces; returns, per face and local edge k (from corner k to k+1), the
// neighbouring face across it.
Eigen::MatrixXi check_closed_manifold(const Mesh& mesh, const std::string& source) {
  const std::vector<EdgeUse> uses = sorted_edge_uses(mesh.cells);
  Eigen::MatrixXi neighbour = Eigen::MatrixXi::Constant(mesh.num_cells(), 3, -1);
  int boundary = 0, non_manifold = 0;
  const EdgeUse* first_boundary = nullptr;
  const EdgeUse* first_non_manifold = nullptr;
  int first_non_manifold_count = 0;
  for (std::size_t i = 0; i < uses.size();) {
    std::size_t j = i;
    while (j < uses.size() && uses[j].lo == uses[i].lo && uses[j].hi == uses[i].hi) ++j;
    const std::size_t n = j - i;
    if (n == 1 && !boundary++) first_boundary = &uses[i];
    if (n > 2 && !non_manifold++) {
      first_non_manifold = &uses[i];
      first_non_manifold_count = static_cast<int>(n);
    }
    if (n == 2)
      for (int s = 0; s < 2; ++s) {
        const EdgeUse& u = uses[i + s];
        const EdgeUse& other = uses[i + 1 - s];
        for (int k = 0; k < 3; ++k) {
          const int a = mesh.cells(u.face, k), b = mesh.cells(u.face, (k + 1) % 3);
          if (std::min(a, b) == u.lo && std::max(a, b) == u.hi) neighbour(u.face, k) = other.face;
        }
      }
    i = j;
  }
  if (non_manifold)
    throw InputError(fmt::format("{}: the edge between vertices {} and {} is shared by {} faces (the first is face {}); "
                                 "{} edge{} like it: a solid's surface must be manifold (two faces per edge)",
                                 source, first_non_manifold->lo, first_non_manifold->hi, first_non_manifold_count,
                                 first_non_manifold->face, non_manifold, non_manifold == 1 ? "" : "s"));
  if (boundary)
    throw InputError(fmt::format("{}: the surface is not closed: {} boundary edge{} (in one face only), the first "
                                 "between vertices {} and {} (face {}); a solid needs a closed surface",
                                 source, boundary, boundary == 1 ? "" : "s", first_boundary->lo, first_boundary->hi,
                                 first_boundary->face));
  return neighbour;
}

// Runs the edge a -> b in face f forward (as a -> b)?
bool runs(const Eigen::MatrixXi& F, int f, int a, int b) {
  for (int k = 0; k < 3; ++k)
    if (F(f, k) == a && F(f, (k + 1) % 3) == b) return true;
  return false;
}

// Consistent orientation per connected piece (see the header); returns the faces turned.
int orient_consistently(Mesh& mesh, const Eigen::MatrixXi& neighbour, const std::string& source, int& components) {
  const int m = mesh.num_cells();
  std::vector<int> piece(static_cast<std::size_t>(m), -1);
  std::vector<char> turn(static_cast<std::size_t>(m), 0);  // relative to the piece's first face
  std::vector<int> stack;
  int turned_total = 0;
  components = 0;
  for (int seed = 0; seed < m; ++seed) {
    if (piece[seed] >= 0) continue;
    std::vector<int> members{seed};
    piece[seed] = components;
    stack.assign(1, seed);
    while (!stack.empty()) {
      const int f = stack.back();
      stack.pop_back();
      for (int k = 0; k < 3; ++k) {
        const int g = neighbour(f, k);
        const int a = mesh.cells(f, k), b = mesh.cells(f, (k + 1) % 3);
        // After the turns, f runs a -> b as `turn[f]` says; g must run the edge the other way.
        const bool f_forward = !turn[f];
        const bool g_runs_ab = runs(mesh.cells, g, a, b);
        const char g_turn = static_cast<char>(g_runs_ab == f_forward);
        if (piece[g] < 0) {
          piece[g] = components;
          turn[g] = g_turn;
          members.push_back(g);
          stack.push_back(g);
        } else if (turn[g] != g_turn) {
          throw InputError(fmt::format("{}: the surface cannot be oriented consistently (it is one-sided, like a "
                                       "Moebius strip): faces {} and {} disagree across the edge between vertices {} "
                                       "and {} whichever way they are turned",
                                       source, f, g, std::min(a, b), std::max(a, b)));
        }
      }
    }
    int turned = 0;
    for (int f : members) turned += turn[f];
    const int kept = static_cast<int>(members.size()) - turned;
    if (turned == kept && turned > 0)
      throw InputError(fmt::format("{}: half of the {} faces of the piece containing face {} face one way and half the "
                                   "other, so which way is outward is ambiguous; fix the orientation in the modelling "
                                   "tool",
                                   source, members.size(), seed));
    const bool keep_majority_of_seed = kept > turned;
    for (int f : members)
      if (static_cast<bool>(turn[f]) == keep_majority_of_seed) {
        std::swap(mesh.cells(f, 1), mesh.cells(f, 2));
        ++turned_total;
      }
    ++components;
  }
  return turned_total;
}

void check_self_intersections(const Mesh& mesh, const std::string& source) {
  const VertexRows V = mesh.vertices;
  const Eigen::MatrixXi& F = mesh.cells;
  const auto shared_vertices = [&F](int i, int j) {
    int n = 0;
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) n += F(i, a) == F(j, b);
    return n;
  };
  // Faces sharing an edge are neighbours on a closed manifold surface; they cannot cross.
  const ScratchVector<Aabb> boxes = primitive_boxes(V, nullptr, F, 0.0);
  const PairList pairs =
      linear_bvh_pairs(boxes, boxes, true, [&](int i, int j) { return shared_vertices(i, j) >= 2; });
  const auto triangle = [&](int f, int first_corner) {
    const auto p = [&](int k) { return Vec3(V.row(F(f, (first_corner + k) % 3)).transpose()); };
    return Triangle3{p(0), p(1), p(2)};
  };
  const auto corner_of = [&F](int f, int v) {
    for (int k = 0; k < 3; ++k)
      if (F(f, k) == v) return k;
    return -1;
  };
  std::atomic<std::size_t> first(pairs.size());
  std::atomic<int> count(0);
  tbb::parallel_for(std::size_t(0), pairs.size(), [&](std::size_t p) {
    const int i = pairs[p][0], j = pairs[p][1];
    bool meet;
    if (shared_vertices(i, j) == 1) {
      int ci = 0, cj = -1;
      for (; ci < 3 && cj < 0; ++ci) cj = corner_of(j, F(i, ci));
      meet = triangles_sharing_a_vertex_overlap(triangle(i, ci - 1), triangle(j, cj));
    } else {
      meet = triangles_intersect(triangle(i, 0), triangle(j, 0));
    }
    if (!meet) return;
    ++count;
    std::size_t seen = first.load();
    while (p < seen && !first.compare_exchange_weak(seen, p)) {
    }
  });
  if (count > 0) {
    const IndexPair& p = pairs[first.load()];
    throw InputError(fmt::format("{}: the surface intersects itself: faces {} (vertices {}, {}, {}) and {} (vertices "
                                 "{}, {}, {}) cross ({} pair{} of faces do); a solid's surface must not",
                                 source, p[0], F(p[0], 0), F(p[0], 1), F(p[0], 2), p[1], F(p[1], 0), F(p[1], 1),
                                 F(p[1], 2), count.load(), count.load() == 1 ? "" : "s"));
  }
}

}  // namespace

SurfaceCheckReport check_closed_surface(Mesh& surface, const std::string& source) {
  if (surface.num_cells() == 0 || surface.cell_type() != CellType::Triangle || surface.dim() != 3)
    throw InputError(fmt::format("{}: a closed surface of triangles in 3D is needed, the mesh has {} {} cells in {}D",
                                 source, surface.num_cells(),
                                 surface.num_cells() ? to_string(surface.cell_type()) : std::string("no"),
                                 surface.dim()));
  check_zero_area(surface, source);
  const Eigen::MatrixXi neighbour = check_closed_manifold(surface, source);
  SurfaceCheckReport report;
  report.faces_reoriented = orient_consistently(surface, neighbour, source, report.num_components);
  check_self_intersections(surface, source);
  const VertexRows positions = surface.vertices;
  report.enclosed_volume = enclosed_volume(surface.cells, Eigen::Map<const VecX>(positions.data(), positions.size()));
  return report;
}

}  // namespace softsim
