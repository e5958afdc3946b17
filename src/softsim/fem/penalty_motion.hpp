#pragma once
// Moving boundary conditions by penalty (Li & Jiang 2025, §11.1; its Compressing Square, §11.2): selected
// vertices are pulled towards targets xhat = x^n + h v, or x^n once the motion has travelled
// `limit`: by time (|v| (t + h) > limit), or, with limit_by_position, by the vertex's own travel
// along v from its initial position ((x0 + limit v/|v| - x^n) . v <= 0, the companion code's test)
// by (kappa_M / 2) m_k |x_k - xhat_k|^2. When a step converges with a target unmet (|x - xhat| /
// h above the tolerance), kappa_M doubles and the step is solved again; kappa_M is kept for the
// next steps (warm start, as the companion code of Li & Jiang 2025 does).
#include <cmath>
#include <functional>
#include <optional>

#include "softsim/model/energy.hpp"

namespace softsim {

class PenaltyMotion : public Energy {
 public:
  // vertices: global ids; masses: their nodal masses; velocity: dim vector (m/s); limit: distance
  // (m) after which the targets stop moving (infinity: never); kappa: initial stiffness (1/s^2);
  // initial_positions: every vertex's position at t = 0 (the model's), where the travel starts.
  PenaltyMotion(int dim, std::vector<int> vertices, std::vector<double> masses, const VecX& velocity, double limit,
                double kappa, double tolerance, const VecX& initial_positions, bool hold_when_met = false,
                bool limit_by_position = false);
  std::string name() const override { return "penalty_motion"; }
  bool depends_on_time() const override { return true; }
  // The motion moves a moving mesh obstacle (contact.obstacles[k].velocity; steering finds it
  // by this), not a selection of a body's vertices.
  void set_drives_obstacle() { drives_obstacle_ = true; }
  bool drives_obstacle() const { return drives_obstacle_; }
  // The stiffness kappa_M and the step's start positions and targets.
  std::unique_ptr<TermData> make_data() const override;
  // A stage ending at t0 + c h pulls towards x^n + c h v.
  double evaluate(const EvalContext& ctx, const VecX& x, const AssemblyOutputs& out) const override;
  bool hessian_psd_when_projected() const override { return true; }  // a quadratic well
  void begin_step(const StepContext& ctx, const VecX& x_start) const override;
  bool after_solve(const StepContext& ctx, const VecX& x) const override;
  // hold_when_met: a vertex within the tolerance of its target (|x - target| / h below it) at the
  // start of a step or after an accepted Newton iterate is held there for the rest of the
  // solve (the companion code of Li & Jiang 2025, §11.1: satisfied DBCs are eliminated).
  bool end_iteration(const StepContext& ctx, const VecX& x) const override;
  void held_dofs(const ModelData& data, std::vector<int>& dofs) const override;
  bool may_hold_dofs() const override { return hold_when_met_; }
  double stiffness(const ModelData& data) const;
  double max_target_error(const EvalContext& ctx, const VecX& x) const;
  const std::vector<int>& vertices() const { return vertices_; }
  const VecX& velocity() const { return velocity_; }
  // Turns the targets too: each step turns the vertices' start positions about the centre
  // (which moves with the translation, c + v t) by R(t + h) R(t)^T and translates them by h v,
  // so a rotating clamp or a kinematic affine body pushes what it meets through the solve instead
  // of jumping into it, and a body that lags keeps rigid targets. Not with `limit`. At build
  // time only (the Model does not change during a run).
  void set_rotation(std::function<MatX(double t)> rotation, const VecX& center) {
    rotation_ = std::move(rotation);
    center_ = center;
  }
  // Targets that follow a path instead of the constant velocity: x^n + offset(t + h) - offset(t)
  // (keyframes, e.g. a wall that moves in and back out: IPC's DCOSquash6 script). Not with a
  // rotation or `limit`. At build time only.
  void set_path(std::function<VecX(double t)> offset) { path_ = std::move(offset); }
  // The motion acts in the steps that start at a time t with from <= t < until (IPC's DBC time
  // ranges; the state's time is a floating-point sum of the steps, as in IPC): its targets start
  // from wherever the vertices are. Outside the interval the vertices are free. At build time only.
  void set_interval(double from, double until) {
    from_ = from;
    until_ = until;
  }
  // Lets go of the vertices for good at the start of the first step at which every vertex of
  // `watched` lies beyond `above` along `axis` (IPC's dragright script releases a body once it has
  // cleared the obstacles). The release is kept in checkpoints. At build time only.
  struct Release {
    std::vector<int> watched;  // global vertex ids
    int axis = 0;
    double above = HUGE_VAL;
  };
  void set_release(Release release) { release_ = std::move(release); }
  // A new velocity for the steps that follow, with no travel limit (code that drives a run, e.g. a
  // moving obstacle steered from Python): between steps only, as the Model does not change during one.
  void set_velocity(const VecX& velocity) {
    velocity_ = velocity;
    limit_ = HUGE_VAL;
    path_ = nullptr;
  }

 private:
  struct Targets;
  class StageTargets;
  // The targets of a stage ending at fraction c of the step; for a turning motion, on its arc.
  StageTargets stage_targets(const Targets& d, double c) const;
  StageTargets arc_targets(const Targets& d, double c) const;
  bool drives_obstacle_ = false;
  int dim_;
  std::vector<int> vertices_;
  std::vector<double> masses_;
  std::vector<VecX> origins_;
  VecX velocity_;
  double limit_, kappa_, tolerance_;
  bool hold_when_met_ = false, limit_by_position_ = false;
  std::function<MatX(double t)> rotation_;  // empty: the targets translate only
  std::function<VecX(double t)> path_;      // empty: the targets move at velocity_
  double from_ = 0.0, until_ = HUGE_VAL;    // the steps it acts in (by their start time)
  std::optional<Release> release_;
  VecX center_;
  void hold_met_targets(const StepContext& ctx, const VecX& x) const;
  const HessianLayout* layout_ = nullptr;
  void declare_stencils(HessianLayout& layout) override { layout_ = &layout; }
};

}  // namespace softsim
