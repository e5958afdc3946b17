#include "softsim/contact/broad_phase/candidates.hpp"

#include <stdexcept>

#include "softsim/contact/broad_phase/box_pairs.hpp"
#include "softsim/core/parallel.hpp"

namespace softsim {
namespace {

PairList box_pairs(const std::vector<Aabb>& queries, const std::vector<Aabb>& targets, bool self,
                   BroadPhaseMethod method) {
  switch (method) {
    case BroadPhaseMethod::SpatialHash: return spatial_hash_pairs(queries, targets, self);
    case BroadPhaseMethod::BVH: return bvh_pairs(queries, targets, self);
    case BroadPhaseMethod::BruteForce: return brute_force_pairs(queries, targets, self);
  }
  throw std::invalid_argument("unknown broad phase method");
}

// Drops excluded pairs, keeping the order (flags in parallel, then an ordered compaction).
template <class Excluded>
PairList filter(PairList pairs, Excluded&& excluded) {
  std::vector<char> keep(pairs.size());
  parallel_for(pairs.size(), [&](std::size_t i) { keep[i] = !excluded(pairs[i][0], pairs[i][1]); });
  std::size_t w = 0;
  for (std::size_t i = 0; i < pairs.size(); ++i)
    if (keep[i]) pairs[w++] = pairs[i];
  pairs.resize(w);
  return pairs;
}

Candidates find_candidates(const CollisionMesh& mesh, const VertexRows& V0, const VertexRows* V1,
                           double radius, BroadPhaseMethod method, bool with_edge_edge = true) {
  if (V0.rows() != mesh.num_total_vertices() || V0.cols() != mesh.dim ||
      (V1 && (V1->rows() != V0.rows() || V1->cols() != V0.cols())))
    throw std::invalid_argument("broad phase: positions do not match the collision mesh");
  Candidates c;
  const std::vector<Aabb> vb = vertex_boxes(V0, V1, mesh.vertices, radius);
  const std::vector<Aabb> eb = primitive_boxes(V0, V1, mesh.edges, radius);
  if (mesh.dim == 3) {
    const std::vector<Aabb> fb = primitive_boxes(V0, V1, mesh.faces, radius);
    c.vertex_face = filter(box_pairs(vb, fb, false, method),
                           [&](int v, int f) { return mesh.excluded_vertex_face(v, f); });
    if (with_edge_edge)
      c.edge_edge = filter(box_pairs(eb, eb, true, method),
                           [&](int a, int b) { return mesh.excluded_edge_edge(a, b); });
  } else {
    c.vertex_edge = filter(box_pairs(vb, eb, false, method),
                           [&](int v, int e) { return mesh.excluded_vertex_edge(v, e); });
  }
  return c;
}

}  // namespace

PairList brute_force_pairs(const std::vector<Aabb>& queries, const std::vector<Aabb>& targets,
                           bool self) {
  return collect_pairs(queries.size(), [&](int i, std::vector<int>& hits) {
    for (std::size_t j = self ? static_cast<std::size_t>(i) + 1 : 0; j < targets.size(); ++j)
      if (overlaps(queries[static_cast<std::size_t>(i)], targets[j])) hits.push_back(static_cast<int>(j));
  });
}

Candidates proximity_candidates(const CollisionMesh& mesh, const VertexRows& V, double dhat,
                                BroadPhaseMethod method) {
  return find_candidates(mesh, V, nullptr, 0.5 * dhat, method);
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
