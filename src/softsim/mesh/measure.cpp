#include "softsim/mesh/measure.hpp"

#include <Eigen/Geometry>
#include <Eigen/LU>
#include <cmath>
#include <limits>

namespace softsim {

namespace {
Vec3 point3(const Mesh& mesh, int v) {
  Vec3 p = Vec3::Zero();
  for (int d = 0; d < mesh.dim() && d < 3; ++d) p[d] = mesh.vertices(v, d);
  return p;
}
}  // namespace

bool cell_measure_is_signed(const Mesh& mesh) {
  return (mesh.cells.cols() == 4 && mesh.dim() == 3) || (mesh.cells.cols() == 3 && mesh.dim() == 2);
}

double cell_measure(const Mesh& mesh, int c) {
  const auto& C = mesh.cells;
  switch (C.cols()) {
    case 4: {
      const Vec3 p0 = point3(mesh, C(c, 0));
      Mat3 E;
      E.col(0) = point3(mesh, C(c, 1)) - p0;
      E.col(1) = point3(mesh, C(c, 2)) - p0;
      E.col(2) = point3(mesh, C(c, 3)) - p0;
      return E.determinant() / 6.0;
    }
    case 3: {
      const Vec3 p0 = point3(mesh, C(c, 0));
      const Vec3 n = (point3(mesh, C(c, 1)) - p0).cross(point3(mesh, C(c, 2)) - p0);
      return mesh.dim() == 2 ? 0.5 * n.z() : 0.5 * n.norm();
    }
    case 2: return (point3(mesh, C(c, 1)) - point3(mesh, C(c, 0))).norm();
    default: return 0.0;
  }
}

double cell_aspect_ratio(const Mesh& mesh, int c) {
  const int k = static_cast<int>(mesh.cells.cols());
  if (k == 2) return cell_measure(mesh, c) > 0 ? 1.0 : std::numeric_limits<double>::infinity();
  double longest = 0.0;
  for (int a = 0; a < k; ++a)
    for (int b = a + 1; b < k; ++b)
      longest = std::max(longest, (point3(mesh, mesh.cells(c, a)) - point3(mesh, mesh.cells(c, b))).norm());
  const double measure = std::abs(cell_measure(mesh, c));
  if (k == 3) {
    double perimeter = 0.0;
    for (int a = 0; a < 3; ++a)
      perimeter += (point3(mesh, mesh.cells(c, a)) - point3(mesh, mesh.cells(c, (a + 1) % 3))).norm();
    const double inradius = measure / (0.5 * perimeter);
    if (!(inradius > 0)) return std::numeric_limits<double>::infinity();
    return longest / (2.0 * std::sqrt(3.0) * inradius);
  }
  static constexpr int faces[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};
  double area = 0.0;
  for (const auto& f : faces) {
    const Vec3 p0 = point3(mesh, mesh.cells(c, f[0]));
    area += 0.5 * (point3(mesh, mesh.cells(c, f[1])) - p0).cross(point3(mesh, mesh.cells(c, f[2])) - p0).norm();
  }
  const double inradius = 3.0 * measure / area;
  if (!(inradius > 0)) return std::numeric_limits<double>::infinity();
  return longest / (2.0 * std::sqrt(6.0) * inradius);
}

BoundingBox bounding_box(const Eigen::MatrixXd& V) {
  BoundingBox box;
  if (V.rows() == 0) return box;
  box.min = V.colwise().minCoeff().transpose();
  box.max = V.colwise().maxCoeff().transpose();
  return box;
}

double degenerate_measure_tolerance(const Mesh& mesh) {
  const double diag = bounding_box(mesh.vertices).diagonal();
  const int d = static_cast<int>(mesh.cells.cols()) - 1;
  return 1e-12 * std::pow(diag, d);
}

}  // namespace softsim
