#include "softsim/peer_scenes/rigid_transform.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <Eigen/Geometry>

namespace softsim {

Vec3 xyz_euler_angles(const Mat3& R) {
  // R = Rz(c) Ry(b) Rx(a): R(2,0) = -sin b, R(2,1) = cos b sin a, R(2,2) = cos b cos a,
  // R(1,0) = sin c cos b, R(0,0) = cos c cos b.
  const double sb = std::clamp(-R(2, 0), -1.0, 1.0);
  const double b = std::asin(sb);
  if (std::abs(sb) < 1.0 - 1e-12) return Vec3(std::atan2(R(2, 1), R(2, 2)), b, std::atan2(R(1, 0), R(0, 0)));
  // Gimbal lock (b = +-90 degrees): only a -+ c is determined; take a = 0.
  return Vec3(0.0, b, std::atan2(-R(0, 1), R(1, 1)));
}

Mat3 axis_rotation(int axis, double degrees) {
  return Eigen::AngleAxisd(degrees * std::numbers::pi / 180.0, Vec3::Unit(axis)).toRotationMatrix();
}

Mat3 rotation_from_xyz_degrees(const Vec3& d) {
  return axis_rotation(2, d.z()) * axis_rotation(1, d.y()) * axis_rotation(0, d.x());
}

namespace {
// Exact zeros and whole degrees where rounding left 1e-14 residues, so the JSON reads well.
double tidy_degrees(double degrees) {
  const double whole = std::round(degrees);
  return std::abs(degrees - whole) < 1e-9 ? whole + 0.0 : degrees;
}
Vec3 euler_degrees(const Mat3& R) {
  const Vec3 a = xyz_euler_angles(R) * (180.0 / std::numbers::pi);
  return Vec3(tidy_degrees(a.x()), tidy_degrees(a.y()), tidy_degrees(a.z()));
}
}  // namespace

Mat3 Placement::rebuilt_rotation() const { return rotation_from_xyz_degrees(euler_degrees(rotation)); }

std::vector<Vec3> Placement::apply_to(const MatX& vertices) const {
  const Mat3 R = rebuilt_rotation();
  std::vector<Vec3> x(vertices.rows());
  for (Eigen::Index v = 0; v < vertices.rows(); ++v)
    x[v] = R * Vec3(vertices.row(v).transpose()).cwiseProduct(scale) + translation;
  return x;
}

nlohmann::json Placement::to_json() const {
  const Vec3 d = euler_degrees(rotation);
  nlohmann::json t = nlohmann::json::object();
  if (translation != Vec3::Zero()) t["translate"] = {translation.x(), translation.y(), translation.z()};
  if (d != Vec3::Zero()) t["rotate"] = {d.x(), d.y(), d.z()};
  if (scale != Vec3::Ones()) {
    if (scale.x() == scale.y() && scale.y() == scale.z()) t["scale"] = scale.x();
    else t["scale"] = {scale.x(), scale.y(), scale.z()};
  }
  return t;
}

}  // namespace softsim
