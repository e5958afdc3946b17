// MPM throughput (docs/mpm.md): an elastic block (fixed corotated, APIC, quadratic kernel, 8
// particles per cell, gravity, sticky walls) falling in a box, in 2D and 3D, at given particle
// counts and thread counts. Prints particle-steps per second and the split of the step between
// P2G, the grid update and G2P (means over the timed steps, after 2 warm-up steps).
//   bench_mpm [--particles 100000,1000000] [--threads 1,2] [--steps 10] [--dims 2,3]
#include <tbb/global_control.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "bench_args.hpp"
#include "softsim/mpm/mpm_solver.hpp"

using namespace softsim;

using bench::parse_list;

namespace {

// A block of about `particles` particles filling the middle of a grid with 8 per cell.
template <int D>
void run(long particles, int threads, int steps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
  const double per_cell = 8.0;
  const double block_cells = std::pow(particles / per_cell, 1.0 / D);  // block side in cells
  const int cells = static_cast<int>(std::ceil(block_cells * 1.6)) + 8;
  MpmOptions<D> o;
  o.dx = 1.0 / cells;
  o.cells.fill(cells);
  o.gravity = VecD<D>::Zero();
  o.gravity[1] = -9.81;
  const VecD<D> lo = VecD<D>::Constant(0.5 - 0.5 * block_cells / cells);
  const VecD<D> hi = VecD<D>::Constant(0.5 + 0.5 * block_cells / cells);
  const std::vector<VecD<D>> x = sample_box_regular<D>(lo, hi, o.dx, per_cell);
  MpmParticles<D> p;
  const double volume = (hi - lo).prod() / x.size();
  for (const VecD<D>& xi : x) p.add(xi, VecD<D>::Zero(), volume, 0);
  MpmSolver<D> solver(o, std::move(p));
  const double dt = std::min(1e-3, solver.stable_time_step(0.4));
  for (int s = 0; s < 2; ++s) solver.step(dt);
  double p2g = 0, grid = 0, g2p = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (int s = 0; s < steps; ++s) {
    solver.step(dt);
    p2g += solver.timing().p2g_ms;
    grid += solver.timing().grid_ms;
    g2p += solver.timing().g2p_ms;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double total = p2g + grid + g2p;
  std::printf("| %dD | %zu | %d^%d | %d | %.1f | %.2f | %.0f%% / %.0f%% / %.0f%% |\n", D, x.size(), cells + 1, D,
              threads, 1e3 * seconds / steps, x.size() * steps / seconds / 1e6, 100 * p2g / total, 100 * grid / total,
              100 * g2p / total);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<long> particles{100000, 1000000}, threads{1, 2}, dims{2, 3};
  int steps = 10;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--particles") && i + 1 < argc) particles = parse_list(argv[++i]);
    else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) threads = parse_list(argv[++i]);
    else if (!std::strcmp(argv[i], "--dims") && i + 1 < argc) dims = parse_list(argv[++i]);
    else if (!std::strcmp(argv[i], "--steps") && i + 1 < argc) steps = std::max(1, std::atoi(argv[++i]));
    else {
      std::fprintf(stderr, "unknown or incomplete argument %s (see the comment at the top of bench_mpm.cpp)\n",
                   argv[i]);
      return 2;
    }
  }
  std::printf("| dim | particles | grid nodes | threads | ms per step | M particle-steps/s | P2G / grid / G2P |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  for (long d : dims)
    for (long n : particles)
      for (long t : threads) {
        if (d == 2) run<2>(n, static_cast<int>(t), steps);
        else run<3>(n, static_cast<int>(t), steps);
      }
}
