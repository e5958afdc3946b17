#include <algorithm>
#include <nlohmann/json.hpp>

#include "softsim/scene/scene_sections.hpp"

namespace softsim {

OutputSpec read_output(const JsonReader& o, const Scene& scene) {
  OutputSpec out;
  out.every = o.integer("every", out.every, 1, 100000000);
  out.checkpoint_every = o.integer("checkpoint_every", out.checkpoint_every, 0, 100000000);
  if (o.has("formats")) {
    const auto& f = o.node().at("formats");
    const std::string expected = "expected an array of \"vtu\" / \"obj\", got ";
    if (!f.is_array()) o.fail("formats", expected + describe_json(f));
    out.formats.clear();
    for (const auto& s : f) {
      const std::optional<OutputFormat> format =
          s.is_string() ? value_named<OutputFormat>(s.get<std::string>()) : std::nullopt;
      if (!format) o.fail("formats", expected + describe_json(f));
      out.formats.push_back(*format);
    }
  }
  if (o.has("track")) {
    const auto& t = o.node().at("track");
    const std::string expected = "expected an array of body or moving mesh obstacle names";
    if (!t.is_array()) o.fail("track", expected + ", got " + describe_json(t));
    for (const auto& name : t) {
      if (!name.is_string()) o.fail("track", expected + ", got " + describe_json(t));
      const std::string n = name.get<std::string>();
      const bool body = std::any_of(scene.bodies.begin(), scene.bodies.end(), [&](const BodySpec& b) { return b.name == n; });
      const bool moving = std::any_of(scene.obstacles.begin(), scene.obstacles.end(),
                                      [&](const ObstacleSpec& ob) { return ob.name == n && ob.is_moving_mesh(); });
      if (!body && !moving) o.fail("track", "no body or moving mesh obstacle is named \"" + n + "\"");
      out.track.push_back(n);
    }
  }
  o.finish();
  return out;
}

bool OutputSpec::writes(OutputFormat f) const { return std::find(formats.begin(), formats.end(), f) != formats.end(); }

}  // namespace softsim
