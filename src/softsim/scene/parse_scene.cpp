#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <nlohmann/json.hpp>

#include "softsim/core/hash.hpp"
#include "softsim/core/errors.hpp"
#include "softsim/scene/scene_sections.hpp"

namespace softsim {

// What a continued run may change: its length and how often it checkpoints.
std::uint64_t scene_fingerprint(nlohmann::json json) {
  if (auto t = json.find("time"); t != json.end() && t->is_object()) {
    t->erase("steps");
    t->erase("end");
  }
  if (auto o = json.find("output"); o != json.end() && o->is_object()) o->erase("checkpoint_every");
  return fnv1a_64(json.dump());
}

void read_time(const JsonReader& t, double& dt, int& steps) {
  constexpr int kMaxSteps = 100000000;
  dt = t.positive("dt", dt);
  if (t.has("end") && t.has("steps")) t.fail_here("give either \"end\" or \"steps\", not both");
  if (t.has("end")) {
    const double end = t.positive("end", 1.0);
    const double n = std::ceil(end / dt - 1e-9);
    // Checked before the cast: a huge end / dt would overflow int into a negative step count.
    if (!(n <= kMaxSteps))
      t.fail("end", fmt::format("{:g} s at dt = {:g} s is {:.3g} steps, more than the limit of {}", end, dt, n,
                                kMaxSteps));
    steps = static_cast<int>(n);
  }
  steps = t.integer("steps", steps, 0, kMaxSteps);
  t.finish();
}

Scene parse_scene(const nlohmann::json& json, const std::filesystem::path& file) {
  Scene scene;
  scene.file = file;
  if (!json.is_object()) throw InputError(scene.source() + ": expected a JSON object at the top level");
  scene.fingerprint = scene_fingerprint(json);
  JsonReader root(json, "", scene.source());
  if (root.has("mpm"))
    root.fail("mpm", "an MPM scene (particles on a grid, docs/mpm.md) has no FEM model: `softsim run` runs it");
  root.string("description", "");
  scene.dim = root.integer("dim", 3, 2, 3);
  const int dim = scene.dim;
  if (root.has("time")) read_time(root.child("time"), scene.dt, scene.steps);
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

namespace {

constexpr int kMaxJsonDepth = 512;

// "line L, column C" of a byte offset into `text` (both from 1, as the parser reports them).
std::string line_and_column(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  const std::string_view before = text.substr(0, offset);
  const std::size_t line = static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n')) + 1;
  const std::size_t line_start = before.rfind('\n');
  const std::size_t column = offset - (line_start == std::string_view::npos ? 0 : line_start + 1) + 1;
  return fmt::format("line {}, column {}", line, column);
}

// The first byte at which arrays and objects are nested deeper than kMaxJsonDepth (outside
// strings), or npos. Deep nesting parses, but printing or walking such a value recurses once
// per level: it is refused before anything reads it.
std::size_t too_deep_at(std::string_view text) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) return i;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return std::string_view::npos;
}

// Where the parser stops on a text it rejected for a reason other than syntax (a number too
// large for a double): a SAX pass that records the byte offset of the failure.
class FailureOffset : public nlohmann::json_sax<nlohmann::json> {
 public:
  std::size_t offset = 0;
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::json::exception&) override {
    offset = position;
    return false;
  }
};

// The parser's message without its "[json.exception.<kind>.<id>] " prefix, with the bytes it
// quotes from the file printable: an ill-formed UTF-8 byte is shown as \xNN, not echoed.
std::string parser_reason(const char* what) {
  std::string_view reason(what);
  if (!reason.empty() && reason.front() == '[') {
    const std::size_t end = reason.find("] ");
    if (end != std::string_view::npos) reason.remove_prefix(end + 2);
  }
  std::string out;
  for (const char c : reason) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte >= 0x7f) out += fmt::format("\\x{:02X}", byte);
    else out += c;
  }
  return out;
}

}  // namespace

nlohmann::json read_scene_json(const std::filesystem::path& file) {
  std::error_code ec;
  // An ifstream opens a directory, then fails on the first read with a bare libstdc++ message.
  if (std::filesystem::is_directory(file, ec))
    throw InputError(fmt::format("{}: expected a scene file (JSON), found a directory", file.string()));
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot open the scene file", file.string()));
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return parse_scene_json_text(text, file);
}

nlohmann::json parse_scene_json_text(const std::string& text, const std::filesystem::path& file) {
  if (const std::size_t at = too_deep_at(text); at != std::string_view::npos)
    throw InputError(fmt::format("{}: malformed JSON: at {}: arrays and objects nested deeper than {} levels",
                                 file.string(), line_and_column(text, at), kMaxJsonDepth));
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // e.what() names the line and column (syntax, encoding, truncation).
    throw InputError(fmt::format("{}: malformed JSON: {}", file.string(), parser_reason(e.what())));
  } catch (const nlohmann::json::exception& e) {
    // Valid syntax the parser still refuses (a number beyond a double's range): locate it.
    FailureOffset failure;
    nlohmann::json::sax_parse(text, &failure);
    throw InputError(fmt::format("{}: malformed JSON: at {}: {}", file.string(), line_and_column(text, failure.offset),
                                 parser_reason(e.what())));
  }
}

Scene read_scene(const std::filesystem::path& file) { return parse_scene(read_scene_json(file), file); }

}  // namespace softsim
