#include "softsim/contact/broad_phase/candidates.hpp"

#include <array>
#include <functional>
#include <stdexcept>

#include "softsim/contact/broad_phase/box_pairs.hpp"
#include "softsim/contact/broad_phase/linear_bvh.hpp"
#include "softsim/core/parallel.hpp"

namespace softsim {
namespace {

// The linear BVH takes the exclusion inlined (it is the default method); the others through a
// PairExclusion that refers to it: one holding the lambda itself would put it on the heap at
// every call (the brute force is what Auto picks for a small scene, several times an iteration).
// An inlined brute force was tried: its instantiation here made GCC stop inlining the linear
// BVH's walk into its loops (the unit's growth budget), 3-6% slower on bench_contact_ops.
template <class Exclude>
PairList box_pairs(std::span<const Aabb> queries, std::span<const Aabb> targets, bool self,
                   BroadPhaseMethod method, Exclude&& excluded) {
  const PairExclusion by_reference(std::cref(excluded));
  switch (resolve_broad_phase(method, queries.size(), targets.size())) {
    case BroadPhaseMethod::Auto: break;
    case BroadPhaseMethod::SpatialHash: return spatial_hash_pairs(queries, targets, self, by_reference);
    case BroadPhaseMethod::BVH: return bvh_pairs(queries, targets, self, by_reference);
    case BroadPhaseMethod::LinearBVH: return linear_bvh_pairs_excluding(queries, targets, self, excluded);
    case BroadPhaseMethod::BruteForce: return brute_force_pairs(queries, targets, self, by_reference);
  }
  throw std::invalid_argument("unknown broad phase method");
}

// Vertex ids of every primitive as compact rows: the exclusion test (CollisionMesh::excluded_*)
// reads them for every overlapping pair, one cache line per primitive instead of one per column
// of the index matrix.
template <int K>
ScratchVector<std::array<int, K>> id_rows(const MatXi& simplices) {
  ScratchVector<std::array<int, K>> rows(static_cast<std::size_t>(simplices.rows()));
  parallel_for(rows.size(), [&](std::size_t i) {
    for (int k = 0; k < K; ++k) rows[i][k] = simplices(static_cast<Eigen::Index>(i), k);
  });
  return rows;
}

// `keep` (may be null): a further test on the pairs that are not excluded, run where they are found.
// Rows of V0 beyond the mesh's (a caller's extra points, e.g. penalty contact's obstacle features)
// are not read.
Candidates find_candidates(const CollisionMesh& mesh, const VertexRows& V0, const VertexRows* V1,
                           double radius, BroadPhaseMethod method, bool with_edge_edge = true,
                           const PairFilter* keep = nullptr) {
  if (V0.rows() < mesh.num_total_vertices() || V0.cols() != mesh.dim ||
      (V1 && (V1->rows() != V0.rows() || V1->cols() != V0.cols())))
    throw std::invalid_argument("broad phase: positions do not cover the collision mesh");
  Candidates c;
  const ScratchVector<Aabb> vb = vertex_boxes(V0, V1, mesh.vertices, radius);
  const ScratchVector<Aabb> eb = primitive_boxes(V0, V1, mesh.edges, radius);
  const ScratchVector<std::array<int, 2>> edges = id_rows<2>(mesh.edges);
  if (mesh.dim == 3) {
    const ScratchVector<Aabb> fb = primitive_boxes(V0, V1, mesh.faces, radius);
    const ScratchVector<std::array<int, 3>> faces = id_rows<3>(mesh.faces);
    c.vertex_face = box_pairs(vb, fb, false, method, [&](int v, int f) {
      return mesh.excluded_point_simplex(mesh.vertices[static_cast<std::size_t>(v)], faces[static_cast<std::size_t>(f)].data(), 3) ||
             (keep && !(*keep)(PairKind::vertex_face, v, f));
    });
    if (with_edge_edge)
      c.edge_edge = box_pairs(eb, eb, true, method, [&](int a, int b) {
        return mesh.excluded_edge_pair(edges[static_cast<std::size_t>(a)].data(), edges[static_cast<std::size_t>(b)].data()) ||
               (keep && !(*keep)(PairKind::edge_edge, a, b));
      });
  } else {
    c.vertex_edge = box_pairs(vb, eb, false, method, [&](int v, int e) {
      return mesh.excluded_point_simplex(mesh.vertices[static_cast<std::size_t>(v)], edges[static_cast<std::size_t>(e)].data(), 2) ||
             (keep && !(*keep)(PairKind::vertex_edge, v, e));
    });
  }
  return c;
}

}  // namespace

BroadPhaseMethod resolve_broad_phase(BroadPhaseMethod method, std::size_t num_queries,
                                     std::size_t num_targets) {
  if (method != BroadPhaseMethod::Auto) return method;
  // Measured with bench_broad_phase (docs/performance.md, "Choosing the broad phase"): testing
  // every pair costs no more than building a tree up to about 1e5 box pairs (a few hundred
  // primitives); above, the linear BVH is fastest on every scene, by 1.6-2x on the irregular
  // cloth, while the spatial hash only matches it on uniform meshes.
  constexpr double kBruteForcePairs = 1e5;
  if (static_cast<double>(num_queries) * static_cast<double>(num_targets) <= kBruteForcePairs)
    return BroadPhaseMethod::BruteForce;
  return BroadPhaseMethod::LinearBVH;
}

PairList brute_force_pairs(std::span<const Aabb> queries, std::span<const Aabb> targets,
                           bool self, const PairExclusion& excluded) {
  return collect_pairs(queries.size(), excluded, [&](int i, std::vector<int>& hits) {
    for (std::size_t j = self ? static_cast<std::size_t>(i) + 1 : 0; j < targets.size(); ++j)
      if (overlaps(queries[static_cast<std::size_t>(i)], targets[j])) hits.push_back(static_cast<int>(j));
  });
}

Candidates proximity_candidates(const CollisionMesh& mesh, const VertexRows& V, double dhat,
                                BroadPhaseMethod method) {
  return find_candidates(mesh, V, nullptr, 0.5 * dhat, method);
}

Candidates proximity_candidates_where(const CollisionMesh& mesh, const VertexRows& V, double dhat,
                                      BroadPhaseMethod method, const PairFilter& keep) {
  return find_candidates(mesh, V, nullptr, 0.5 * dhat, method, true, keep ? &keep : nullptr);
}

Candidates ccd_candidates(const CollisionMesh& mesh, const VertexRows& V0, const VertexRows& V1,
                          double margin, BroadPhaseMethod method) {
  return find_candidates(mesh, V0, &V1, 0.5 * margin, method);
}

Candidates point_candidates(const CollisionMesh& mesh, const VertexRows& V, double radius, BroadPhaseMethod method) {
  return find_candidates(mesh, V, nullptr, 0.5 * radius, method, false);
}

Candidates proximity_candidates(const CollisionMesh& mesh, const VecX& x, double dhat,
                                BroadPhaseMethod method) {
  return proximity_candidates(mesh, mesh.positions(x), dhat, method);
}

Candidates ccd_candidates(const CollisionMesh& mesh, const VecX& x0, const VecX& x1,
                          double margin, BroadPhaseMethod method) {
  return ccd_candidates(mesh, mesh.positions(x0), mesh.positions(x1), margin, method);
}

}  // namespace softsim
