#include "softsim/contact/geometry/obstacle_features.hpp"

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

}  // namespace softsim
