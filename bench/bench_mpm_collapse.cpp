// Granular column collapse with MPM (tests/support/column_collapse.hpp): run-out and final slope
// against the column's aspect ratio, free and quasi-static (damped), for docs/mpm.md. Not a speed
// benchmark: the figures are the physics; the wall time is printed for scale.
//
//   bench_mpm_collapse [--aspects 0.5,1,2,4] [--friction-angle 30] [--cells-per-width 25.6]
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <vector>

#include "../tests/support/column_collapse.hpp"

int main(int argc, char** argv) {
  CLI::App app("MPM granular column collapse: run-out against aspect ratio");
  std::vector<double> aspects{0.5, 1.0, 2.0, 4.0};
  double phi = 30.0;
  double damping = 10.0;
  app.add_option("--aspects", aspects, "column height / width")->delimiter(',');
  app.add_option("--friction-angle", phi, "degrees");
  app.add_option("--damping", damping, "1/s, for the quasi-static runs");
  CLI11_PARSE(app, argc, argv);

  fmt::print("Drucker-Prager sand, friction angle {} degrees (2D angle of repose {:.1f}); column 0.2 m wide, "
             "dx = 1/128 m, 4 particles per cell, smooth walls, rough floor\n\n",
             phi, softsim::test::repose_angle_2d(phi));
  fmt::print("| aspect ratio | collapse | run-out (L_f - L_0) / L_0 | slope (degrees) | top / initial height | "
             "particles | steps | wall s |\n|---|---|---|---|---|---|---|---|\n");
  for (double a : aspects) {
    for (bool quasi_static : {false, true}) {
      softsim::test::ColumnCollapse c;
      c.friction_angle = phi;
      c.height = a * c.width;
      // Long enough to settle: a few free-fall times of the column plus the spreading.
      c.seconds = (quasi_static ? 1.5 : 1.0) * std::sqrt(std::max(1.0, c.height / 0.1));
      if (quasi_static) c.damping = damping;
      const auto t0 = std::chrono::steady_clock::now();
      const softsim::test::Deposit d = softsim::test::collapse(c);
      const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      fmt::print("| {:g} | {} | {:.2f} | {:.1f} | {:.2f} | {} | {} | {:.1f} |\n", a,
                 quasi_static ? "damped" : "free", d.run_out, d.slope_degrees, d.max_height / c.height, d.particles,
                 d.steps, wall);
    }
  }
  return 0;
}
