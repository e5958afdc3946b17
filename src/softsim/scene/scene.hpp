#pragma once
// A scene as read from JSON (docs/scene-format.md documents every key, its default and its
// unit): typed values, every default filled in, the rules that tie one section to another
// applied (scene_rules.hpp). Each section has its spec (body_spec.hpp, contact_spec.hpp, the
// integrator's StepperOptions), its parser (parse_*.cpp) and its builder (build_*.cpp);
// build_model() turns the whole into a Model.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "softsim/core/types.hpp"
#include "softsim/integrate/stepper.hpp"
#include "softsim/model/model.hpp"
#include "softsim/scene/body_spec.hpp"
#include "softsim/scene/contact_spec.hpp"

namespace softsim {

enum class OutputFormat { vtu, obj };
template <>
struct EnumNames<OutputFormat> {
  static constexpr std::pair<OutputFormat, const char*> table[] = {{OutputFormat::vtu, "vtu"}, {OutputFormat::obj, "obj"}};
};

struct OutputSpec {
  int every = 1;  // write a frame every N steps
  std::vector<OutputFormat> formats{OutputFormat::vtu, OutputFormat::obj};
  // Bodies (or moving mesh obstacles) whose centre of mass and extent go into stats.csv.
  std::vector<std::string> track;
  // Write a checkpoint (checkpoint.bin in the output folder) every N steps; 0: only when the run
  // is interrupted (Ctrl-C). `softsim run --resume OUT` continues from it.
  int checkpoint_every = 0;
  bool writes(OutputFormat f) const;
};

// What a run does when a step does not converge: stop with an error, or go on.
enum class OnFailure { error, carry_on };
template <>
struct EnumNames<OnFailure> {
  static constexpr std::pair<OnFailure, const char*> table[] = {{OnFailure::error, "error"}, {OnFailure::carry_on, "continue"}};
};

struct Scene {
  // Defined out of line (scene.cpp): the members' constructors, copies and destructors are
  // compiled once, not in every file that holds a Scene.
  Scene();
  ~Scene();
  Scene(const Scene&);
  Scene(Scene&&) noexcept;
  Scene& operator=(const Scene&);
  Scene& operator=(Scene&&) noexcept;

  std::filesystem::path file;  // empty for the built-in default scene
  int dim = 3;
  double dt = 0.01;
  int steps = 100;
  StepperOptions integrator;
  Vec3 gravity = Vec3(0, -9.81, 0);
  double rayleigh_alpha = 0.0, rayleigh_beta = 0.0;
  std::vector<BodySpec> bodies;
  std::vector<ObstacleSpec> obstacles;
  ContactSpec contact;
  OutputSpec output;
  OnFailure on_failure = OnFailure::error;
  bool inversion_filter = true;  // cap Newton steps so no element inverts (Li & Jiang 2025, §15.3)
  // A hash of the scene's JSON without the keys a continued run may change (time.steps,
  // time.end, output.checkpoint_every): a checkpoint is resumed only by the scene that wrote it.
  std::uint64_t fingerprint = 0;

  // Keys whose presence a rule between sections depends on (scene_rules.hpp).
  struct Given {
    std::optional<StageForm> form;  // integrator.form
    bool tolerance = false;         // solver.tolerance
    bool contact = false;           // a contact section
  } given;

  // The file's name for messages ("(default scene)" for the built-in one).
  std::string source() const { return file.empty() ? "(default scene)" : file.string(); }
};

// Reads and validates a scene file; throws InputError naming the file and the JSON path.
Scene read_scene(const std::filesystem::path& file);
// The scene file's JSON, not yet validated (to change keys before parse_scene); throws InputError
// naming the file when it cannot be opened or is not JSON.
nlohmann::json read_scene_json(const std::filesystem::path& file);
// The same for JSON text (`file` names it in messages).
nlohmann::json parse_scene_json_text(const std::string& text, const std::filesystem::path& file);
Scene parse_scene(const nlohmann::json& json, const std::filesystem::path& file);
// The built-in default scene (see README).
Scene default_scene();

// Loads meshes, applies transforms and builds the model. Throws InputError for bad meshes.
Model build_model(const Scene& scene);
// What building did and what may go wrong, for the user (build_messages.cpp): each body's mesh
// notes (an STL's corners welded, a surface tetrahedralized), and a warning for each body whose
// worst element is a sliver (element_quality.hpp, kPoorElementAngleDegrees).
struct BuildMessages {
  std::vector<std::string> notes, warnings;
};
BuildMessages describe_build(const Model& model);

// 1e-3 x the bounding-box diagonal of all vertices at t = 0: the default of contact.dhat and
// contact.delta (m).
double default_contact_distance(const Model& model);

}  // namespace softsim
