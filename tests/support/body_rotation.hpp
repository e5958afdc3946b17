#pragma once
// A 2D body's rotation, tracked continuously: the best-fit rotation of its nodes about their
// centroid, unwrapped from sample to sample. The angle of one edge through atan2 wraps at
// +-180 deg and is thrown off by the edge's own deformation; a square that rolls over twice
// turns by about 180 deg, which atan2 cannot tell from 0 or from -180.
#include <algorithm>
#include <cmath>

#include <Eigen/Dense>

namespace softsim::test {

// The angle (radians, counter-clockwise positive, in (-pi, pi]) of the rotation R minimising
// sum_i |R r0_i - r_i|^2, r0_i and r_i the nodes' offsets from their centroid at rest and now
// (the 2D Procrustes problem: atan2 of sum r0_i x r_i over sum r0_i . r_i). Rows are nodes.
inline double best_fit_rotation(const Eigen::MatrixXd& rest, const Eigen::MatrixXd& now) {
  const Eigen::MatrixXd r0 = rest.rowwise() - rest.colwise().mean();
  const Eigen::MatrixXd r = now.rowwise() - now.colwise().mean();
  double cross = 0.0, dot = 0.0;
  for (Eigen::Index i = 0; i < r.rows(); ++i) {
    cross += r0(i, 0) * r(i, 1) - r0(i, 1) * r(i, 0);
    dot += r0(i, 0) * r(i, 0) + r0(i, 1) * r(i, 1);
  }
  return std::atan2(cross, dot);
}

// Accumulates best-fit angles into a continuous one: each new angle is taken as the previous one
// plus the change wrapped into (-pi, pi], so samples must be close enough that the body turns by
// less than half a turn between them.
class UnwrappedRotation {
 public:
  double add(double wrapped) {
    if (!started_) {
      started_ = true;
      angle_ = wrapped;
    } else {
      const double change = std::remainder(wrapped - last_, 2 * M_PI);
      largest_change_ = std::max(largest_change_, std::abs(change));
      angle_ += change;
    }
    last_ = wrapped;
    return angle_;
  }
  double angle() const { return angle_; }
  // The largest change between two samples: well below pi, the unwrapping was unambiguous.
  double largest_change() const { return largest_change_; }

 private:
  bool started_ = false;
  double last_ = 0.0, angle_ = 0.0, largest_change_ = 0.0;
};

}  // namespace softsim::test
