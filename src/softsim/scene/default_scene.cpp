#include <nlohmann/json.hpp>

#include "softsim/scene/scene.hpp"

namespace softsim {

// The built-in scene of `softsim run` with no scene file: a soft neo-Hookean beam, 1 m x 0.2 m x
// 0.2 m, clamped at its left end, released from rest and swinging down under gravity,
// integrated with backward Euler (h = 0.01 s) for 2 s.
Scene default_scene() {
  const nlohmann::json json = R"json({
    "description": "neo-Hookean beam clamped at x = -0.5, swinging under gravity (backward Euler)",
    "dim": 3,
    "time": {"dt": 0.01, "end": 2.0},
    "integrator": {"type": "backward_euler"},
    "gravity": [0, -9.81, 0],
    "bodies": [{
      "name": "beam",
      "generator": {"type": "box", "size": [1.0, 0.2, 0.2], "resolution": [20, 4, 4]},
      "material": {"model": "neo_hookean", "E": 2e5, "nu": 0.4, "density": 1000},
      "fixed": [{"box": [[-0.51, -1, -1], [-0.49, 1, 1]]}]
    }],
    "output": {"every": 5}
  })json"_json;
  return parse_scene(json, {});
}

}  // namespace softsim
