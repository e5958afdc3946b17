#pragma once
// Broad phase collision detection (Li & Jiang 2025, §24.2, "Broad Phase Collision Detection"): candidate
// primitive pairs for the barrier (proximity at one configuration) and for CCD (boxes swept
// from x0 to x1). Pair kinds: vertex-face and edge-edge in 3D, vertex-edge in 2D. Excluded
// pairs (CollisionMesh::excluded_*) never appear. Output lists are sorted lexicographically and
// identical whatever the method and the thread count.
#include <array>
#include <functional>
#include <vector>

#include "softsim/contact/broad_phase/aabb.hpp"
#include "softsim/contact/geometry/collision_mesh.hpp"
#include "softsim/core/enum_names.hpp"

namespace softsim {

enum class BroadPhaseMethod {
  Auto,         // brute force up to 1e5 box pairs, else the linear BVH (resolve_broad_phase)
  SpatialHash,  // uniform grid, cell size = mean primitive box size
  BVH,          // binary BVH, median split on centroids
  LinearBVH,    // Morton-ordered linear BVH (Karras 2012)
  BruteForce,   // O(n m) reference
};
template <>
struct EnumNames<BroadPhaseMethod> {  // the scene's contact.broad_phase
  static constexpr std::pair<BroadPhaseMethod, const char*> table[] = {
      {BroadPhaseMethod::Auto, "auto"},
      {BroadPhaseMethod::SpatialHash, "hash"},
      {BroadPhaseMethod::BVH, "bvh"},
      {BroadPhaseMethod::LinearBVH, "lbvh"},
      {BroadPhaseMethod::BruteForce, "brute_force"}};
};

// The method `Auto` stands for with these set sizes (any other method: itself).
BroadPhaseMethod resolve_broad_phase(BroadPhaseMethod method, std::size_t num_queries,
                                     std::size_t num_targets);

struct Candidates {
  // Primitive indices of the CollisionMesh: vertex = index into CollisionMesh::vertices
  // (global id: mesh.vertices[v]), edge / face = row of CollisionMesh::edges / faces.
  std::vector<std::array<int, 2>> vertex_face;  // 3D: (vertex, face)
  std::vector<std::array<int, 2>> edge_edge;    // 3D: (edge a, edge b), a < b
  std::vector<std::array<int, 2>> vertex_edge;  // 2D: (vertex, edge)

  std::size_t size() const { return vertex_face.size() + edge_edge.size() + vertex_edge.size(); }
};

// The kinds of candidate pairs, and a test on a pair (kind, first index, second index) in the
// index conventions of Candidates.
enum class PairKind { vertex_face, edge_edge, vertex_edge };
using PairFilter = std::function<bool(PairKind, int, int)>;

// Pairs that may be closer than dhat at V (rows = CollisionMesh::positions): every box is grown
// by dhat / 2, so boxes overlap whenever the primitives' gap along every axis is <= dhat (a
// distance < dhat implies that).
Candidates proximity_candidates(const CollisionMesh& mesh, const VertexRows& V, double dhat,
                                BroadPhaseMethod method = BroadPhaseMethod::Auto);

// The proximity candidates for which `keep` holds, tested where the broad phase finds them (in
// parallel, while the pair's data is in cache) instead of over the whole list afterwards: e.g.
// the pairs closer than dhat, a tenth of the candidates, so that only those are stored and
// sorted. `keep` must depend on the pair alone (it runs on any thread, in any order).
Candidates proximity_candidates_where(const CollisionMesh& mesh, const VertexRows& V, double dhat,
                                      BroadPhaseMethod method, const PairFilter& keep);

// Pairs that may collide during the linear motion V0 -> V1: boxes swept over both end
// configurations, grown by margin / 2 each (pairs whose swept boxes come within `margin`).
Candidates ccd_candidates(const CollisionMesh& mesh, const VertexRows& V0, const VertexRows& V1,
                          double margin = 0.0,
                          BroadPhaseMethod method = BroadPhaseMethod::Auto);

// Point-primitive pairs only (vertex-face in 3D, vertex-edge in 2D) that may be closer than
// `radius` at V, as proximity_candidates without the edge-edge pairs (penalty contact).
Candidates point_candidates(const CollisionMesh& mesh, const VertexRows& V, double radius,
                            BroadPhaseMethod method = BroadPhaseMethod::Auto);

// The same from DOF vectors (size num_dof_vertices * dim); obstacles stay at rest.
Candidates proximity_candidates(const CollisionMesh& mesh, const VecX& x, double dhat,
                                BroadPhaseMethod method = BroadPhaseMethod::Auto);
Candidates ccd_candidates(const CollisionMesh& mesh, const VecX& x0, const VecX& x1,
                          double margin = 0.0,
                          BroadPhaseMethod method = BroadPhaseMethod::Auto);

}  // namespace softsim
