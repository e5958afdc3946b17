// Embedding softsim: read a scene (or take the built-in one), build its model, step it while
// reading the state, and say where each body ended up.
//   drop [SCENE.json] [STEPS]
#include <softsim/core/errors.hpp>
#include <softsim/scene/scene.hpp>
#include <softsim/sim/simulation.hpp>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  try {
    const softsim::Scene scene = argc > 1 ? softsim::read_scene(argv[1]) : softsim::default_scene();
    const softsim::Model model = softsim::build_model(scene);
    softsim::RunOptions options;
    options.out_dir.clear();  // nothing written: this program reads the state itself
    options.quiet = true;
    if (argc > 2) options.steps = std::atoi(argv[2]);
    softsim::Simulation simulation(scene, model, options);
    while (simulation.step()) {
    }
    const softsim::RunReport report = simulation.finish();
    const softsim::State& state = simulation.state();
    std::printf("%d steps, t = %.4g s, last step %d Newton iterations\n", report.steps_done, state.t,
                simulation.last().newton_iterations);
    const int dim = model.dim();
    for (const softsim::Body& body : model.bodies) {
      double lowest = HUGE_VAL, mass = 0.0;
      softsim::VecX centre = softsim::VecX::Zero(dim);
      const std::vector<double> masses = model.vertex_masses();
      for (int i = 0; i < body.mesh.num_vertices(); ++i) {
        const int v = body.first_vertex + i;
        centre += masses[v] * state.x.segment(v * dim, dim);
        mass += masses[v];
        lowest = std::min(lowest, state.x[v * dim + 1]);
      }
      centre /= mass;
      std::printf("%s: centre of mass height %.6f m, lowest point %.6f m\n", body.name.c_str(), centre[1], lowest);
    }
    return report.status == softsim::RunStatus::Ok ? 0 : 1;
  } catch (const softsim::InputError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}
