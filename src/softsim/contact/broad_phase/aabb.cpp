#include "softsim/contact/broad_phase/aabb.hpp"

#include <limits>

#include "softsim/core/parallel.hpp"

namespace softsim {

Aabb primitive_box(const VertexRows& V0, const VertexRows* V1, const int* ids, int k,
                   double radius) {
  Aabb b = empty_aabb();
  const int dim = static_cast<int>(V0.cols());
  for (int i = 0; i < k; ++i) {
    for (int d = 0; d < dim; ++d) {
      const double p = V0(ids[i], d);
      b.lo[d] = std::min(b.lo[d], p);
      b.hi[d] = std::max(b.hi[d], p);
      if (V1) {
        const double q = (*V1)(ids[i], d);
        b.lo[d] = std::min(b.lo[d], q);
        b.hi[d] = std::max(b.hi[d], q);
      }
    }
  }
  for (int d = 0; d < 3; ++d) {
    if (d >= dim) {
      b.lo[d] = b.hi[d] = 0.0;
    } else {
      b.lo[d] -= radius;
      b.hi[d] += radius;
    }
  }
  return b;
}

ScratchVector<Aabb> primitive_boxes(const VertexRows& V0, const VertexRows* V1,
                                  const Eigen::MatrixXi& simplices, double radius) {
  ScratchVector<Aabb> boxes(static_cast<std::size_t>(simplices.rows()));
  const int k = static_cast<int>(simplices.cols());
  parallel_for(boxes.size(), [&](std::size_t i) {
    int ids[4];
    for (int j = 0; j < k; ++j) ids[j] = simplices(static_cast<Eigen::Index>(i), j);
    boxes[i] = primitive_box(V0, V1, ids, k, radius);
  });
  return boxes;
}

ScratchVector<Aabb> vertex_boxes(const VertexRows& V0, const VertexRows* V1,
                               const std::vector<int>& vertices, double radius) {
  ScratchVector<Aabb> boxes(vertices.size());
  parallel_for(boxes.size(), [&](std::size_t i) {
    boxes[i] = primitive_box(V0, V1, &vertices[i], 1, radius);
  });
  return boxes;
}

}  // namespace softsim
