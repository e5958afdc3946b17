// Moving boundary conditions by penalty (Li & Jiang 2025, §11.1): a step begun again from its start does
// not move its targets twice; turning targets stay rigid for a lagging body and lie on the arc
// inside the step. Following the target, stopping at the limit and the stiffness's
// growth are checked for every integrator in tests/integrate/implicit_stage_penalty_retry_test.cpp.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>

#include "softsim/core/binary_archive.hpp"
#include "softsim/fem/penalty_motion.hpp"
#include "softsim/model/model.hpp"
#include "support/evaluation.hpp"

namespace softsim {
namespace {

// A step tried again from its start (a step cutback calls begin_step again for the same time)
// must not count its travel twice: the targets still stop at the limit, not earlier.
TEST(PenaltyMotion, RetriedStepsDoNotCountTheirTravelTwice) {
  PenaltyMotion motion(2, {0}, {1.0}, Vec2(0.0, -0.5), 0.3, 10.0, 1e-2, Vec2(0.0, 0.6));
  test::Evaluation e(motion);
  const double h = 0.01;
  VecX x = Vec2(0.0, 0.6), g(2);
  int moving_steps = 0;
  for (int n = 0; n < 100; ++n) {
    for (int attempt = 0; attempt < 3; ++attempt) {  // the same step, begun three times
      e.stage = Stage::step(n * h, h);
      motion.begin_step(e.step_ctx(), x);
    }
    g.setZero();
    motion.evaluate(e.ctx(), x, AssemblyOutputs{&g});  // pull = kappa m (x - target): nonzero while moving
    if (g.norm() > 0) {
      ++moving_steps;
      x[1] -= h * 0.5;  // follow the target exactly
    }
  }
  EXPECT_EQ(moving_steps, 60);  // 0.3 m at 0.5 m/s in steps of 0.01 s
  EXPECT_NEAR(x[1], 0.3, 1e-12);
}

// A turning motion (omega = 2 rad/s about c = (1, 0), with the centre moving at v): the targets
// of a vertex that lags are its start turned about the moving centre, so two vertices keep their
// distance; a stage at fraction 1/2 aims at the arc's midpoint, not the chord's.
TEST(PenaltyMotion, TurningTargetsAreRigidAndStagesLieOnTheArc) {
  const double omega = 2.0, h = 0.1;
  const Vec2 c(1.0, 0.0), v(0.5, 0.0);
  VecX x0(4);
  x0 << 2.0, 0.0, 1.0, 1.0;  // at distance 1 from c along x and along y: sqrt(2) apart
  PenaltyMotion motion(2, {0, 1}, {1.0, 1.0}, v, HUGE_VAL, 10.0, 1e-2, x0);
  motion.set_rotation([omega](double t) -> MatX { return Eigen::Rotation2Dd(omega * t).toRotationMatrix(); }, c);
  test::Evaluation e(motion);
  // Start the step at t = 0.3 from positions that lag the path by a rigid turn of -0.2 rad.
  const double t0 = 0.3;
  const Eigen::Matrix2d lag = Eigen::Rotation2Dd(omega * t0 - 0.2).toRotationMatrix();
  const Vec2 centre = c + v * t0;
  VecX x(4);
  x.head<2>() = centre + lag * (x0.head<2>() - c);
  x.tail<2>() = centre + lag * (x0.tail<2>() - c);
  // The targets are where the gradient of the penalty vanishes.
  auto target_of = [&](double fraction) {
    e.stage = Stage::step(t0, h);
    e.stage.fraction = fraction;
    motion.begin_step(e.step_ctx(), x);
    VecX g = VecX::Zero(4);
    motion.evaluate(e.ctx(), x, AssemblyOutputs{&g});
    return VecX(x - g / (10.0 * 1.0));  // g = kappa m (x - target)
  };
  const VecX end = target_of(1.0), middle = target_of(0.5);
  for (int i = 0; i < 2; ++i) {
    const Eigen::Matrix2d turn = Eigen::Rotation2Dd(omega * h).toRotationMatrix(),
                          half = Eigen::Rotation2Dd(omega * h / 2).toRotationMatrix();
    const Vec2 start = x.segment<2>(2 * i);
    EXPECT_LT((end.segment<2>(2 * i) - (centre + h * v + turn * (start - centre))).norm(), 1e-14);
    EXPECT_LT((middle.segment<2>(2 * i) - (centre + h / 2 * v + half * (start - centre))).norm(), 1e-14);
  }
  EXPECT_NEAR((end.head<2>() - end.tail<2>()).norm(), std::sqrt(2.0), 1e-14);  // rigid
  EXPECT_NEAR((middle.head<2>() - middle.tail<2>()).norm(), std::sqrt(2.0), 1e-14);
}

// A keyframed path (IPC's DCOSquash6 walls: in at 1 m/s, then back out): each step's target is the
// start plus the path's change over the step, so a vertex that follows its targets traces the path,
// kinks inside a step included (the chord of the step), and a lagging vertex keeps its lag.
TEST(PenaltyMotion, PathTargetsFollowTheKeyframes) {
  PenaltyMotion motion(2, {0}, {1.0}, Vec2::Zero(), HUGE_VAL, 10.0, 1e-2, Vec2(0.0, 0.0));
  // In along +x to 0.25 m at t = 0.25 s, then back out at the same speed, held after t = 0.6 s.
  const auto path = [](double t) -> VecX {
    const double s = t < 0.25 ? t : (t < 0.6 ? 0.5 - t : -0.1);
    return Vec2(s, 0.0);
  };
  motion.set_path(path);
  test::Evaluation e(motion);
  const double h = 0.02;
  VecX x = Vec2(0.0, 0.0), g(2);
  for (int n = 0; n < 40; ++n) {
    e.stage = Stage::step(n * h, h);
    motion.begin_step(e.step_ctx(), x);
    g.setZero();
    motion.evaluate(e.ctx(), x, AssemblyOutputs{&g});
    const VecX target = x - g / 10.0;  // g = kappa m (x - target)
    EXPECT_LT((target - (x + path((n + 1) * h) - path(n * h))).norm(), 1e-14) << "step " << n;
    x = target;  // follow exactly
    EXPECT_LT((x - path((n + 1) * h)).norm(), 1e-12) << "step " << n;
  }
  // A vertex 1 cm behind keeps its lag: the targets move with the path, not towards it.
  x = path(0.1) + Vec2(-0.01, 0.0);
  e.stage = Stage::step(0.1, h);
  motion.begin_step(e.step_ctx(), x);
  g.setZero();
  motion.evaluate(e.ctx(), x, AssemblyOutputs{&g});
  EXPECT_LT(((x - g / 10.0) - (path(0.1 + h) + Vec2(-0.01, 0.0))).norm(), 1e-14);
}

// from / until (IPC's DBC time ranges): the motion pulls in the steps that start in [from, until)
// and nowhere else; a free step neither pulls nor stiffens.
TEST(PenaltyMotion, PullsOnlyInTheStepsOfItsInterval) {
  PenaltyMotion motion(2, {0}, {1.0}, Vec2(1.0, 0.0), HUGE_VAL, 10.0, 1e-2, Vec2(0.0, 0.0));
  motion.set_interval(0.1, 0.3);
  test::Evaluation e(motion);
  const double h = 0.05;
  const VecX x = Vec2::Zero();
  const auto pull = [&](double t) {
    e.stage = Stage::step(t, h);
    motion.begin_step(e.step_ctx(), x);
    VecX g = VecX::Zero(2);
    motion.evaluate(e.ctx(), x, AssemblyOutputs{&g});
    return g.norm();
  };
  EXPECT_EQ(pull(0.0), 0.0);
  EXPECT_EQ(pull(0.05), 0.0);
  EXPECT_NEAR(pull(0.1), 10.0 * h * 1.0, 1e-14);  // kappa m |h v|
  EXPECT_NEAR(pull(0.25), 10.0 * h * 1.0, 1e-14);
  EXPECT_EQ(pull(0.3), 0.0);
  EXPECT_FALSE(motion.after_solve(e.step_ctx(), Vec2(5.0, 5.0)));  // far from any target, but free
}

// A release (IPC's dragright): once every watched vertex is beyond `above` along the axis at the
// start of a step, the motion lets go for good, also when the body comes back, and a checkpoint
// (the term's saved data) keeps the release.
TEST(PenaltyMotion, LetsGoForGoodOnceTheBodyIsPastTheMark) {
  PenaltyMotion motion(2, {1}, {1.0}, Vec2(1.0, 0.0), HUGE_VAL, 10.0, 1e-2, VecX::Zero(4));
  motion.set_release({{0, 1}, 0, 0.5});
  test::Evaluation e(motion);
  const double h = 0.05;
  const auto pull = [&](test::Evaluation& ev, double x0, double x1) {
    const VecX x = (VecX(4) << x0, 0.0, x1, 0.0).finished();
    ev.stage = Stage::step(0.0, h);
    motion.begin_step(ev.step_ctx(), x);
    VecX g = VecX::Zero(4);
    motion.evaluate(ev.ctx(), x, AssemblyOutputs{&g});
    return g.norm();
  };
  EXPECT_GT(pull(e, 0.0, 0.7), 0.0);  // vertex 0 not past 0.5 yet
  EXPECT_GT(pull(e, 0.5, 0.7), 0.0);  // on the mark is not past it
  EXPECT_EQ(pull(e, 0.51, 0.7), 0.0);  // both past: let go
  EXPECT_EQ(pull(e, 0.0, 0.0), 0.0);   // for good
  ArchiveWriter out;
  e.data.of<TermData>(&motion).save(out);
  test::Evaluation resumed(motion), fresh(motion);
  ArchiveReader in(out.bytes());
  resumed.data.of<TermData>(&motion).load(in);
  EXPECT_TRUE(in.at_end());
  EXPECT_EQ(pull(resumed, 0.0, 0.0), 0.0);
  EXPECT_GT(pull(fresh, 0.0, 0.0), 0.0);
}

// limit_by_position: the limit is a distance travelled, measured on the vertex (the companion code
// of Li & Jiang 2025, §11.2): a vertex held back (here it covers 80% of each step's move) keeps getting
// targets until it has itself travelled the limit, and one that has does not.
TEST(PenaltyMotion, TargetsStopWhenTheVertexHasTravelledTheLimit) {
  PenaltyMotion motion(2, {0}, {1.0}, Vec2(0.0, -0.5), 0.3, 10.0, 1e-2, Vec2(0.0, 0.6), false, true);
  test::Evaluation e(motion);
  const double h = 0.01;
  VecX x = Vec2(0.0, 0.6), g(2);
  int moving_steps = 0;
  for (int n = 0; n < 200; ++n) {
    e.stage = Stage::step(n * h, h);
    motion.begin_step(e.step_ctx(), x);
    g.setZero();
    motion.evaluate(e.ctx(), x, AssemblyOutputs{&g});
    if (g.norm() > 0) {
      ++moving_steps;
      x[1] -= 0.8 * h * 0.5;
    }
  }
  EXPECT_EQ(moving_steps, 75);  // 0.3 m in moves of 4 mm
  EXPECT_NEAR(x[1], 0.3, 1e-12);
}

// hold_when_met (the companion code of Li & Jiang 2025, §11.1): a vertex within tolerance x h of its
// target is held (its DOFs reported for elimination) for the rest of the solve; a new step
// releases it. Without the option nothing is ever held.
TEST(PenaltyMotion, HoldsAVertexOnceItsTargetIsMet) {
  const double h = 0.01, tolerance = 1e-2;
  PenaltyMotion motion(2, {0}, {1.0}, Vec2(0.0, -0.5), 0.3, 10.0, tolerance, Vec2(0.0, 0.6), true);
  test::Evaluation e(motion);
  e.stage = Stage::step(0.0, h);
  VecX x = Vec2(0.0, 0.6);
  motion.begin_step(e.step_ctx(), x);  // target 0.595: missed by 5 mm
  std::vector<int> held;
  motion.held_dofs(e.data, held);
  EXPECT_TRUE(held.empty());
  x[1] = 0.595 + 0.5 * tolerance * h;  // within tolerance x h
  motion.end_iteration(e.step_ctx(), x);
  motion.held_dofs(e.data, held);
  EXPECT_EQ(held, (std::vector<int>{0, 1}));
  motion.begin_step(e.step_ctx(), x);  // the next solve starts free again
  held.clear();
  motion.held_dofs(e.data, held);
  EXPECT_TRUE(held.empty());

  PenaltyMotion free_motion(2, {0}, {1.0}, Vec2(0.0, -0.5), 0.3, 10.0, tolerance, Vec2(0.0, 0.6));
  test::Evaluation f(free_motion);
  f.stage = Stage::step(0.0, h);
  free_motion.begin_step(f.step_ctx(), x);
  x[1] -= h * 0.5;
  free_motion.end_iteration(f.step_ctx(), x);
  free_motion.held_dofs(f.data, held);
  EXPECT_TRUE(held.empty());
}

}  // namespace
}  // namespace softsim
