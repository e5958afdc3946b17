#pragma once
// A scene as read from JSON: typed, validated, with every default filled in. build_model() turns
// it into a Model. docs/scene-format.md documents every key, its default and its unit.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "softsim/core/types.hpp"
#include "softsim/integrate/stepper.hpp"
#include "softsim/model/model.hpp"

namespace softsim {

struct MaterialSpec {
  std::string model = "neo_hookean";
  double youngs_modulus = 1e5;  // Pa
  double poisson_ratio = 0.3;
  double density = 1000.0;      // kg/m^3 (kg/m^2 for 2D bodies per unit thickness)
  double spring_stiffness = 1e3;  // mass_spring bodies: the book's k
  double thickness = 1e-3;        // shell bodies (m)
  std::optional<double> bending_stiffness;  // shell bodies (J); default E h^3 / (12 (1 - nu^2))
  bool lumped_mass = true;
};

struct GeneratorSpec {
  std::string type;  // "box", "hollow_box", "rectangle", "spring_grid", "sheet", "sphere", "hollow_sphere", "bowl"
  Vec3 size = Vec3::Ones();
  Eigen::Vector3i resolution = Eigen::Vector3i::Constant(4);  // round shapes: x() only
  double radius = 0.5, inner_radius = 0.4;  // m: round shapes (round_generator_spec.hpp)
  int layers = 2;
  int wall = 1;  // hollow_box: wall thickness in cells
};

struct TransformSpec {
  Vec3 translate = Vec3::Zero();
  Vec3 rotate_degrees = Vec3::Zero();  // applied about x, then y, then z
  Vec3 scale = Vec3::Ones();
};

// A vertex selection: an axis-aligned box (world coordinates, after the transform) or vertex ids.
struct SelectionSpec {
  std::optional<std::pair<Vec3, Vec3>> box;
  std::vector<int> ids;
  std::string path;  // JSON path, for messages
};

struct FixedSpec {
  SelectionSpec selection;
  Vec3 velocity = Vec3::Zero();  // m/s, constant-velocity motion
  std::vector<std::pair<double, Vec3>> path;  // keyframes (t, offset), piecewise linear
  bool penalty = false;    // moved by penalty (the book ch. 11) instead of DOF elimination
  double limit = HUGE_VAL;  // m: penalty targets stop after travelling this far
  double kappa = 1e3;      // 1/s^2: initial penalty stiffness (the book's code)
};

struct SlipSpec {
  SelectionSpec selection;
  Vec3 direction = Vec3::UnitY();
  bool line = false;
};

// Neumann data: a force on each selected vertex (N), or a traction (Pa; N/m in 2D) on the
// boundary faces (edges in 2D) whose vertices all lie in the box.
struct LoadSpec {
  SelectionSpec selection;
  Vec3 force = Vec3::Zero();
};
struct TractionSpec {
  SelectionSpec selection;  // box only
  Vec3 traction = Vec3::Zero();
};

// Volume-change penalty on a body (seed 003 sec. 3.4; volume_penalty_spec.hpp).
struct VolumePenaltySpec {
  std::string model = "quadratic";  // "quadratic", "ideal_gas", "nearly_incompressible"
  double kappa_v = 1.0;             // atm^-1: quadratic, nearly incompressible
  double pressure = 1.0;            // atm, absolute, at the rest volume: ideal gas
  std::string region = "enclosed";  // "enclosed", "cavity", "tets"
  std::optional<std::pair<Vec3, Vec3>> box;  // region "tets": the tets whose centroid is inside
  bool exact_direct_jacobian = true;  // "direct_jacobian": "exact" (rank-one by SMW) or "sparse"
  std::string path;                 // JSON path
};

struct BodySpec {
  std::string name;
  std::string kind = "solid";  // "solid" (FEM), "mass_spring", "shell"
  std::optional<std::filesystem::path> mesh;
  std::optional<GeneratorSpec> generator;
  TransformSpec transform;
  MaterialSpec material;
  Vec3 initial_velocity = Vec3::Zero();
  // Initial spin (rad/s) about the body's centre of mass: 3D a vector, 2D about z.
  Vec3 initial_angular_velocity = Vec3::Zero();
  // Initial stretch: positions at t = 0 are scaled by this factor about the centre of the body's
  // bounding box; the rest shape (and the vertex selections) are those of the unscaled mesh.
  double initial_scale = 1.0;
  // Start at rest in the equilibrium of the body's own forces (initial_equilibrium.hpp).
  bool initial_equilibrium = false;
  std::vector<FixedSpec> fixed;
  std::vector<SlipSpec> slip;
  std::vector<LoadSpec> loads;
  std::vector<TractionSpec> tractions;
  std::vector<VolumePenaltySpec> volume_penalties;
  std::string path;  // JSON path
};

struct ObstacleSpec {
  std::string name;            // default "obstacle<k>" (contact.friction.pairs refer to it)
  std::string type = "plane";  // "plane", "sphere", "box"
  Vec3 point = Vec3::Zero();   // plane: a point on it; sphere, box: the centre
  Vec3 normal = Vec3::UnitY();
  double radius = 0.5;         // sphere (m)
  Vec3 size = Vec3::Ones();    // box: full extent along each axis (m)
  std::filesystem::path mesh;  // mesh: a triangle (3D) or edge (2D) surface, static
  TransformSpec transform;     // mesh: applied as for bodies
  std::optional<Vec3> velocity;  // mesh: kinematic motion (m/s), driven by penalty; static if absent
  double limit = HUGE_VAL;       // mesh: distance (m) after which a kinematic mesh stops
  std::string path;            // JSON path
};

// Barrier contact with obstacles (the book ch. 7): dhat (m), kappa (the book's stiffness).
struct ContactSpec {
  bool enabled = true;         // IPC between and within bodies
  std::optional<double> dhat;  // default: 1e-3 of the scene's bounding-box diagonal
  std::optional<double> kappa;  // default: automatic for IPC, 1e5 (the book) for obstacles
  std::string barrier = "ipc";      // "ipc" (squared distances) or "book"
  std::string broad_phase = "hash";  // "hash" or "bvh"
  double thickness = 0.0;  // m: minimum separation kept between surfaces (shells)
  // "barrier" (IPC, above) or "penalty" (seed 003 sec. 3.2: cubic penalty on signed gaps).
  std::string type = "barrier";
  std::optional<double> delta;          // penalty: thickness tolerance (m); default as dhat
  std::optional<double> search_radius;  // penalty: m; default per body (docs/scene-format.md)
  // Lagged IPC friction (contact.friction): off while mu = 0.
  struct Friction {
    double mu = 0.0;
    double eps_v = 1e-3;             // m/s (stick-slip velocity threshold)
    std::string mode = "lagged";     // only "lagged" ("implicit" is rejected)
    int iterations = 1;              // lagged fixed-point updates per step
    std::string smoothing = "c1";    // "c1" (IPC) or "rational" (seed 003 s_b)
    // Coefficients per pair of bodies / obstacles (by name); other pairs use mu.
    struct Pair {
      std::string a, b;
      double mu = 0.0;
      std::string path;  // JSON path, for messages
    };
    std::vector<Pair> pairs;
  } friction;
};

struct OutputSpec {
  int every = 1;  // write a frame every N steps
  std::vector<std::string> formats{"vtu", "obj"};
  // Bodies (or moving mesh obstacles) whose centre of mass and extent go into stats.csv.
  std::vector<std::string> track;
};

struct Scene {
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
  std::string on_failure = "error";  // "error" or "continue"
  bool inversion_filter = true;       // cap Newton steps so no element inverts (book ch. 15)
};

// Reads and validates a scene file; throws InputError naming the file and the JSON path.
Scene read_scene(const std::filesystem::path& file);
// The scene file's JSON, not yet validated (to change keys before parse_scene); throws InputError
// naming the file when it cannot be opened or is not JSON.
nlohmann::json read_scene_json(const std::filesystem::path& file);
Scene parse_scene(const nlohmann::json& json, const std::filesystem::path& file);
// The built-in default scene (see README).
Scene default_scene();

// Loads meshes, applies transforms and builds the model. Throws InputError for bad meshes.
Model build_model(const Scene& scene);

}  // namespace softsim
