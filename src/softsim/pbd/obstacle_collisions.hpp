#pragma once
// Collisions of vertices with the model's analytic obstacles (planes, spheres, boxes, static or
// moving) as inequality constraints C = d(x) - margin >= 0, projected only when violated
// (Li & Jiang 2025, §33.2, "Particle-Environment Collisions"), followed by positional friction:
// the vertex's displacement over the substep relative to the obstacle, tangential part dp_t, is
// cancelled when |dp_t| <= mu_s * depth (sticking) and otherwise shortened by mu_k * depth. The
// depth is the normal correction accumulated over the substep's sweeps and the friction is
// re-applied to the whole substep's displacement at every sweep (what earlier sweeps removed is
// remembered), so that elastic sweeps after the contact cannot drag a sticking vertex along.
#include <vector>

#include "softsim/contact/geometry/analytic_obstacle.hpp"
#include "softsim/model/model.hpp"

namespace softsim {

class ObstacleCollisions {
 public:
  // The obstacles of the model's obstacle-barrier terms; their pose vertices take no part.
  explicit ObstacleCollisions(const Model& model);
  bool empty() const { return obstacles_.empty(); }
  const std::vector<AnalyticObstacle>& obstacles() const { return obstacles_; }
  // Projects every vertex with inverse mass > 0 out of every obstacle and applies friction
  // against x_prev (the substep's start); returns the number of vertices that were in contact.
  // Vertices are independent: parallel, deterministic.
  // pushed (per vertex and obstacle, vertex-major: i * obstacles().size() + k) and removed (dim
  // entries per such pair) hold the substep's normal corrections and the tangential displacement
  // friction took away so far, each against its own obstacle: zero them at each substep's start.
  int project(VecX& x, const VecX& x_prev, const std::vector<double>& inverse_mass, double margin, double mu_static,
              double mu_kinetic, std::vector<double>& pushed, VecX& removed) const;

 private:
  int dim_;
  std::vector<AnalyticObstacle> obstacles_;
  template <int D>
  int project_in(VecX& x, const VecX& x_prev, const std::vector<double>& inverse_mass, double margin, double mu_static,
                 double mu_kinetic, std::vector<double>& pushed, VecX& removed) const;
};

}  // namespace softsim
