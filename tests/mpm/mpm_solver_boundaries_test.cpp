// Boundary conditions of the MPM grid (mpm/mpm_solver.hpp): a block sliding on the floor keeps
// its momentum on slip walls, is stopped by sticky ones and slowed by frictional ones in
// between; a moving sticky box carries the particles deep inside it at exactly its velocity; a
// moving box pushing a block (separate) never lets it in and hands it its speed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "softsim/mpm/mpm_solver.hpp"

namespace softsim {
namespace {

MpmParticles<2> block(const VecD<2>& lo, const VecD<2>& hi, double dx, const VecD<2>& v) {
  const std::vector<VecD<2>> x = sample_box_regular<2>(lo, hi, dx, 4);
  MpmParticles<2> p;
  for (const VecD<2>& xi : x) p.add(xi, v, (hi - lo).prod() / x.size(), 0);
  return p;
}

struct Slide {
  double mean_vx = 0.0, lowest = 0.0;
};

// An elastic block 0.2 x 0.1 m on the floor, moving at 1 m/s along it under gravity, for 0.1 s.
// The walls are the three outer node layers: the floor's top layer is at y = 2 dx.
Slide slide(MpmBoundary walls, double friction = 0.0) {
  MpmOptions<2> o;
  o.dx = 1.0 / 64;
  o.cells = {64, 32};
  o.gravity = {0.0, -9.81};
  o.walls = walls;
  o.wall_friction = friction;
  o.materials[0].youngs_modulus = 1e5;
  const double floor = 2 * o.dx;
  MpmSolver<2> solver(o, block({0.2, floor + o.dx}, {0.4, floor + o.dx + 0.1}, o.dx, {1.0, 0.0}));
  Slide s{0.0, 1.0};
  for (int step = 0; step < 500; ++step) {
    solver.step(2e-4);
    for (const VecD<2>& x : solver.particles().x) s.lowest = std::min(s.lowest, x[1] - floor);
  }
  double mass = 0.0;
  for (std::size_t i = 0; i < solver.particles().size(); ++i) {
    s.mean_vx += solver.particles().mass[i] * solver.particles().v[i][0];
    mass += solver.particles().mass[i];
  }
  s.mean_vx /= mass;
  return s;
}

TEST(MpmBoundaries, SlipWallsKeepASlidingBlocksMomentumStickyOnesStopItFrictionSlowsIt) {
  const Slide slip = slide(MpmBoundary::slip), sticky = slide(MpmBoundary::sticky);
  const Slide friction = slide(MpmBoundary::friction, 0.1);
  std::printf("mean horizontal velocity after 0.1 s: slip %.4f, friction 0.1 %.4f, sticky %.4f m/s\n", slip.mean_vx,
              friction.mean_vx, sticky.mean_vx);
  // Slip removes only the normal velocity: the horizontal momentum stays what it was.
  EXPECT_NEAR(slip.mean_vx, 1.0, 1e-9);
  EXPECT_LT(sticky.mean_vx, 0.5);
  EXPECT_LT(friction.mean_vx, slip.mean_vx - 0.05);
  EXPECT_GT(friction.mean_vx, sticky.mean_vx + 0.05);
  for (const Slide& s : {slip, sticky, friction}) EXPECT_GT(s.lowest, 0.0);  // above the floor's nodes
}

TEST(MpmBoundaries, AMovingStickyBoxCarriesWhatIsDeepInsideItAtItsVelocity) {
  MpmOptions<2> o;
  o.dx = 1.0 / 64;
  o.cells = {64, 64};
  o.gravity = {0.0, -9.81};
  MpmCollider<2> grip;
  grip.shape = MpmCollider<2>::Shape::box;
  grip.boundary = MpmBoundary::sticky;
  grip.point = {0.3, 0.5};
  grip.half_size = {0.1, 0.1};
  grip.velocity = {0.5, 0.25};
  o.colliders = {grip};
  MpmSolver<2> solver(o, block({0.15, 0.4}, {0.6, 0.6}, o.dx, VecD<2>::Zero()));
  const std::vector<VecD<2>> x0 = solver.particles().x;
  const double dt = 2e-4;
  const int steps = 200;
  for (int s = 0; s < steps; ++s) solver.step(dt);
  // A particle whose stencil stays inside the box (2 cells from its faces) moves with it:
  // each step it takes the box's velocity, gravity and stress undone by the sticky nodes.
  int deep = 0;
  for (std::size_t i = 0; i < x0.size(); ++i) {
    const VecD<2> r = (x0[i] - grip.point).cwiseAbs();
    if ((r - grip.half_size).maxCoeff() > -2.0 * o.dx) continue;
    ++deep;
    const VecD<2> expected = x0[i] + steps * dt * grip.velocity;
    ASSERT_LT((solver.particles().x[i] - expected).norm(), 1e-12) << "particle " << i;
    ASSERT_LT((solver.particles().v[i] - grip.velocity).norm(), 1e-12) << "particle " << i;
  }
  EXPECT_GT(deep, 100);
}

TEST(MpmBoundaries, AMovingBoxPushesABlockWithoutLettingItIn) {
  MpmOptions<2> o;
  o.dx = 1.0 / 64;
  o.cells = {64, 64};
  o.materials[0].youngs_modulus = 2e4;
  MpmCollider<2> pusher;
  pusher.shape = MpmCollider<2>::Shape::box;
  pusher.boundary = MpmBoundary::separate;
  pusher.point = {0.2, 0.5};
  pusher.half_size = {0.05, 0.2};
  pusher.velocity = {1.0, 0.0};
  o.colliders = {pusher};
  MpmSolver<2> solver(o, block({0.35, 0.45}, {0.5, 0.55}, o.dx, VecD<2>::Zero()));
  double deepest = 1.0;
  for (int s = 0; s < 1500; ++s) {  // 0.3 s: the box's face moves from 0.25 to 0.55 m
    solver.step(2e-4);
    for (const VecD<2>& x : solver.particles().x) {
      VecD<2> n;
      deepest = std::min(deepest, pusher.signed_distance(x, solver.time(), n));
    }
  }
  double mean_vx = 0.0, mass = 0.0, behind = 1.0;
  for (std::size_t i = 0; i < solver.particles().size(); ++i) {
    mean_vx += solver.particles().mass[i] * solver.particles().v[i][0];
    mass += solver.particles().mass[i];
    behind = std::min(behind, solver.particles().x[i][0]);
  }
  mean_vx /= mass;
  std::printf("pushed block: deepest %.4f m into the box, mean velocity %.3f m/s, rear at %.3f m\n", deepest, mean_vx,
              behind);
  EXPECT_GT(deepest, -o.dx);  // the condition acts on nodes: never more than a cell in
  EXPECT_GT(behind, 0.55 - o.dx);  // pushed along with the face, which is at 0.55 m now
  // Moving on at least at the box's speed (separate lets it run ahead), and at most at twice
  // it: what a perfectly elastic bounce off a wall moving at 1 m/s gives.
  EXPECT_GT(mean_vx, 0.9);
  EXPECT_LT(mean_vx, 2.0);
}

}  // namespace
}  // namespace softsim
