#pragma once
// The scene's sections, each read from its JSON object by a parse_*.cpp and built into the model
// by a build_*.cpp; parse_scene() and build_model() run them in order. Internal to scene/.
#include <cstdint>
#include <string>
#include <vector>

#include "softsim/mesh/mesh.hpp"
#include "softsim/scene/json_reader.hpp"
#include "softsim/scene/scene.hpp"

namespace softsim {

// Reading (parse_*.cpp) ----------------------------------------------------------------------------
// bodies[] with their materials, generators, transforms, boundary conditions (parse_body.cpp).
std::vector<BodySpec> read_bodies(const JsonReader& list, int dim);
SelectionSpec read_selection(const JsonReader& r, int dim);
// velocity | path, method, limit, kappa of a prescribed motion (fixed[j], moving obstacles).
void read_motion(const JsonReader& r, int dim, MotionSpec& spec);
// A dim-long vector read into a Vec3 (the third component `fill` in 2D).
Vec3 read_vec(const JsonReader& r, const std::string& key, const Vec3& fallback, int dim, double fill = 0.0);
// The same for a key that must be there.
Vec3 required_vec(const JsonReader& r, const std::string& key, int dim);
TransformSpec read_transform(const JsonReader& t, int dim);
// A body's "volume_penalty": an object or an array of objects (parse_volume_penalty.cpp).
std::vector<VolumePenaltySpec> read_volume_penalties(const JsonReader& r, int dim, BodyKind kind);
// obstacles[] and contact (parse_contact.cpp); contact.friction.pairs name bodies and obstacles.
std::vector<ObstacleSpec> read_obstacles(const JsonReader& list, int dim);
ContactSpec read_contact(const JsonReader& c, const Scene& scene);
// integrator and solver (parse_integrator.cpp), into scene.integrator and scene.given.
void read_integrator(const JsonReader& i, Scene& scene);
void read_solver(const JsonReader& s, Scene& scene);
// output (parse_output.cpp); output.track names bodies and moving mesh obstacles.
OutputSpec read_output(const JsonReader& o, const Scene& scene);
// A hash of the scene's JSON without what a continued run may change (time.steps, time.end,
// output.checkpoint_every): a checkpoint resumes only the scene that wrote it.
std::uint64_t scene_fingerprint(nlohmann::json json);
// time.dt and time.steps or time.end (as steps of dt), into dt and steps (kept when absent).
void read_time(const JsonReader& t, double& dt, int& steps);
// The rules that tie sections together, applied once everything is read (scene_rules.cpp).
void apply_scene_rules(Scene& scene);

// Building (build_*.cpp) ---------------------------------------------------------------------------
// A file named in the scene: a relative path is relative to the scene file.
std::filesystem::path scene_path(const std::filesystem::path& scene_file, const std::filesystem::path& file);
std::filesystem::path scene_path(const Scene& scene, const std::filesystem::path& file);
Mesh load_scene_mesh(const Scene& scene, const std::filesystem::path& file);
void apply_transform(Mesh& mesh, const TransformSpec& t, int dim);
// The mass-weighted centre of vertices [first, first + count) at t = 0 (their mean when massless).
VecX centre_of_mass(const Model& model, int first, int count);
// Every body: vertices, elasticity, mass, initial state, volume penalties (build_body.cpp).
void add_bodies(Model& model, const Scene& scene);
// Prescribed motions, slip, loads and tractions of every body (build_boundary.cpp).
void add_boundary_conditions(Model& model, const Scene& scene);
// A body's volume penalty terms (build_volume_penalty.cpp).
void add_volume_penalties(Model& model, const Body& body, const BodySpec& spec, const std::string& file);
// Moving mesh obstacles are bodies driven by penalty (build_contact.cpp); they come before the
// boundary conditions, which need every vertex.
void add_moving_mesh_obstacles(Model& model, const Scene& scene);
// The pose of every moving analytic obstacle is one vertex after all the bodies' (mass
// `obstacles[k].mass`, gravity cancelled unless `gravity`); its motion is added with the boundary
// conditions (build_contact.cpp).
void add_obstacle_poses(Model& model, const Scene& scene);
// Per scene obstacle: its pose vertex, or -1 (static, or a mesh).
std::vector<int> obstacle_pose_vertices(const Model& model, const Scene& scene);
// Bodies in a subspace (build_subspace.cpp): the affine bodies' orthogonality potentials, right
// after the bodies; then, on the finished model (a reduced body's modes are computed from it),
// the model's subspace map: affine bodies' vertices follow their 12 (3D) or 6 (2D) coordinates,
// reduced bodies' their basis, every other vertex keeps its own.
void add_affine_potentials(Model& model, const Scene& scene);
void add_subspace_map(Model& model, const Scene& scene);
// Contact between the bodies and with the obstacles, and its friction (build_contact.cpp).
void add_contact(Model& model, const Scene& scene);

}  // namespace softsim
