#pragma once
// The top level of a particle scene file (an "mpm" or a "pbf" section instead of "bodies"): the
// keys it shares with every scene (description, dim, time, gravity, output), the FEM sections
// refused by name, and the fingerprint checkpoints match. MpmScene and PbfScene have the same
// field names for these.
#include <nlohmann/json.hpp>
#include <string>

#include "softsim/core/errors.hpp"
#include "softsim/scene/json_reader.hpp"
#include "softsim/scene/scene_sections.hpp"

namespace softsim {

// Reads them into `scene` (whose `file` is set) and returns the root reader, on which the caller
// reads its section and calls finish(). `refusal` ends the message for a FEM section.
template <class ParticleScene>
JsonReader read_particle_scene_top(const nlohmann::json& json, ParticleScene& scene, const std::string& refusal) {
  if (!json.is_object()) throw InputError(scene.source() + ": expected a JSON object at the top level");
  scene.fingerprint = scene_fingerprint(json);
  JsonReader root(json, "", scene.source());
  root.string("description", "");
  scene.dim = root.integer("dim", 2, 2, 3);
  for (const char* key : {"bodies", "obstacles", "contact", "integrator", "solver", "damping"})
    if (root.has(key)) root.fail(key, refusal);
  auto object = [&](const char* key) {
    const JsonReader c = root.child(key);
    if (!c.node().is_object()) root.fail(key, "expected an object, got " + describe_json(c.node()));
    return c;
  };
  if (root.has("time")) read_time(object("time"), scene.dt, scene.steps);
  scene.gravity = read_vec(root, "gravity", Vec3(0, -9.81, 0), scene.dim);
  if (root.has("output")) {
    const JsonReader o = object("output");
    scene.output_every = o.integer("every", scene.output_every, 1, 100000000);
    scene.checkpoint_every = o.integer("checkpoint_every", scene.checkpoint_every, 0, 100000000);
    o.finish();
  }
  return root;
}

}  // namespace softsim
