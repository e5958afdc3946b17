// The block slide of Larionov et al. 2022, §5.1.1 (Fig. 4) as a table: stopping distance and time of the
// block (analytic 0.769 m, 15.38 s) with fully implicit and lagged friction (1, 3 and 10
// fixed-point iterations), BE, BDF2, SDIRK2, TR-BDF2 and the trapezoidal rule, h = 0.1 ... 0.01 s. Prints a
// markdown table (docs/friction.md) with the relative errors; "no stop" when the block is
// still moving after 50 s.
//   bench_block_slide [--integrators backward_euler,bdf2,sdirk2,tr_bdf2,trapezoidal,trapezoidal_damped] [--t-max 50]
// (trapezoidal_damped: TR with damping.beta = 1e-3 s)
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "../tests/support/block_slide.hpp"

using namespace softsim;
using experiments::BlockSlide;

int main(int argc, char** argv) {
  std::vector<std::string> integrators{"backward_euler", "bdf2", "sdirk2", "tr_bdf2", "trapezoidal", "trapezoidal_damped"};
  double t_max = 50.0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--integrators")) {
      integrators.clear();
      std::stringstream list(argv[i + 1]);
      for (std::string s; std::getline(list, s, ',');) integrators.push_back(s);
    } else if (!std::strcmp(argv[i], "--t-max")) {
      t_max = std::atof(argv[i + 1]);
    }
  }
  struct Mode {
    const char* name;
    int iterations;
  };
  const std::vector<Mode> modes{{"implicit", 1}, {"lagged", 1}, {"lagged", 3}, {"lagged", 10}};
  std::printf("analytic: stop after %.4f m at %.2f s (a = %.4g m/s^2)\n\n", BlockSlide::stop_distance(),
              BlockSlide::stop_time(), BlockSlide::deceleration());
  std::printf("| integrator | friction | h (s) | distance (m) | error | stop time (s) | error | Newton its/step | wall (s) |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  for (const std::string& integrator : integrators)
    for (const Mode& m : modes)
      for (double h : {0.1, 0.05, 0.025, 0.01}) {
        const auto r = experiments::run_block_slide(m.name, m.iterations, integrator, h, t_max);
        const std::string friction =
            std::string(m.name) + (std::string(m.name) == "lagged" ? " x" + std::to_string(m.iterations) : "");
        if (!r.stopped) {
          std::printf("| %s | %s | %.3f | no stop in %.0f s | | | | %.2f | %.2f |\n", integrator.c_str(), friction.c_str(),
                      h, t_max, double(r.newton_iterations) / r.steps, r.seconds);
        } else {
          std::printf("| %s | %s | %.3f | %.4f | %+.1f%% | %.2f | %+.1f%% | %.2f | %.2f |%s\n", integrator.c_str(),
                      friction.c_str(), h, r.distance, 100 * (r.distance / BlockSlide::stop_distance() - 1), r.stop_time,
                      100 * (r.stop_time / BlockSlide::stop_time() - 1), double(r.newton_iterations) / r.steps,
                      r.seconds, r.converged ? "" : " (unconverged steps)");
        }
        std::fflush(stdout);
      }
  return 0;
}
