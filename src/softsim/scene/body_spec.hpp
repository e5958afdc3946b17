#pragma once
// The scene's bodies as parsed (docs/scene-format.md, "bodies"): mesh or generator, transform,
// material, initial motion, and the body's boundary conditions and volume penalties. Typed and
// with every default filled in; built into the model by build_body.cpp, build_boundary.cpp and
// build_volume_penalty.cpp.
#include <cmath>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "softsim/core/enum_names.hpp"
#include "softsim/core/types.hpp"
#include "softsim/meshing/tetrahedralize.hpp"
#include "softsim/subspace/reduced_basis.hpp"
#include "softsim/volume/volume_law.hpp"

namespace softsim {

// How a body is discretised: FEM simplices (tetrahedra, or plane-strain triangles in 2D),
// mass-spring edges, a triangle shell (membrane + hinge bending), or an affine body: the simplex
// mesh of a solid whose positions follow x = A xbar + t (Lan et al. 2022; docs/subspace-bodies.md).
enum class BodyKind { solid, mass_spring, shell, affine };
template <>
struct EnumNames<BodyKind> {
  static constexpr std::pair<BodyKind, const char*> table[] = {{BodyKind::solid, "solid"},
                                                               {BodyKind::mass_spring, "mass_spring"},
                                                               {BodyKind::shell, "shell"},
                                                               {BodyKind::affine, "affine"}};
};
// Bodies of these kinds are tetrahedra (3D) or triangles (2D) with an elasticity term.
inline bool is_simplex_solid(BodyKind kind) { return kind == BodyKind::solid || kind == BodyKind::affine; }

// An affine body's options (bodies[i].affine).
struct AffineSpec {
  // Rigid: no elasticity; the orthogonality potential keeps A a rotation to `tolerance`.
  bool rigid = false;
  // kappa of the orthogonality potential kappa V ||A A^T - I||^2 (Pa); 0: none (the book's
  // demo keeps only the material's elasticity). Rigid bodies: 1e8 unless given.
  double stiffness = 0.0;
  double tolerance = 1e-6;  // rigid: largest ||A A^T - I||_F after a solve
};

// A reduced deformable body (bodies[i].reduction): x = x0 + U q with U made at load time (the
// lowest modes, or modes mixed with modal derivatives) or read from a file written by
// `softsim reduce` (docs/subspace-bodies.md).
struct ReductionSpec {
  ReducedBasisKind basis = ReducedBasisKind::modes;  // made at load time: modes or modes+derivatives
  int size = 20;                                     // r, the number of coordinates
  std::optional<std::filesystem::path> file;         // a basis file instead (relative to the scene)
  // Cubature (reduction.cubature, solids only): at most `cubature_elements` elements with weights
  // fitted on `cubature_poses` training poses (0: 4 r) to `cubature_tolerance`; 0 elements: none.
  int cubature_elements = 0;
  double cubature_tolerance = 0.01;
  int cubature_poses = 0;
  std::string path;                                  // JSON path
};

enum class GeneratorType { box, hollow_box, rectangle, spring_grid, sheet, sphere, hollow_sphere, bowl };
template <>
struct EnumNames<GeneratorType> {
  using T = GeneratorType;
  static constexpr std::pair<T, const char*> table[] = {
      {T::box, "box"},     {T::hollow_box, "hollow_box"}, {T::rectangle, "rectangle"},         {T::spring_grid, "spring_grid"},
      {T::sheet, "sheet"}, {T::sphere, "sphere"},         {T::hollow_sphere, "hollow_sphere"}, {T::bowl, "bowl"}};
};
// The generators of round shapes (mesh/round_generators.hpp), read by round_generator_spec.hpp.
inline bool is_round(GeneratorType t) {
  return t == GeneratorType::sphere || t == GeneratorType::hollow_sphere || t == GeneratorType::bowl;
}

// How a body's mass is spread over its vertices: lumped per element (rho V / (D+1) to each
// corner), the consistent element mass matrix, or the body's total mass split evenly over its
// vertices (what the companion code of Li & Jiang 2025 does for its squares, Implementation 4.5.1).
enum class MassDistribution { lumped, consistent, uniform };
template <>
struct EnumNames<MassDistribution> {
  static constexpr std::pair<MassDistribution, const char*> table[] = {{MassDistribution::lumped, "lumped"},
                                                                       {MassDistribution::consistent, "consistent"},
                                                                       {MassDistribution::uniform, "uniform"}};
};

// A shell's bending energy: the dihedral hinge energy (Grinspun et al. 2003; any rest shape) or
// the quadratic isometric one (Bergou et al. 2006; a flat rest shape, constant Hessian).
enum class BendingModel { hinge, isometric };
template <>
struct EnumNames<BendingModel> {
  static constexpr std::pair<BendingModel, const char*> table[] = {{BendingModel::hinge, "hinge"},
                                                                   {BendingModel::isometric, "isometric"}};
};

struct MaterialSpec {
  std::string model = "neo_hookean";  // a name of material_model_names()
  double youngs_modulus = 1e5;  // Pa
  double poisson_ratio = 0.3;
  double density = 1000.0;      // kg/m^3 (kg/m^2 for 2D bodies per unit thickness)
  double spring_stiffness = 1e3;  // mass_spring bodies: k of Li & Jiang 2025, eq. 4.3.1
  double thickness = 1e-3;        // shell bodies (m)
  std::optional<double> bending_stiffness;  // shell bodies (J); default E h^3 / (12 (1 - nu^2))
  BendingModel bending = BendingModel::hinge;  // shell bodies
  MassDistribution mass = MassDistribution::lumped;
};

struct GeneratorSpec {
  GeneratorType type = GeneratorType::box;
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

// A prescribed motion: constant velocity or keyframes, followed exactly (eliminated DOFs) or
// driven by a penalty (Li & Jiang 2025, §11.1). Shared by body vertices (fixed[j]) and by the
// pose of moving analytic obstacles (obstacles[k]).
struct MotionSpec {
  Vec3 velocity = Vec3::Zero();  // m/s, constant-velocity motion
  std::vector<std::pair<double, Vec3>> path;  // keyframes (t, offset), piecewise linear
  bool penalty = false;    // moved by penalty instead of DOF elimination
  double limit = HUGE_VAL;  // m: penalty targets stop after travelling this far
  double kappa = 1e3;      // 1/s^2: initial penalty stiffness (companion code of Li & Jiang 2025)
  bool hold_when_met = false;  // penalty: hold a vertex that met its target for the rest of the solve
  bool limit_by_position = false;  // penalty: `limit` on each vertex's own travel, not on time
  // penalty: acts in the steps that start at a time t with from <= t < until (s); free outside.
  double from = 0.0, until = HUGE_VAL;
};

// Prescribed motion of selected vertices: the motion's translation, optionally composed with a
// rotation at a constant angular velocity about a centre (a rotating clamp, a kinematic affine
// body): x(t) = c + R(omega t) (x0 - c) + offset(t).
struct FixedSpec : MotionSpec {
  SelectionSpec selection;
  Vec3 angular_velocity = Vec3::Zero();  // rad/s (2D: about z, in .z())
  std::optional<Vec3> rotation_center;   // m, world; absent: the mean of the selected vertices at t = 0
  // penalty: let go for good at the start of the first step at which every vertex of the body lies
  // beyond `above` (m) along `axis` (0, 1, 2).
  struct Release {
    int axis = 0;
    double above = 0.0;
  };
  std::optional<Release> release;
  bool rotates() const { return angular_velocity != Vec3::Zero(); }
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
  // Acts during the steps that start at a time t with from <= t < until (s); the whole run by default.
  double from = 0.0, until = HUGE_VAL;
  bool timed() const { return from > 0.0 || until < HUGE_VAL; }
};
struct TractionSpec {
  SelectionSpec selection;  // box only
  Vec3 traction = Vec3::Zero();
};

// Which volume a volume penalty keeps (build_volume_penalty.hpp).
enum class VolumeRegion { enclosed, cavity, tets };
template <>
struct EnumNames<VolumeRegion> {
  static constexpr std::pair<VolumeRegion, const char*> table[] = {
      {VolumeRegion::enclosed, "enclosed"}, {VolumeRegion::cavity, "cavity"}, {VolumeRegion::tets, "tets"}};
};

// Volume-change penalty on a body (Larionov et al. 2022, sec. 3.4).
struct VolumePenaltySpec {
  VolumeModel model = VolumeModel::Quadratic;
  double kappa_v = 1.0;             // atm^-1: quadratic, nearly incompressible
  double pressure = 1.0;            // atm, absolute, at the rest volume: ideal gas
  VolumeRegion region = VolumeRegion::enclosed;
  std::optional<std::pair<Vec3, Vec3>> box;  // region "tets": the tets whose centroid is inside
  bool exact_direct_jacobian = true;  // "direct_jacobian": "exact" (rank-one by SMW) or "sparse"
  std::string path;                 // JSON path
};

struct BodySpec {
  std::string name;
  BodyKind kind = BodyKind::solid;
  AffineSpec affine;  // kind "affine"
  std::optional<ReductionSpec> reduction;
  std::optional<std::filesystem::path> mesh;
  // A solid whose mesh is a closed triangle surface: the tets are made from it at load time.
  std::optional<TetrahedralizeOptions> tetrahedralize;
  std::optional<GeneratorSpec> generator;
  // Uniform refinement rounds applied to the mesh as loaded or generated (mesh/refine.hpp): each
  // splits a triangle into 4 and a tet into 8. PolyFEM's `n_refs`.
  int refine = 0;
  TransformSpec transform;
  MaterialSpec material;
  Vec3 initial_velocity = Vec3::Zero();
  // Initial spin (rad/s) about the body's centre of mass: 3D a vector, 2D about z.
  Vec3 initial_angular_velocity = Vec3::Zero();
  // Initial stretch: positions at t = 0 are scaled by this factor about the centre of the body's
  // bounding box; the rest shape (and the vertex selections) are those of the unscaled mesh.
  Vec3 initial_scale = Vec3::Ones();  // per axis (a number in the scene scales every axis)
  // Start at rest in the equilibrium of the body's own forces (initial_equilibrium.hpp).
  bool initial_equilibrium = false;
  // Contact area per vertex (m^(dim-1)) for the obstacle barriers and the book_squared barrier's
  // weights; absent: the mean edge length to the power dim - 1.
  std::optional<double> contact_area;
  // false: the broad phase reports no contact pair within this body (only with the others).
  bool self_contact = true;
  std::vector<FixedSpec> fixed;
  std::vector<SlipSpec> slip;
  std::vector<LoadSpec> loads;
  std::vector<TractionSpec> tractions;
  std::vector<VolumePenaltySpec> volume_penalties;
  std::string path;  // JSON path
};

}  // namespace softsim
