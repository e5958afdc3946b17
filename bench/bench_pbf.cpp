// Position-based fluids (docs/pbf.md).
//  throughput: a 3D dam break of about --particles particles (a 1 x 2 x 1 water column in a tank
//    4 columns long), time per step and its split (neighbour search, density sweeps, velocity
//    passes) at the given thread counts, means over the timed steps after 2 warm-up steps, and the
//    density error after them.
//  --table: the 2D dam break of tests/pbf (600 particles; 3000 with --fine) settled for 4 s at each
//    substeps x iterations, with its density error and layer thickness: what the iterations buy
//    (and what the tensile correction, which pushes a fixed amount per sweep, costs).
//   bench_pbf [--particles 100000] [--threads 1,2] [--steps 10] [--table [--fine] [--tensile-k K]]
#include <tbb/global_control.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "bench_args.hpp"
#include "softsim/mpm/mpm_particles.hpp"
#include "softsim/pbf/pbf_solver.hpp"

using namespace softsim;

using bench::parse_list;

namespace {

void throughput(long particles, int threads, int steps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
  const double column = 0.3;  // m: the column is column x 2 column x column
  const double spacing = std::cbrt(2.0 * column * column * column / particles);
  PbfOptions<3> o;
  o.spacing = spacing;
  o.gravity = Vec3(0, -9.81, 0);
  o.domain_lo = Vec3::Zero();
  o.domain_hi = Vec3(4 * column, 2.5 * column, column);
  o.vorticity = 0.05;
  std::vector<Vec3> x = sample_box_regular<3>(Vec3::Zero(), Vec3(column, 2 * column, column), spacing, 1.0);
  const std::size_t n = x.size();
  PbfSolver<3> s(o, std::move(x), std::vector<Vec3>(n, Vec3::Zero()));
  const double dt = 1.0 / 200;
  for (int i = 0; i < 2; ++i) s.step(dt);
  PbfStepTiming total;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < steps; ++i) {
    s.step(dt);
    total.neighbours_ms += s.timing().neighbours_ms;
    total.density_ms += s.timing().density_ms;
    total.velocity_ms += s.timing().velocity_ms;
  }
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / steps;
  const auto e = s.density_error();
  std::printf("3D dam break, %zu particles, %d thread(s), %d substeps x %d iterations: %.1f ms/step "
              "(neighbours %.1f, density %.1f, velocity %.1f); density error mean %.2e max %.2e at t = %.3f s\n",
              n, threads, o.substeps, o.iterations, ms, total.neighbours_ms / steps, total.density_ms / steps,
              total.velocity_ms / steps, e.mean, e.max, s.time());
}

void table(bool fine, double tensile_k) {
  const double spacing = fine ? 0.01 : 0.02, width = 0.4, height = 0.6, tank = 1.6;
  std::printf("2D dam break (%s, spacing %g m, tensile k %g), settled for 4 s at dt = 1/200 s:\n",
              fine ? "2400 particles" : "600 particles", spacing, tensile_k);
  std::printf("substeps iterations | density error mean   max | layer / incompressible | kinetic / peak | ms/step\n");
  for (int substeps : {1, 2, 4})
    for (int iterations : {1, 2, 4, 8}) {
      PbfOptions<2> o;
      o.spacing = spacing;
      o.substeps = substeps;
      o.iterations = iterations;
      o.tensile_k = tensile_k;
      o.gravity = Vec2(0, -9.81);
      o.domain_hi = Vec2(tank, 1.0);
      std::vector<Vec2> x = sample_box_regular<2>(Vec2::Zero(), Vec2(width, height), spacing, 1.0);
      const std::size_t n = x.size();
      PbfSolver<2> s(o, std::move(x), std::vector<Vec2>(n, Vec2::Zero()));
      double peak = 0.0;
      const auto t0 = std::chrono::steady_clock::now();
      for (int step = 0; step < 800; ++step) {
        s.step(1.0 / 200);
        peak = std::max(peak, s.kinetic_energy());
      }
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / 800;
      double y = 0.0;
      for (const Vec2& p : s.positions()) y += p[1] / n;
      const auto e = s.density_error();
      std::printf("%8d %10d | %15.2e %9.2e | %22.4f | %14.2e | %7.3f\n", substeps, iterations, e.mean, e.max,
                  y / (0.5 * width * height / tank), s.kinetic_energy() / peak, ms);
    }
}

}  // namespace

int main(int argc, char** argv) {
  long particles = 100000;
  std::vector<long> threads{1, 2};
  int steps = 10;
  bool want_table = false, fine = false;
  double tensile_k = PbfOptions<2>{}.tensile_k;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--particles") && i + 1 < argc) particles = std::stol(argv[++i]);
    else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) threads = parse_list(argv[++i]);
    else if (!std::strcmp(argv[i], "--steps") && i + 1 < argc) steps = std::stoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--table")) want_table = true;
    else if (!std::strcmp(argv[i], "--fine")) fine = true;
    else if (!std::strcmp(argv[i], "--tensile-k") && i + 1 < argc) tensile_k = std::stod(argv[++i]);
    else {
      std::fprintf(stderr, "usage: bench_pbf [--particles N] [--threads 1,2] [--steps N] [--table [--fine]]\n");
      return 2;
    }
  }
  if (want_table) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
    table(fine, tensile_k);
    return 0;
  }
  for (long t : threads) throughput(particles, static_cast<int>(t), steps);
  return 0;
}
