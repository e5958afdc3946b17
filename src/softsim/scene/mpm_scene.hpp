#pragma once
// An MPM scene (docs/mpm.md, "Scene files"): a scene file with an "mpm" section instead of
// "bodies". Its continua are particles sampled in boxes, spheres or mesh volumes, stepped on a background grid by
// MpmSolver (mpm/mpm_solver.hpp); it shares the scene file's dim, gravity, time and output.every.
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "softsim/core/types.hpp"
#include "softsim/mpm/mpm_solver.hpp"
#include "softsim/scene/body_spec.hpp"

namespace softsim {

// The most particles a scene may ask for (about 5 GB of particle arrays).
inline constexpr double kMpmMaxParticles = 2e7;

struct MpmScene {
  std::filesystem::path file;
  int dim = 2;
  double dt = 1e-4;
  int steps = 100;
  int output_every = 1;
  int checkpoint_every = 0;  // output.checkpoint_every: steps between checkpoints (0: at the end only)
  std::uint64_t fingerprint = 0;  // of the scene's JSON (scene_fingerprint): what a checkpoint must match
  Vec3 gravity = Vec3(0, -9.81, 0);

  Vec3 origin = Vec3::Zero();
  double dx = 1.0 / 64;
  std::array<int, 3> cells{64, 64, 64};
  MpmKernel kernel = MpmKernel::quadratic;
  MpmTransfer transfer = MpmTransfer::apic;
  double flip_ratio = 0.99;
  double damping = 0.0;  // 1/s, of grid velocities (MpmOptions::damping)
  int wall_nodes = 3;
  MpmBoundary walls = MpmBoundary::sticky;
  double wall_friction = 0.0;

  std::vector<std::string> material_names;
  std::vector<MpmMaterial> materials;

  struct Body {
    std::string name;
    std::string path;  // "mpm.bodies[i]", for messages
    // The region the particles fill: a box [lo, hi], a sphere (a disk in 2D), or the volume of a
    // mesh (triangles in 2D; tetrahedra, or a closed triangle surface tetrahedralized, in 3D)
    // placed by a transform.
    enum class Shape { box, sphere, mesh } shape = Shape::box;
    Vec3 lo = Vec3::Zero(), hi = Vec3::Ones();  // box; for a sphere, its bounding box
    Vec3 center = Vec3::Zero();
    double radius = 0.0;
    std::filesystem::path mesh;  // as written in the scene (relative to the scene file)
    TransformSpec transform;
    bool poisson = false;  // sampling: "regular" (false) or "poisson"
    double particles_per_cell = 8.0;
    unsigned seed = 1;
    Vec3 velocity = Vec3::Zero();
    int material = 0;
  };
  std::vector<Body> bodies;

  std::vector<MpmCollider<3>> colliders;  // in 3D coordinates; the first dim are used

  std::string source() const { return file.empty() ? "(MPM scene)" : file.string(); }
};

// True when the scene's JSON is an MPM scene (it has an "mpm" section).
bool is_mpm_scene(const nlohmann::json& json);
// Reads and validates one; throws InputError naming the file and the key.
MpmScene parse_mpm_scene(const nlohmann::json& json, const std::filesystem::path& file);

// About how many particles `per_cell` particles per grid cell make in the box [lo, hi]: what the
// limit kMpmMaxParticles is checked against before sampling.
inline double estimated_particles(const MpmScene& scene, double per_cell, const Vec3& lo, const Vec3& hi) {
  return per_cell * (hi - lo).head(scene.dim).prod() / std::pow(scene.dx, scene.dim);
}

// Why the box [lo, hi] is not where particles may be (inside the grid, a kernel's reach from its
// edges), or empty when it is. For the parser's and the builder's messages.
std::string outside_grid(const MpmScene& scene, const Vec3& lo, const Vec3& hi);

// The particles of every body (sampled, in body order) and the solver's options. Throws
// InputError naming the file and body when a particle lies outside the grid's interior (which
// parse_mpm_scene's check of the boxes already excludes).
template <int D>
MpmSolver<D> build_mpm_solver(const MpmScene& scene);

}  // namespace softsim
