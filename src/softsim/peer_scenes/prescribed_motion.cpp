#include "softsim/peer_scenes/prescribed_motion.hpp"

#include <fmt/format.h>

#include <Eigen/Geometry>
#include <Eigen/SVD>
#include <cmath>

#include "softsim/core/errors.hpp"

namespace softsim {

nlohmann::json vec_json(const Vec3& v) { return {v.x(), v.y(), v.z()}; }

namespace {

// The rotation closest to A (polar decomposition by SVD).
Mat3 nearest_rotation(const Mat3& A) {
  const Eigen::JacobiSVD<Mat3> svd(A, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Mat3 D = Mat3::Identity();
  D(2, 2) = (svd.matrixU() * svd.matrixV().transpose()).determinant() < 0 ? -1.0 : 1.0;
  return svd.matrixU() * D * svd.matrixV().transpose();
}

}  // namespace

nlohmann::json keyframes(const std::vector<double>& times, const std::vector<Vec3>& offsets, double tolerance) {
  nlohmann::json path = nlohmann::json::array();
  const std::size_t n = times.size();
  for (std::size_t k = 0; k < n; ++k) {
    if (k > 0 && k + 1 < n) {
      // Interpolating the neighbours at t_k: keep the frame only where that misses it.
      const double w = (times[k] - times[k - 1]) / (times[k + 1] - times[k - 1]);
      const Vec3 between = offsets[k - 1] + w * (offsets[k + 1] - offsets[k - 1]);
      if ((between - offsets[k]).norm() <= tolerance) continue;
    }
    path.push_back({times[k], offsets[k].x(), offsets[k].y(), offsets[k].z()});
  }
  return path;
}

nlohmann::json fit_prescribed_motion(const DisplacementField& u, const std::vector<Vec3>& rest, double dt, int steps,
                                     const std::string& where) {
  if (rest.empty()) throw InputError(where + ": selects no vertex");
  Vec3 lo = rest.front(), hi = rest.front();
  for (const Vec3& x : rest) {
    lo = lo.cwiseMin(x);
    hi = hi.cwiseMax(x);
  }
  const double size = std::max({(hi - lo).norm(), lo.cwiseAbs().maxCoeff(), hi.cwiseAbs().maxCoeff(), 1e-3});
  const double tolerance = 1e-9 * size;
  std::vector<double> times(steps + 1);
  for (int k = 0; k <= steps; ++k) times[k] = k * dt;
  for (const double t : times)
    for (const Vec3& x : rest)
      if (!u(x, t).allFinite())
        throw InputError(fmt::format("{}: the prescribed displacement is not finite at t = {:g} s", where, t));
  for (const Vec3& x : rest)
    if ((u(x, 0.0)).norm() > tolerance)
      throw InputError(where + ": the displacement is not zero at t = 0 (a body starts where its mesh puts it)");

  // The rotation rate from the displacement's derivative at the first step, by central
  // differences (exact for the affine fields a rotation gives).
  const Vec3 centre = 0.5 * (lo + hi);
  const double h = 1e-3 * size;
  Mat3 A = Mat3::Identity();
  for (int a = 0; a < 3; ++a) {
    const Vec3 e = Vec3::Unit(a) * h;
    A.col(a) += (u(centre + e, dt) - u(centre - e, dt)) / (2 * h);
  }
  const Eigen::AngleAxisd turn(nearest_rotation(A));
  Vec3 omega = turn.axis() * turn.angle() / dt;
  if (omega.norm() * dt < 1e-12) omega.setZero();

  // With the rotation about the origin, what is left must be one translation for every point.
  std::vector<Vec3> offsets(steps + 1);
  for (int k = 0; k <= steps; ++k) {
    const double t = times[k];
    const Mat3 R = omega.isZero() ? Mat3::Identity() : Mat3(Eigen::AngleAxisd(omega.norm() * t, omega.normalized()));
    offsets[k] = rest.front() + u(rest.front(), t) - R * rest.front();
    for (const Vec3& x : rest) {
      const Vec3 predicted = R * x + offsets[k];
      const double miss = (x + u(x, t) - predicted).norm();
      if (miss > 1e3 * tolerance)
        throw InputError(fmt::format("{}: the prescribed displacement at t = {:g} s is not a rigid motion at a constant "
                                     "rotation rate (a point misses it by {:.3g} m); softsim prescribes translations "
                                     "and constant-rate rotations of a selection",
                                     where, t, miss));
    }
  }
  nlohmann::json motion = nlohmann::json::object();
  if (!omega.isZero()) {
    motion["angular_velocity"] = vec_json(omega);
    motion["rotation_center"] = vec_json(Vec3::Zero());
  }
  bool still = true, uniform = true;
  const Vec3 velocity = steps > 0 ? Vec3(offsets[steps] / times[steps]) : Vec3::Zero();
  for (int k = 0; k <= steps; ++k) {
    still = still && offsets[k].norm() <= tolerance;
    uniform = uniform && (offsets[k] - velocity * times[k]).norm() <= tolerance;
  }
  if (still) return motion;
  if (uniform) motion["velocity"] = vec_json(velocity);
  else motion["path"] = keyframes(times, offsets, tolerance);
  return motion;
}

}  // namespace softsim
