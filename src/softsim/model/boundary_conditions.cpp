#include "softsim/model/boundary_conditions.hpp"

#include <Eigen/Geometry>
#include <stdexcept>

namespace softsim {

void BoundaryConditions::set_dimensions(int num_vertices, int dim) {
  num_vertices_ = num_vertices;
  dim_ = dim;
  fixed_.assign(static_cast<std::size_t>(num_vertices) * dim, 0);
  slip_eliminated_.assign(fixed_.size(), 0);
  slip_index_.assign(num_vertices, -1);
  refresh_eliminated();
}

void BoundaryConditions::refresh_eliminated() {
  eliminated_.resize(fixed_.size());
  any_eliminated_ = false;
  for (std::size_t i = 0; i < fixed_.size(); ++i) {
    eliminated_[i] = fixed_[i] || slip_eliminated_[i];
    any_eliminated_ = any_eliminated_ || eliminated_[i];
  }
}

void BoundaryConditions::add_motion(PrescribedMotion motion) {
  for (int v : motion.vertices)
    for (int d = 0; d < dim_; ++d) fixed_[v * dim_ + d] = 1;
  motions_.push_back(std::move(motion));
  refresh_eliminated();
}

void BoundaryConditions::add_slip(const SlipCondition& slip) {
  // Local frame: first column = the direction; the rest completes an orthonormal basis
  // (Li & Jiang 2025, §6.3: m = n x e_x, or n x e_y when n is close to e_x).
  const VecX n = slip.direction.normalized();
  MatX Q(dim_, dim_);
  Q.col(0) = n;
  if (dim_ == 2) {
    Q.col(1) = Vec2(-n[1], n[0]);
  } else {
    const Vec3 n3 = n;
    Vec3 m = std::abs(n3.x()) < 0.9 ? n3.cross(Vec3::UnitX()) : n3.cross(Vec3::UnitY());
    m.normalize();
    Q.col(1) = m;
    Q.col(2) = n3.cross(m);
  }
  // Checked before anything changes: a refused condition leaves the others as they were.
  std::vector<char> listed(slip_index_.size(), 0);
  for (int v : slip.vertices) {
    if (slip_index_[v] >= 0 || listed[v]) throw std::invalid_argument("vertex has two slip conditions");
    listed[v] = 1;
  }
  for (int v : slip.vertices) {
    slip_index_[v] = static_cast<int>(slip_frames_.size());
    slip_frames_.push_back(Q);
    slip_vertices_.push_back(v);
    // Plane: the normal coordinate is eliminated. Line: every coordinate but the direction's.
    for (int d = 0; d < dim_; ++d) {
      const bool eliminated = slip.line ? d != 0 : d == 0;
      slip_eliminated_[v * dim_ + d] = eliminated;
    }
  }
  refresh_eliminated();
}

int BoundaryConditions::num_fixed_dofs() const {
  int n = 0;
  for (char out : eliminated_) n += out;
  return n;
}

namespace {
VecX offset_at(const PrescribedMotion& m, double t, int dim) {
  const auto& keys = m.steering;
  if (keys.empty() || t < keys.front().first) return m.offset ? m.offset(t) : VecX(VecX::Zero(dim));
  for (std::size_t k = 1; k < keys.size(); ++k)
    if (t <= keys[k].first) {
      const double s = (t - keys[k - 1].first) / (keys[k].first - keys[k - 1].first);
      return (1 - s) * keys[k - 1].second + s * keys[k].second;
    }
  return keys.back().second;
}

// Where motion m puts the vertex that started at x0 (its rest position) at time t.
VecX prescribed_position(const PrescribedMotion& m, const VecX& x0, double t, const VecX& offset) {
  if (!m.rotation) return x0 + offset;
  return m.center + m.rotation(t) * (x0 - m.center) + offset;
}
}  // namespace

VecX BoundaryConditions::offset(std::size_t index, double t) const { return offset_at(motions_.at(index), t, dim_); }

void BoundaryConditions::steer(std::size_t index, double from, double to, const VecX& target) {
  PrescribedMotion& m = motions_.at(index);
  if (m.rotation) throw std::invalid_argument("steer: the motion rotates; only translations can be steered");
  if (!(to > from)) throw std::invalid_argument("steer: the target time must come after the start");
  if (target.size() != dim_) throw std::invalid_argument("steer: the target offset must have dim components");
  const VecX start = offset_at(m, from, dim_);
  // Only the last keyframe before `from` is kept: with (from, start) it reproduces the motion
  // just before `from` (velocities are differences across it); older ones are never asked for.
  auto& keys = m.steering;
  while (!keys.empty() && keys.back().first >= from) keys.pop_back();
  if (keys.size() > 1) keys.erase(keys.begin(), keys.end() - 1);
  keys.emplace_back(from, start);
  keys.emplace_back(to, target);
}

void BoundaryConditions::apply_positions(VecX& x, const VecX& x0, double t) const {
  for (const auto& m : motions_) {
    if (!m.offset && !m.rotation && m.steering.empty()) {  // held where it started: no temporaries
      for (int v : m.vertices) x.segment(v * dim_, dim_) = x0.segment(v * dim_, dim_);
      continue;
    }
    const VecX offset = offset_at(m, t, dim_);
    for (int v : m.vertices) x.segment(v * dim_, dim_) = prescribed_position(m, x0.segment(v * dim_, dim_), t, offset);
  }
}

void BoundaryConditions::apply_velocities(VecX& vel, const VecX& x0, double t) const {
  const double dt = 1e-6;
  const double before = std::max(0.0, t - dt), after = t + dt;
  for (const auto& m : motions_) {
    const VecX offset_before = offset_at(m, before, dim_), offset_after = offset_at(m, after, dim_);
    for (int v : m.vertices) {
      const VecX rest = x0.segment(v * dim_, dim_);
      vel.segment(v * dim_, dim_) = (prescribed_position(m, rest, after, offset_after) -
                                     prescribed_position(m, rest, before, offset_before)) /
                                    (after - before);
    }
  }
}

void BoundaryConditions::reduce_gradient(VecX& g) const {
  for (std::size_t s = 0; s < slip_vertices_.size(); ++s) {
    const int v = slip_vertices_[s];
    g.segment(v * dim_, dim_) = slip_frames_[s].transpose() * g.segment(v * dim_, dim_);
  }
  if (!any_eliminated_) return;
  for (std::size_t i = 0; i < eliminated_.size(); ++i)
    if (eliminated_[i]) g[i] = 0.0;
}

void BoundaryConditions::reduce_hessian(SparseMat& H) const {
  if (!slip_vertices_.empty()) {
    // H <- Q^T H Q with Q block diagonal; Q's blocks are dense within a vertex, and every
    // vertex block of the pattern is dense, so the pattern does not change.
    std::vector<Triplet> q;
    for (int v = 0; v < num_vertices_; ++v) {
      if (slip_index_[v] < 0) {
        for (int d = 0; d < dim_; ++d) q.emplace_back(v * dim_ + d, v * dim_ + d, 1.0);
      } else {
        const MatX& Q = slip_frames_[slip_index_[v]];
        for (int r = 0; r < dim_; ++r)
          for (int c = 0; c < dim_; ++c) q.emplace_back(v * dim_ + r, v * dim_ + c, Q(r, c));
      }
    }
    SparseMat Qm(H.rows(), H.cols());
    Qm.setFromTriplets(q.begin(), q.end());
    SparseMat rotated = SparseMat(Qm.transpose()) * H * Qm;
    // Copy values back into H's pattern (rotated's pattern is a subset of H's).
    for (int c = 0; c < H.outerSize(); ++c) {
      SparseMat::InnerIterator it(H, c);
      for (SparseMat::InnerIterator jt(rotated, c); jt; ++jt) {
        while (it && it.row() < jt.row()) { it.valueRef() = 0.0; ++it; }
        if (it && it.row() == jt.row()) { it.valueRef() = jt.value(); ++it; }
      }
      for (; it; ++it) it.valueRef() = 0.0;
    }
  }
  if (!any_eliminated_) return;
  for (int c = 0; c < H.outerSize(); ++c) {
    if (eliminated_[c]) {
      for (SparseMat::InnerIterator it(H, c); it; ++it) it.valueRef() = (it.row() == c) ? 1.0 : 0.0;
      continue;
    }
    for (SparseMat::InnerIterator it(H, c); it; ++it)
      if (eliminated_[it.row()]) it.valueRef() = 0.0;
  }
}

void BoundaryConditions::expand_step(VecX& p) const {
  for (std::size_t s = 0; s < slip_vertices_.size(); ++s) {
    const int v = slip_vertices_[s];
    p.segment(v * dim_, dim_) = slip_frames_[s] * p.segment(v * dim_, dim_);
  }
}

}  // namespace softsim
