#pragma once
// A 2D granular column collapse with MPM (Drucker-Prager sand, mpm/mpm_solver.hpp): a column
// of sand against the smooth (slip) left wall of a box with a rough (sticky) floor, released and
// measured after it settles. For
// tests/mpm/mpm_solver_column_collapse_test.cpp and bench/bench_mpm_collapse.cpp.
#include <algorithm>
#include <cmath>
#include <vector>

#include "softsim/mpm/mpm_solver.hpp"

namespace softsim::test {

struct ColumnCollapse {
  double width = 0.2, height = 0.1;  // m: the column
  double friction_angle = 30.0;      // degrees
  double dx = 1.0 / 128;
  double seconds = 1.0;
  double damping = 0.0;  // 1/s: a damped collapse is quasi-static
};

struct Deposit {
  double slope_degrees = 0.0;  // the free slope: a line through the surface between 20% and 80% of the peak
  double run_out = 0.0;        // (final length - initial width) / initial width
  double max_height = 0.0;     // m
  double residual_speed = 0.0;  // m/s: the fastest particle at the end
  std::size_t particles = 0;
  int steps = 0;
};

// The angle of repose the 2D Drucker-Prager cone implies. With two principal stresses the cone
// |dev tau| <= -alpha tr tau (alpha = sqrt(2/3) 2 sin(phi) / (3 - sin(phi)), Klar et al. 2016) is
// the Mohr-Coulomb criterion |s1 - s2| <= -sin(phi_2d) (s1 + s2) with sin(phi_2d) = sqrt(2) alpha,
// and an infinite cohesionless slope stands up to phi_2d.
inline double repose_angle_2d(double friction_angle_degrees) {
  const double s = std::sin(friction_angle_degrees * M_PI / 180.0);
  const double alpha = std::sqrt(2.0 / 3.0) * 2.0 * s / (3.0 - s);
  return std::asin(std::sqrt(2.0) * alpha) * 180.0 / M_PI;
}

inline Deposit collapse(const ColumnCollapse& c) {
  MpmOptions<2> o;
  o.dx = c.dx;
  const int wall = 3;
  o.cells = {static_cast<int>(std::ceil((4.0 * c.width + 2.0 * c.height) / c.dx)) + 2 * wall,
             static_cast<int>(std::ceil(1.5 * c.height / c.dx)) + 2 * wall};
  o.gravity = {0.0, -9.81};
  o.wall_nodes = wall;
  o.walls = MpmBoundary::slip;  // smooth walls: sand slides down the left one, not glued to it
  o.transfer = MpmTransfer::apic;
  o.damping = c.damping;
  MpmMaterial sand;  // the book's sand, with a sand-like density
  sand.elasticity = MpmElasticity::stvk_hencky;
  sand.plasticity = MpmPlasticity::drucker_prager;
  sand.youngs_modulus = 3.537e5;
  sand.poisson_ratio = 0.3;
  sand.density = 1600.0;
  sand.friction_angle = c.friction_angle;
  o.materials = {sand};
  const double floor = (wall - 1) * c.dx;  // the innermost layer of wall nodes (left wall and floor)
  MpmCollider<2> rough_floor;  // a sticky plane on the floor's wall nodes: the base does not slide
  rough_floor.point = {0.0, floor};
  rough_floor.normal = {0.0, 1.0};
  rough_floor.boundary = MpmBoundary::sticky;
  o.colliders = {rough_floor};
  const VecD<2> lo(floor, floor), hi(floor + c.width, floor + c.height);
  const std::vector<VecD<2>> x = sample_box_regular<2>(lo, hi, c.dx, 4.0);
  MpmParticles<2> p;
  for (const VecD<2>& xi : x) p.add(xi, VecD<2>::Zero(), (hi - lo).prod() / x.size(), 0);
  MpmSolver<2> solver(o, p);
  const double dt = 0.4 * c.dx / sand.wave_speed();
  Deposit d;
  d.particles = x.size();
  d.steps = static_cast<int>(std::ceil(c.seconds / dt));
  for (int s = 0; s < d.steps; ++s) solver.step(dt);

  // The surface: the highest particle in each grid column.
  const MpmParticles<2>& q = solver.particles();
  std::vector<double> top(o.cells[0], -1.0), xs;
  for (std::size_t i = 0; i < q.size(); ++i) {
    const int column = static_cast<int>(std::floor(q.x[i][0] / c.dx));
    top[column] = std::max(top[column], q.x[i][1] - floor);
    xs.push_back(q.x[i][0]);
    d.residual_speed = std::max(d.residual_speed, q.v[i].norm());
  }
  std::sort(xs.begin(), xs.end());
  const double front = xs[static_cast<std::size_t>(0.999 * (xs.size() - 1))];  // past stray grains
  d.max_height = *std::max_element(top.begin(), top.end());
  d.run_out = (front - floor - c.width) / c.width;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int n = 0;
  for (int column = 0; column < o.cells[0]; ++column) {
    const double h = top[column];
    if (h < 0.2 * d.max_height || h > 0.8 * d.max_height) continue;
    const double xc = (column + 0.5) * c.dx;
    sx += xc, sy += h, sxx += xc * xc, sxy += xc * h, ++n;
  }
  d.slope_degrees = n >= 2 ? std::atan(-(n * sxy - sx * sy) / (n * sxx - sx * sx)) * 180.0 / M_PI : 0.0;
  return d;
}

}  // namespace softsim::test
