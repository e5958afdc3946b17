#include "softsim/pbd/momentum_damping.hpp"

#include <Eigen/Dense>

namespace softsim {

void damp_relative_motion(VecX& v, const VecX& x, const std::vector<double>& mass, int dim, int first, int count,
                          double k) {
  if (k <= 0.0 || count <= 0) return;
  auto pos = [&](int i) { Vec3 r = Vec3::Zero(); r.head(dim) = x.segment(i * dim, dim); return r; };
  auto vel = [&](int i) { Vec3 r = Vec3::Zero(); r.head(dim) = v.segment(i * dim, dim); return r; };
  double total = 0.0;
  Vec3 x_cm = Vec3::Zero(), v_cm = Vec3::Zero();
  for (int i = first; i < first + count; ++i) {
    const double m = mass[static_cast<std::size_t>(i)];
    total += m;
    x_cm += m * pos(i);
    v_cm += m * vel(i);
  }
  if (!(total > 0.0)) return;
  x_cm /= total;
  v_cm /= total;
  Vec3 angular = Vec3::Zero();
  Mat3 inertia = Mat3::Zero();
  for (int i = first; i < first + count; ++i) {
    const double m = mass[static_cast<std::size_t>(i)];
    if (m == 0.0) continue;
    const Vec3 r = pos(i) - x_cm;
    angular += m * r.cross(vel(i));
    Mat3 skew;
    skew << 0, -r.z(), r.y(), r.z(), 0, -r.x(), -r.y(), r.x(), 0;
    inertia += m * skew * skew.transpose();
  }
  Vec3 omega = Vec3::Zero();
  if (dim == 2) {
    if (inertia(2, 2) > 0.0) omega.z() = angular.z() / inertia(2, 2);
  } else {
    // A body on a line (rank-deficient inertia) gets the least-squares omega.
    omega = inertia.completeOrthogonalDecomposition().solve(angular);
  }
  for (int i = first; i < first + count; ++i) {
    if (mass[static_cast<std::size_t>(i)] == 0.0) continue;
    const Vec3 dv = v_cm + omega.cross(pos(i) - x_cm) - vel(i);
    v.segment(i * dim, dim) += k * dv.head(dim);
  }
}

}  // namespace softsim
