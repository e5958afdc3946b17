#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "softsim/core/errors.hpp"
#include "softsim/scene/scene_sections.hpp"

namespace softsim {

namespace {

constexpr int kMaxSteps = 100000000;  // time.steps / time.end

void read_time(const JsonReader& t, Scene& scene) {
  scene.dt = t.positive("dt", scene.dt);
  if (t.has("end") && t.has("steps")) t.fail_here("give either \"end\" or \"steps\", not both");
  if (t.has("end")) {
    const double end = t.positive("end", 1.0);
    const double steps = std::ceil(end / scene.dt - 1e-9);
    // Checked before the cast: a huge end / dt would overflow int into a negative step count.
    if (!(steps <= kMaxSteps))
      t.fail("end", fmt::format("{:g} s at dt = {:g} s is {:.3g} steps, more than the limit of {}", end, scene.dt,
                                steps, kMaxSteps));
    scene.steps = static_cast<int>(steps);
  }
  scene.steps = t.integer("steps", scene.steps, 0, kMaxSteps);
  t.finish();
}

}  // namespace

Scene parse_scene(const nlohmann::json& json, const std::filesystem::path& file) {
  Scene scene;
  scene.file = file;
  if (!json.is_object()) throw InputError(scene.source() + ": expected a JSON object at the top level");
  JsonReader root(json, "", scene.source());
  root.string("description", "");
  scene.dim = root.integer("dim", 3, 2, 3);
  const int dim = scene.dim;
  if (root.has("time")) read_time(root.child("time"), scene);
  if (root.has("integrator")) read_integrator(root.child("integrator"), scene);
  if (root.has("solver")) read_solver(root.child("solver"), scene);
  scene.gravity = read_vec(root, "gravity", Vec3(0, -9.81, 0), dim);
  if (root.has("damping")) {
    const JsonReader d = root.child("damping");
    scene.rayleigh_alpha = d.number("alpha", 0.0, 0.0);
    scene.rayleigh_beta = d.number("beta", 0.0, 0.0);
    d.finish();
  }
  if (!root.has("bodies")) root.fail("bodies", "missing; a scene needs at least one body");
  scene.bodies = read_bodies(root.child("bodies"), dim);
  if (root.has("obstacles")) scene.obstacles = read_obstacles(root.child("obstacles"), dim);
  scene.given.contact = root.has("contact");
  if (scene.given.contact) scene.contact = read_contact(root.child("contact"), scene);
  if (root.has("output")) scene.output = read_output(root.child("output"), scene);
  root.finish();
  apply_scene_rules(scene);
  return scene;
}

nlohmann::json read_scene_json(const std::filesystem::path& file) {
  std::error_code ec;
  // An ifstream opens a directory, then fails on the first read with a bare libstdc++ message.
  if (std::filesystem::is_directory(file, ec))
    throw InputError(fmt::format("{}: expected a scene file (JSON), found a directory", file.string()));
  std::ifstream in(file);
  if (!in) throw InputError(fmt::format("{}: cannot open the scene file", file.string()));
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    // e.what() names the byte; report the line too.
    throw InputError(fmt::format("{}: malformed JSON: {}", file.string(), e.what()));
  }
  return json;
}

Scene read_scene(const std::filesystem::path& file) { return parse_scene(read_scene_json(file), file); }

}  // namespace softsim
