// softsim.Scene: a scene read and validated exactly as the CLI reads it (same messages).
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <nlohmann/json.hpp>

#include "bindings.hpp"
#include "softsim/core/enum_names.hpp"
#include "softsim/scene/scene.hpp"

namespace py = pybind11;

namespace softsim::python {

namespace {

// A scene given as JSON text (a Python dict serialised by the package): `name` stands for the
// file in messages, and relative mesh paths are read from `base_dir` (the working directory when
// empty).
Scene scene_from_json_text(const std::string& text, const std::string& name, const std::filesystem::path& base_dir) {
  const std::filesystem::path file = base_dir.empty() ? std::filesystem::path(name) : base_dir / name;
  return parse_scene(parse_scene_json_text(text, file), file);
}

std::vector<std::string> body_names(const Scene& s) {
  std::vector<std::string> names;
  for (const BodySpec& b : s.bodies) names.push_back(b.name);
  return names;
}

std::vector<std::string> obstacle_names(const Scene& s) {
  std::vector<std::string> names;
  for (const ObstacleSpec& o : s.obstacles) names.push_back(o.name);
  return names;
}

}  // namespace

void bind_scene(py::module_& m) {
  py::class_<Scene>(m, "Scene", "A validated scene (docs/scene-format.md).")
      .def_static("load", &read_scene, py::arg("path"),
                  "Reads and validates a scene file; raises ValueError with the CLI's message on bad input.")
      .def_static("from_json_text", &scene_from_json_text, py::arg("text"), py::arg("name") = "<dict>",
                  py::arg("base_dir") = std::filesystem::path(),
                  "A scene from JSON text; `name` stands for the file in messages, relative mesh paths are read "
                  "from `base_dir` (default: the working directory).")
      .def_static("default", &default_scene, "The built-in default scene (what `softsim run` runs without a file).")
      .def_property_readonly("file", [](const Scene& s) { return s.source(); }, "The scene's file (or name).")
      .def_property_readonly("dim", [](const Scene& s) { return s.dim; }, "2 or 3.")
      .def_property_readonly("dt", [](const Scene& s) { return s.dt; }, "Time step (s).")
      .def_property_readonly("steps", [](const Scene& s) { return s.steps; }, "Steps the scene asks for.")
      .def_property_readonly("integrator", [](const Scene& s) { return std::string(name_of(s.integrator.type)); },
                             "The integrator's scene name.")
      .def_property_readonly("bodies", &body_names, "The bodies' names, in the scene's order.")
      .def_property_readonly("obstacles", &obstacle_names, "The obstacles' names, in the scene's order.")
      .def("__repr__", [](const Scene& s) {
        return "<softsim.Scene " + s.source() + ": " + std::to_string(s.dim) + "D, " + std::to_string(s.bodies.size()) +
               " bodies, dt " + std::to_string(s.dt) + " s, " + std::to_string(s.steps) + " steps>";
      });
}

}  // namespace softsim::python
