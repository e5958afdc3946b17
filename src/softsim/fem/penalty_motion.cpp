#include "softsim/fem/penalty_motion.hpp"

#include <algorithm>

namespace softsim {

struct PenaltyMotion::Targets : TermData {
  double kappa = 0.0;
  double t0 = 0.0, h = 0.0;  // the step
  std::vector<VecX> targets, starts;  // end-of-step targets and start-of-step positions
  std::vector<char> held;             // hold_when_met: vertices held for the rest of the solve
  bool releasable = false, released = false;  // a release condition exists; it has been met
  // The target of vertex i for a stage ending at fraction c of the step (on the stack: it is
  // asked for every vertex in every evaluation).
  VecUpTo3 target(std::size_t i, double c) const {
    return c == 1.0 ? VecUpTo3(targets[i]) : VecUpTo3(starts[i] + c * (targets[i] - starts[i]));
  }
  // The stiffness grows when targets are missed and carries over; begin_step sets the targets.
  void save(ArchiveWriter& out) const override {
    out.real(kappa);
    if (releasable) out.flag(released);
  }
  void load(ArchiveReader& in) override {
    kappa = in.real();
    if (releasable) released = in.flag();
  }
};

// Where each vertex is pulled in a stage ending at fraction c of the step: on the chord from its
// start to its end-of-step target, or, for a turning motion, on the arc: its start turned by
// R(t0 + c h) R(t0)^T about the centre and moved with it by c h v (a TR-BDF2 or SDIRK2 stage
// solves for positions at t0 + c h).
class PenaltyMotion::StageTargets {
 public:
  StageTargets(const Targets& d, double c) : d_(d), c_(c) {}
  StageTargets(const Targets& d, double c, const MatX& turn, const VecX& center, const VecX& shift)
      : d_(d), c_(c), turn_(turn), center_(center), shift_(shift) {}
  VecUpTo3 operator()(std::size_t i) const {
    if (turn_.size() == 0) return d_.target(i, c_);
    return center_ + shift_ + turn_ * (d_.starts[i] - center_);
  }

 private:
  const Targets& d_;
  double c_;
  MatUpTo3 turn_;
  VecUpTo3 center_, shift_;
};

PenaltyMotion::StageTargets PenaltyMotion::arc_targets(const Targets& d, double c) const {
  const double t = d.t0, h = d.h;
  return StageTargets(d, c, rotation_(t + c * h) * rotation_(t).transpose(), center_ + t * velocity_,
                      c * h * velocity_);
}

PenaltyMotion::StageTargets PenaltyMotion::stage_targets(const Targets& d, double c) const {
  // The end of the step's targets are stored (begin_step), whichever the motion.
  if (!rotation_ || c == 1.0) return StageTargets(d, c);
  return arc_targets(d, c);
}

PenaltyMotion::PenaltyMotion(int dim, std::vector<int> vertices, std::vector<double> masses, const VecX& velocity,
                             double limit, double kappa, double tolerance, const VecX& initial_positions,
                             bool hold_when_met, bool limit_by_position)
    : dim_(dim), vertices_(std::move(vertices)), masses_(std::move(masses)), velocity_(velocity), limit_(limit),
      kappa_(kappa), tolerance_(tolerance), hold_when_met_(hold_when_met), limit_by_position_(limit_by_position) {
  for (int v : vertices_) origins_.push_back(initial_positions.segment(static_cast<Eigen::Index>(v) * dim_, dim_));
}

std::unique_ptr<TermData> PenaltyMotion::make_data() const {
  auto data = std::make_unique<Targets>();
  data->kappa = kappa_;
  data->releasable = release_.has_value();
  return data;
}

double PenaltyMotion::stiffness(const ModelData& data) const { return data.of<Targets>(this).kappa; }

void PenaltyMotion::begin_step(const StepContext& ctx, const VecX& x_start) const {
  // Each target moves by h v while the motion has not travelled `limit`: measured from time,
  // |v| (t + h) <= limit, or on the vertex itself, (x0 + limit v/|v| - x^n) . v > 0 (the companion
  // code of Li & Jiang 2025, §11.2, which lets a lagging vertex catch up). Either depends on the
  // step's start only, so a step that is tried again (a step cutback,
  // integrate/subdividing_stepper.hpp) decides the same way; both allow for round-off, so that a
  // vertex that followed its targets exactly stops after limit / (|v| h) steps.
  const double t = ctx.stage.t0, h = ctx.stage.h;
  const double speed = velocity_.norm();
  const double slack = 1e-12 * std::max(1.0, limit_);
  const bool moving_in_time = speed * (t + h) <= limit_ + slack;
  Targets& d = ctx.data.of<Targets>(this);
  if (release_ && !d.released) {
    bool beyond = true;
    for (int v : release_->watched) beyond = beyond && x_start[static_cast<Eigen::Index>(v) * dim_ + release_->axis] > release_->above;
    d.released = beyond;
  }
  if (d.released || t < from_ || t >= until_) {  // free in this step: no targets, no penalty
    d.targets.clear();
    d.starts.clear();
    d.held.clear();
    return;
  }
  d.targets.resize(vertices_.size());
  d.starts.resize(vertices_.size());
  d.t0 = t;
  d.h = h;
  for (std::size_t i = 0; i < vertices_.size(); ++i) d.starts[i] = x_start.segment(vertices_[i] * dim_, dim_);
  // A turning motion has no limit: its targets are its starts turned and moved over the step.
  const StageTargets turned = rotation_ ? arc_targets(d, 1.0) : StageTargets(d, 1.0);
  const VecX path_step = path_ ? VecX(path_(t + h) - path_(t)) : VecX();
  for (std::size_t i = 0; i < vertices_.size(); ++i) {
    if (path_) {
      d.targets[i] = d.starts[i] + path_step;
      continue;
    }
    if (rotation_) {
      d.targets[i] = turned(i);
      continue;
    }
    d.targets[i] = d.starts[i];
    if (speed == 0.0) continue;
    const bool moving = std::isinf(limit_) ||
                        (limit_by_position_ ? limit_ - (d.starts[i] - origins_[i]).dot(velocity_) / speed > slack
                                            : moving_in_time);
    if (moving) d.targets[i] += h * velocity_;
  }
  d.held.assign(vertices_.size(), 0);
  hold_met_targets(ctx, x_start);
}

void PenaltyMotion::hold_met_targets(const StepContext& ctx, const VecX& x) const {
  Targets& d = ctx.data.of<Targets>(this);
  if (!hold_when_met_ || ctx.stage.h <= 0.0 || d.targets.empty()) return;
  const StageTargets target = stage_targets(d, ctx.stage.fraction);
  for (std::size_t i = 0; i < vertices_.size(); ++i)
    if (!d.held[i] && (x.segment(vertices_[i] * dim_, dim_) - target(i)).norm() / ctx.stage.h < tolerance_)
      d.held[i] = 1;
}

bool PenaltyMotion::end_iteration(const StepContext& ctx, const VecX& x) const {
  hold_met_targets(ctx, x);
  return false;
}

void PenaltyMotion::held_dofs(const ModelData& data, std::vector<int>& dofs) const {
  if (!hold_when_met_) return;
  const Targets& d = data.of<Targets>(this);
  for (std::size_t i = 0; i < d.held.size(); ++i)
    if (d.held[i])
      for (int c = 0; c < dim_; ++c) dofs.push_back(vertices_[i] * dim_ + c);
}

double PenaltyMotion::evaluate(const EvalContext& ctx, const VecX& x, const AssemblyOutputs& out) const {
  const Targets& d = ctx.data.of<Targets>(this);
  if (d.targets.empty()) return 0.0;
  double total = 0.0;
  const StageTargets target = stage_targets(d, ctx.stage.fraction);
  for (std::size_t i = 0; i < vertices_.size(); ++i) {
    const int v = vertices_[i];
    const VecUpTo3 r = x.segment(v * dim_, dim_) - target(i);
    const double k = out.weight * d.kappa * masses_[i];
    total += 0.5 * k * r.squaredNorm();
    if (out.gradient) out.gradient->segment(v * dim_, dim_) += k * r;
    if (out.hessian)
      for (int c = 0; c < dim_; ++c) out.hessian->valuePtr()[layout_->diagonal_index(v * dim_ + c)] += k;
  }
  return total;
}

double PenaltyMotion::max_target_error(const EvalContext& ctx, const VecX& x) const {
  const Targets& d = ctx.data.of<Targets>(this);
  double e = 0.0;
  if (d.targets.empty()) return e;  // free in this step
  const StageTargets target = stage_targets(d, ctx.stage.fraction);
  for (std::size_t i = 0; i < vertices_.size(); ++i)
    e = std::max(e, (x.segment(vertices_[i] * dim_, dim_) - target(i)).norm());
  return e;
}

bool PenaltyMotion::after_solve(const StepContext& ctx, const VecX& x) const {
  Targets& d = ctx.data.of<Targets>(this);
  if (d.targets.empty() || ctx.stage.h <= 0.0) return false;
  if (max_target_error(ctx.eval(), x) / ctx.stage.h <= tolerance_) return false;
  d.kappa *= 2.0;
  return true;
}

}  // namespace softsim
