#pragma once
// The scene's obstacles and contact as parsed (docs/scene-format.md, "obstacles" and
// "contact"): typed and with every default filled in; built into the model by build_contact.cpp.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "softsim/contact/barrier/barrier.hpp"
#include "softsim/contact/broad_phase/candidates.hpp"
#include "softsim/contact/friction/smoothing.hpp"
#include "softsim/core/enum_names.hpp"
#include "softsim/integrate/constraint/constraint_options.hpp"
#include "softsim/scene/body_spec.hpp"

namespace softsim {

enum class ObstacleType { plane, sphere, box, mesh };
template <>
struct EnumNames<ObstacleType> {
  static constexpr std::pair<ObstacleType, const char*> table[] = {
      {ObstacleType::plane, "plane"}, {ObstacleType::sphere, "sphere"}, {ObstacleType::box, "box"}, {ObstacleType::mesh, "mesh"}};
};

struct ObstacleSpec {
  std::string name;            // default "obstacle<k>" (contact.friction.pairs refer to it)
  ObstacleType type = ObstacleType::plane;
  Vec3 point = Vec3::Zero();   // plane: a point on it; sphere, box: the centre
  Vec3 normal = Vec3::UnitY();
  double radius = 0.5;         // sphere (m)
  Vec3 size = Vec3::Ones();    // box: full extent along each axis (m)
  std::filesystem::path mesh;  // mesh: a triangle (3D) or edge (2D) surface, static
  TransformSpec transform;     // mesh: applied as for bodies
  std::optional<Vec3> velocity;  // mesh: kinematic motion (m/s), driven by penalty; static if absent
  double limit = HUGE_VAL;       // mesh: distance (m) after which a kinematic mesh stops
  // Analytic obstacles: the motion of the pose (the plane's point, the centre), absent if static.
  // The pose is one vertex of the model (mass `mass`, gravity only if `gravity`), so a
  // penalty-driven obstacle is the moving-plane DOF of Li & Jiang 2025, §11.2.
  std::optional<MotionSpec> motion;
  double mass = 1.0;     // kg
  bool gravity = false;
  std::string path;            // JSON path

  bool is_analytic() const { return type != ObstacleType::mesh; }
  bool is_moving_mesh() const { return type == ObstacleType::mesh && velocity.has_value(); }
  bool is_static_mesh() const { return type == ObstacleType::mesh && !velocity; }
  bool is_moving_analytic() const { return is_analytic() && motion.has_value(); }
};

// The contact model: IPC barrier and CCD (Li et al. 2020), the cubic penalty on signed gaps
// (Larionov et al. 2022, sec. 3.2), or Lagrange multipliers with exact Coulomb friction resolved
// by projected Gauss-Seidel and the recursive corrective motion (Zeng & Courtecuisse 2023).
enum class ContactType { barrier, penalty, constraint };
template <>
struct EnumNames<ContactType> {
  static constexpr std::pair<ContactType, const char*> table[] = {
      {ContactType::barrier, "barrier"}, {ContactType::penalty, "penalty"}, {ContactType::constraint, "constraint"}};
};

// Friction lagged (a potential of contacts frozen at the step start, IPC) or fully implicit (a
// force without a potential, Larionov et al. 2022).
enum class FrictionMode { lagged, implicit };
template <>
struct EnumNames<FrictionMode> {
  static constexpr std::pair<FrictionMode, const char*> table[] = {{FrictionMode::lagged, "lagged"},
                                                                   {FrictionMode::implicit, "implicit"}};
};

struct ContactSpec {
  bool enabled = true;         // contact between and within bodies
  ContactType type = ContactType::barrier;
  std::optional<double> dhat;  // barrier: default 1e-3 of the scene's bounding-box diagonal
  std::optional<double> kappa;  // default: automatic for IPC and penalty, 1e5 (Li & Jiang 2025, §8.3) for obstacles
  BarrierForm barrier = BarrierForm::ipc_squared;
  BroadPhaseMethod broad_phase = BroadPhaseMethod::Auto;
  double thickness = 0.0;  // m: minimum separation kept between surfaces (shells)
  std::optional<double> delta;          // penalty: thickness tolerance (m); default as dhat
  std::optional<double> search_radius;  // penalty, constraint: m; default per body (docs/scene-format.md)
  std::optional<double> detection_distance;  // constraint: m; default 1e-2 of the bounding-box diagonal
  ConstraintSolveOptions constraint;         // constraint: contact.constraint
  struct Friction {
    double mu = 0.0;
    double eps_v = 1e-3;  // m/s (stick-slip velocity threshold)
    FrictionMode mode = FrictionMode::lagged;
    int iterations = 1;   // lagged fixed-point updates per step
    FrictionSmoothing smoothing = FrictionSmoothing::c1;
    // Coefficients per pair of bodies / obstacles (by name); other pairs use mu.
    struct Pair {
      std::string a, b;
      double mu = 0.0;
      std::string path;  // JSON path, for messages
    };
    std::vector<Pair> pairs;
    bool any() const;  // some pair has mu > 0
  } friction;
};

}  // namespace softsim
