#pragma once
// Constraint contact (contact.type "constraint"; Zeng & Courtecuisse 2023, Duriez et al. 2006):
// contact and exact Coulomb friction resolved with Lagrange multipliers. This object is the
// physics the Model holds: the collision surfaces, the analytic obstacles, the detection distance
// and the friction coefficients. It finds the contacts at given positions; the step that resolves
// them (free motion, compliance, projected Gauss-Seidel, recursive corrective motion) is
// integrate/constraint/.
// Detection reuses penalty contact's closest-feature search (penalty/surfaces.hpp): every
// surface vertex against the closed surfaces near it (other bodies, static mesh obstacles, its own
// body's opposite side) and every collision vertex against every analytic obstacle, keeping the
// pairs whose signed gap is below the detection distance. Signed gaps matter: the step detects
// at the free motion's positions, which may have passed through a surface.
#include <vector>

#include "softsim/contact/constraint/contact_constraint.hpp"
#include "softsim/contact/friction/friction_options.hpp"
#include "softsim/contact/penalty/surfaces.hpp"

namespace softsim {

class Model;

struct ConstraintContactOptions {
  double detection_distance = 1e-3;   // m: contacts with a signed gap below it
  std::vector<double> search_radius;  // m, per collision-mesh body (penalty/surfaces.hpp)
  BroadPhaseMethod broad_phase = BroadPhaseMethod::Auto;
  bool between_bodies = true;         // false: analytic obstacles only
  FrictionOptions friction;           // mu, per pair (vertex groups, analytic obstacle groups)
};

class ConstraintContact {
 public:
  // mesh: the bodies' surfaces and the static mesh obstacles (3D).
  ConstraintContact(const Model& model, CollisionMesh mesh, std::vector<AnalyticObstacle> obstacles,
                    ConstraintContactOptions options);
  ConstraintContact(const ConstraintContact&) = delete;
  ConstraintContact& operator=(const ConstraintContact&) = delete;

  // The contacts at DOF positions x, in a deterministic order. A contact whose vertices with DOFs
  // are all prescribed, or whose normal is undefined, is left out.
  std::vector<ContactConstraint> detect(const VecX& x) const;

  const CollisionMesh& collision_mesh() const { return mesh_; }
  const std::vector<AnalyticObstacle>& obstacles() const { return obstacles_; }
  const ConstraintContactOptions& options() const { return options_; }
  // The model's prescribed DOFs (per DOF; empty when none).
  const std::vector<char>& fixed_dofs() const;

 private:
  const Model& model_;
  CollisionMesh mesh_;
  PenaltySurfaces surfaces_;
  std::vector<AnalyticObstacle> obstacles_;
  ConstraintContactOptions options_;
};

}  // namespace softsim
