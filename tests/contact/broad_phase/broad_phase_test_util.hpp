#pragma once
// Random scenes and an independent O(n^2) reference for the broad phase tests.
#include <algorithm>
#include <array>
#include <random>
#include <vector>

#include "softsim/contact/broad_phase/candidates.hpp"
#include "softsim/contact/geometry/collision_mesh.hpp"
#include "softsim/mesh/surface.hpp"

namespace softsim::test {

using PairVec = std::vector<std::array<int, 2>>;

// Random-walk vertices (consecutive ids are close) so that simplices over nearby ids are small
// and share vertices with their neighbours (adjacent pairs exist and overlap).
inline VertexRows random_walk(int n, int dim, double step, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  VertexRows V(n, dim);
  V.row(0).setZero();
  for (int i = 1; i < n; ++i)
    for (int d = 0; d < dim; ++d) V(i, d) = V(i - 1, d) + step * u(rng);
  return V;
}

inline MatXi random_simplices(int n, int m, int k, std::mt19937& rng) {
  std::uniform_int_distribution<int> first(0, n - 5), off(1, 4);
  MatXi S(m, k);
  for (int i = 0; i < m; ++i) {
    std::vector<int> ids{first(rng)};
    while (static_cast<int>(ids.size()) < k) {
      const int c = ids[0] + off(rng);
      if (std::find(ids.begin(), ids.end(), c) == ids.end()) ids.push_back(c);
    }
    for (int j = 0; j < k; ++j) S(i, j) = ids[static_cast<std::size_t>(j)];
  }
  return S;
}

// Box of vertex ids (independent of the library's Aabb code), grown by r.
inline void ref_box(const VertexRows& V0, const VertexRows* V1, const std::vector<int>& ids,
                    double r, double lo[3], double hi[3]) {
  for (int d = 0; d < 3; ++d) {
    lo[d] = 1e300;
    hi[d] = -1e300;
  }
  for (int id : ids)
    for (int d = 0; d < V0.cols(); ++d)
      for (const VertexRows* V : {&V0, V1}) {
        if (!V) continue;
        lo[d] = std::min(lo[d], (*V)(id, d));
        hi[d] = std::max(hi[d], (*V)(id, d));
      }
  for (int d = 0; d < 3; ++d) {
    if (d < V0.cols()) {
      lo[d] -= r;
      hi[d] += r;
    } else {
      lo[d] = hi[d] = 0.0;
    }
  }
}

inline std::vector<int> row_ids(const MatXi& M, int i) {
  std::vector<int> ids;
  for (int j = 0; j < M.cols(); ++j) ids.push_back(M(i, j));
  return ids;
}

inline bool shares(const std::vector<int>& a, const std::vector<int>& b) {
  for (int x : a)
    if (std::find(b.begin(), b.end(), x) != b.end()) return true;
  return false;
}

// Brute force: every (a, b) whose grown boxes overlap; adjacent pairs (sharing a vertex) and
// static-static pairs dropped unless keep_excluded.
inline PairVec reference_pairs(const CollisionMesh& cm, const VertexRows& V0,
                               const VertexRows* V1, double r, char kind,
                               bool keep_excluded = false) {
  std::vector<std::vector<int>> A, B;
  for (int v : cm.vertices) A.push_back({v});
  if (kind == 'f')
    for (int f = 0; f < cm.num_faces(); ++f) B.push_back(row_ids(cm.faces, f));
  else
    for (int e = 0; e < cm.num_edges(); ++e) B.push_back(row_ids(cm.edges, e));
  const bool self = kind == 'x';  // edge-edge
  if (self) A = B;
  PairVec out;
  for (std::size_t i = 0; i < A.size(); ++i)
    for (std::size_t j = self ? i + 1 : 0; j < B.size(); ++j) {
      double alo[3], ahi[3], blo[3], bhi[3];
      ref_box(V0, V1, A[i], r, alo, ahi);
      ref_box(V0, V1, B[j], r, blo, bhi);
      bool hit = true;
      for (int d = 0; d < 3; ++d) hit = hit && alo[d] <= bhi[d] && blo[d] <= ahi[d];
      if (!hit) continue;
      if (!keep_excluded) {
        if (shares(A[i], B[j])) continue;
        if (cm.is_static_vertex(A[i][0]) && cm.is_static_vertex(B[j][0])) continue;
      }
      out.push_back({static_cast<int>(i), static_cast<int>(j)});
    }
  return out;
}

}  // namespace softsim::test
