#pragma once
// A position-based fluid scene (docs/pbf.md, "Scene files"): a scene file with a "pbf" section
// instead of "bodies". Its fluids are blocks and balls of particles on a regular lattice in a box
// tank, stepped by PbfSolver (pbf/pbf_solver.hpp); it shares the scene file's dim, gravity, time
// and output.
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "softsim/core/moving_shape.hpp"
#include "softsim/core/types.hpp"
#include "softsim/pbf/pbf_solver.hpp"

namespace softsim {

// The most particles a scene may ask for, neighbour-list entries (4 bytes each) they may make at
// rest, and cells of the neighbour grid over the tank (8 bytes each, twice): about 8 GB in all.
inline constexpr double kPbfMaxParticles = 2e7;
inline constexpr double kPbfMaxNeighbours = 1e9;
inline constexpr double kPbfMaxGridCells = 1e8;

struct PbfScene {
  std::filesystem::path file;
  int dim = 2;
  double dt = 1.0 / 200;
  int steps = 200;
  int output_every = 1;
  int checkpoint_every = 0;
  std::uint64_t fingerprint = 0;
  Vec3 gravity = Vec3(0, -9.81, 0);

  // The solver's options in 3D coordinates (the first dim are used): the tank, the lattice
  // spacing and everything PbfOptions holds.
  PbfOptions<3> options;

  struct Fluid {
    std::string name;
    std::string path;  // "pbf.fluids[i]", for messages
    enum class Shape { box, sphere } shape = Shape::box;
    Vec3 lo = Vec3::Zero(), hi = Vec3::Ones();  // the box; for a sphere, its bounding box
    Vec3 center = Vec3::Zero();
    double radius = 0.0;
    Vec3 velocity = Vec3::Zero();
  };
  std::vector<Fluid> fluids;

  std::string source() const { return file.empty() ? "(PBF scene)" : file.string(); }
};

// True when the scene's JSON is a position-based fluid scene (it has a "pbf" section).
bool is_pbf_scene(const nlohmann::json& json);
// Reads and validates one; throws InputError naming the file and the key.
PbfScene parse_pbf_scene(const nlohmann::json& json, const std::filesystem::path& file);

// The particles of every fluid (in fluid order) and the solver. Throws InputError naming the file
// for options the solver refuses.
template <int D>
PbfSolver<D> build_pbf_solver(const PbfScene& scene);

}  // namespace softsim
