#include "softsim/contact/geometry/obstacle_features.hpp"

#include <algorithm>
#include <utility>

namespace softsim {

ObstacleFeatures obstacle_features(const AnalyticObstacle& obstacle, int dim) {
  ObstacleFeatures f;
  f.points.resize(0, dim);
  f.edges.resize(0, 2);
  switch (obstacle.shape) {
    case AnalyticObstacle::Shape::Plane:
      return f;
    case AnalyticObstacle::Shape::Sphere:
      f.points = obstacle.point.head(dim).transpose();
      f.separation = obstacle.radius;
      return f;
    case AnalyticObstacle::Shape::Box: {
      // Corner k has the sign of bit a of k along axis a.
      const int corners = 1 << dim;
      f.points.resize(corners, dim);
      for (int k = 0; k < corners; ++k)
        for (int a = 0; a < dim; ++a)
          f.points(k, a) = obstacle.point[a] + ((k >> a) & 1 ? 1.0 : -1.0) * obstacle.half_extents[a];
      if (dim == 3) {
        // The 12 edges: corners differing in one bit.
        f.edges.resize(12, 2);
        int e = 0;
        for (int k = 0; k < corners; ++k)
          for (int a = 0; a < dim; ++a)
            if (!((k >> a) & 1)) f.edges.row(e++) << k, k | (1 << a);
      }
      return f;
    }
  }
  return f;
}

std::vector<char> edges_of_faces(const MatXi& faces, const MatXi& edges) {
  std::vector<std::pair<int, int>> sides;
  for (Eigen::Index f = 0; f < faces.rows(); ++f)
    for (int a = 0; a < 3; ++a) {
      const int u = faces(f, a), v = faces(f, (a + 1) % 3);
      sides.emplace_back(std::min(u, v), std::max(u, v));
    }
  std::sort(sides.begin(), sides.end());
  std::vector<char> in_face(static_cast<std::size_t>(edges.rows()), 0);
  for (Eigen::Index e = 0; e < edges.rows(); ++e) {
    const int u = edges(e, 0), v = edges(e, 1);
    in_face[static_cast<std::size_t>(e)] =
        std::binary_search(sides.begin(), sides.end(), std::make_pair(std::min(u, v), std::max(u, v)));
  }
  return in_face;
}

}  // namespace softsim
