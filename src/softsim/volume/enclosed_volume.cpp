#include "softsim/volume/enclosed_volume.hpp"

#include <Eigen/Geometry>

namespace softsim {

namespace {

// [v]_x w = v x w
Mat3 skew(const Vec3& v) {
  Mat3 S;
  S << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return S;
}

}  // namespace

double triangle_volume(const Vec3& y0, const Vec3& y1, const Vec3& y2) { return y0.dot(y1.cross(y2)) / 6.0; }

Vec9 triangle_volume_gradient(const Vec3& y0, const Vec3& y1, const Vec3& y2) {
  Vec9 g;
  g << y1.cross(y2), y2.cross(y0), y0.cross(y1);
  return g / 6.0;
}

Mat9 triangle_volume_hessian(const Vec3& y0, const Vec3& y1, const Vec3& y2) {
  Mat9 H = Mat9::Zero();
  H.block<3, 3>(0, 3) = -skew(y2);
  H.block<3, 3>(0, 6) = skew(y1);
  H.block<3, 3>(3, 6) = -skew(y0);
  H.block<3, 3>(3, 0) = skew(y2);
  H.block<3, 3>(6, 0) = -skew(y1);
  H.block<3, 3>(6, 3) = skew(y0);
  return H / 6.0;
}

Vec9 triangle_volume_hessian_times(const Vec3& y0, const Vec3& y1, const Vec3& y2, const Vec9& p) {
  const Vec3 p0 = p.segment<3>(0), p1 = p.segment<3>(3), p2 = p.segment<3>(6);
  Vec9 out;
  out << p1.cross(y2) + y1.cross(p2), p2.cross(y0) + y2.cross(p0), p0.cross(y1) + y0.cross(p1);
  return out / 6.0;
}

double enclosed_volume(const Eigen::MatrixXi& faces, const VecX& x, const Vec3& c) {
  double V = 0.0;
  for (Eigen::Index f = 0; f < faces.rows(); ++f)
    V += triangle_volume(x.segment<3>(3 * faces(f, 0)) - c, x.segment<3>(3 * faces(f, 1)) - c,
                         x.segment<3>(3 * faces(f, 2)) - c);
  return V;
}

}  // namespace softsim
