#pragma once
// The scene's friction settings as the friction terms use them: the coefficient (one for the
// scene, or one per pair of bodies and obstacles), the stick-slip velocity eps_v, the smoothing
// of the stick-slip transition and lagged friction's fixed-point passes per step.
#include <array>
#include <cmath>
#include <vector>

#include "softsim/contact/friction/smoothing.hpp"
#include "softsim/core/types.hpp"

namespace softsim {

struct FrictionOptions {
  double mu = 0.0;      // the scene's coefficient, for pairs the table does not name
  double eps_v = 1e-3;  // m/s
  FrictionSmoothing smoothing = FrictionSmoothing::c1;
  int iterations = 1;
  // Per body pair (contact.friction.pairs): the group of every vertex id the contact terms use
  // (bodies, then static mesh obstacles, then analytic obstacles) and a symmetric table of
  // coefficients between groups (NaN: use mu). Empty: mu everywhere.
  std::vector<int> vertex_group;
  MatX pair_mu;
  int obstacle_group = -1;  // analytic-obstacle terms: the obstacle's group
  // Penalty contact: the group of each analytic obstacle, in the order the penalty term lists them.
  std::vector<int> analytic_obstacle_groups;
  double mu_between_groups(int a, int b) const {
    if (pair_mu.size() == 0 || a < 0 || b < 0) return mu;
    const double m = pair_mu(a, b);
    return std::isnan(m) ? mu : m;
  }
  int group_of(int vertex) const {
    return vertex >= 0 && vertex < static_cast<int>(vertex_group.size()) ? vertex_group[vertex] : -1;
  }
  // The coefficient between the sides of a contact, given one vertex of each.
  double mu_between_vertices(int a, int b) const { return mu_between_groups(group_of(a), group_of(b)); }
  // The coefficient of a contact: between the bodies of its first and last vertex, or, for a
  // contact with analytic obstacle `obstacle` (>= 0; a moving one's pose is the stencil's second
  // vertex), between the first vertex's body and the obstacle.
  double mu_of_contact(int num_vertices, const std::array<int, 4>& ids, int obstacle) const {
    if (obstacle < 0) return mu_between_vertices(ids[0], ids[num_vertices - 1]);
    const int group =
        obstacle < static_cast<int>(analytic_obstacle_groups.size()) ? analytic_obstacle_groups[obstacle] : -1;
    return mu_between_groups(group_of(ids[0]), group);
  }
  // Anyone with friction at all (the terms are only added then).
  bool any() const { return mu > 0.0 || (pair_mu.size() > 0 && (pair_mu.array() > 0.0).any()); }
};

}  // namespace softsim
