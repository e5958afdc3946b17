#pragma once
// An affine placement x' = R diag(s) x + t of a mesh, as softsim's `transform` key writes it
// (scale, then rotations about x, y, z, then translate; docs/scene-format.md). The peer formats
// place meshes with other rotation orders and centring conventions; each converter composes its
// placement here and writes the equivalent softsim transform.
#include <vector>

#include <nlohmann/json.hpp>

#include "softsim/core/types.hpp"

namespace softsim {

struct Placement {
  Mat3 rotation = Mat3::Identity();
  Vec3 scale = Vec3::Ones();
  Vec3 translation = Vec3::Zero();

  // softsim's transform object; the rotation becomes x-y-z Euler angles in degrees.
  nlohmann::json to_json() const;
  // The rotation as softsim rebuilds it from those angles (so vertex selections made here see the
  // positions softsim's build will make, to rounding).
  Mat3 rebuilt_rotation() const;
  Vec3 apply(const Vec3& x) const { return rebuilt_rotation() * x.cwiseProduct(scale) + translation; }
  // Every row of `vertices` (n x 3) placed, the rotation rebuilt once.
  std::vector<Vec3> apply_to(const MatX& vertices) const;
};

// The angles (radians) about x, y, z with R = Rz(c) Ry(b) Rx(a).
Vec3 xyz_euler_angles(const Mat3& R);
Mat3 rotation_from_xyz_degrees(const Vec3& degrees);
Mat3 axis_rotation(int axis, double degrees);

}  // namespace softsim
