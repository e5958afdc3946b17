#pragma once
// Axis-aligned bounding boxes of collision primitives (broad phase, Li & Jiang 2025, §24.2,
// "Broad Phase Collision Detection"). Always three components: 2D boxes have lo[2] = hi[2] = 0, so one
// kernel serves both dimensions. Plain data without virtual functions (portable to a GPU).
#include <algorithm>
#include <limits>
#include <span>
#include <vector>

#include "softsim/core/scratch_vector.hpp"
#include "softsim/core/types.hpp"

namespace softsim {

// Trivial (no member initialisers), so that large box arrays can be sized without a serial
// zeroing pass (ScratchVector); `Aabb{}` is the zero box.
struct Aabb {
  double lo[3];
  double hi[3];
};

// Closed-interval overlap on every axis (touching boxes overlap).
inline bool overlaps(const Aabb& a, const Aabb& b) {
  return a.lo[0] <= b.hi[0] && b.lo[0] <= a.hi[0] && a.lo[1] <= b.hi[1] &&
         b.lo[1] <= a.hi[1] && a.lo[2] <= b.hi[2] && b.lo[2] <= a.hi[2];
}

inline void expand(Aabb& box, const Aabb& other) {
  for (int d = 0; d < 3; ++d) {
    box.lo[d] = std::min(box.lo[d], other.lo[d]);
    box.hi[d] = std::max(box.hi[d], other.hi[d]);
  }
}

inline Aabb empty_aabb() {
  Aabb b;
  for (int d = 0; d < 3; ++d) {
    b.lo[d] = std::numeric_limits<double>::infinity();
    b.hi[d] = -std::numeric_limits<double>::infinity();
  }
  return b;
}

// Box of the simplex `ids` (k vertex ids, rows of V0 and, when V1 is given, also of V1: the
// box swept by linear motion from V0 to V1 is the box of both end configurations, since each
// coordinate moves monotonically), grown by `radius` on every side.
Aabb primitive_box(const VertexRows& V0, const VertexRows* V1, const int* ids, int k,
                   double radius);

// Boxes of the rows of `simplices` (m x k global vertex ids).
ScratchVector<Aabb> primitive_boxes(const VertexRows& V0, const VertexRows* V1,
                                  const Eigen::MatrixXi& simplices, double radius);
// Boxes of single vertices.
ScratchVector<Aabb> vertex_boxes(const VertexRows& V0, const VertexRows* V1,
                               const std::vector<int>& vertices, double radius);

}  // namespace softsim
