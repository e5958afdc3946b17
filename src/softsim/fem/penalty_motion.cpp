#include "softsim/fem/penalty_motion.hpp"

namespace softsim {

struct PenaltyMotion::Targets : TermData {
  double kappa = 0.0;
  std::vector<VecX> targets, starts;  // end-of-step targets and start-of-step positions
  // The target of vertex i for a stage ending at fraction c of the step.
  VecX target(std::size_t i, double c) const {
    return c == 1.0 ? targets[i] : VecX(starts[i] + c * (targets[i] - starts[i]));
  }
  // The stiffness grows when targets are missed and carries over; begin_step sets the targets.
  void save(ArchiveWriter& out) const override { out.real(kappa); }
  void load(ArchiveReader& in) override { kappa = in.real(); }
};

PenaltyMotion::PenaltyMotion(int dim, std::vector<int> vertices, std::vector<double> masses, const VecX& velocity,
                             double limit, double kappa, double tolerance)
    : dim_(dim), vertices_(std::move(vertices)), masses_(std::move(masses)), velocity_(velocity), limit_(limit),
      kappa_(kappa), tolerance_(tolerance) {}

std::unique_ptr<TermData> PenaltyMotion::make_data() const {
  auto data = std::make_unique<Targets>();
  data->kappa = kappa_;
  return data;
}

double PenaltyMotion::stiffness(const ModelData& data) const { return data.of<Targets>(this).kappa; }

void PenaltyMotion::begin_step(const StepContext& ctx, const VecX& x_start) const {
  // Move the targets by h v while the distance travelled by the end of the step, |v| (t + h), is
  // within the limit. Measured from time, not summed over steps, so a step that is tried again
  // (a step cutback, integrate/subdividing_stepper.hpp) does not count its travel twice.
  const double t = ctx.stage.t0, h = ctx.stage.h;
  const bool moving = velocity_.norm() * (t + h) <= limit_ + 1e-12 * std::max(1.0, limit_);
  Targets& d = ctx.data.of<Targets>(this);
  d.targets.resize(vertices_.size());
  d.starts.resize(vertices_.size());
  for (std::size_t i = 0; i < vertices_.size(); ++i) {
    d.targets[i] = x_start.segment(vertices_[i] * dim_, dim_);
    d.starts[i] = d.targets[i];
    if (moving) d.targets[i] += h * velocity_;
  }
}

double PenaltyMotion::evaluate(const EvalContext& ctx, const VecX& x, const AssemblyOutputs& out) const {
  const Targets& d = ctx.data.of<Targets>(this);
  if (d.targets.empty()) return 0.0;
  double total = 0.0;
  for (std::size_t i = 0; i < vertices_.size(); ++i) {
    const int v = vertices_[i];
    const VecX r = x.segment(v * dim_, dim_) - d.target(i, ctx.stage.fraction);
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
  for (std::size_t i = 0; i < vertices_.size(); ++i)
    e = std::max(e, (x.segment(vertices_[i] * dim_, dim_) - d.target(i, ctx.stage.fraction)).norm());
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
