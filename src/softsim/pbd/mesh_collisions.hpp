#pragma once
// Contact between and within bodies and with static mesh obstacles for the position-based
// integrators (3D): vertex-triangle constraints on the IPC term's collision mesh (Müller et al.
// 2007, §4.4, "Collisions"; Li & Jiang 2025, §33.2). At a substep's start the broad phase finds
// the vertex-face pairs whose boxes, swept from the substep's start to its prediction, come within
// the thickness and whose vertex is over the face at the start or crosses it on its predicted path,
// and each pair records which side of its face the vertex is on. Every sweep then
// pushes a vertex that lies over its face closer than the thickness, or on the other side, back to
// the thickness on its own side: C = s n . (p - a) - thickness >= 0, with the face's vertices
// moved by their barycentric weights. Edge pairs the same way (Bridson et al. 2002, §6.1): the side
// is the sign of (a1 - a0) x (b1 - b0) . (a0 - b0), which changes exactly when the edges' lines pass
// through each other, and C = s n . (a0 - b0) - thickness >= 0 with n the unit normal of both
// edges, projected where their closest points lie on both segments; the four vertices move by the
// closest points' weights. The side comes from the substep's start, so an element that passes
// through another within a substep is pulled back, not pushed through.
// Friction between bodies is positional, as against obstacles (Li & Jiang 2025, §33.2): after a
// pair's normal push, the relative tangential displacement of its closest points over the substep
// is cancelled when at most mu_s times the pair's accumulated push (it sticks), otherwise shortened
// by mu_k times it, shared among the pair's vertices by inverse mass and weight; as against
// obstacles, a pair that has pushed keeps its friction for the rest of the substep even if the
// sweeps then move it apart. Pairs are projected
// one after another in the broad phase's sorted order: deterministic for any thread count.
#include <array>
#include <vector>

#include "softsim/contact/geometry/collision_mesh.hpp"
#include "softsim/model/model.hpp"

namespace softsim {

class MeshCollisions {
 public:
  // The collision mesh of the model's IPC contact term, if it has one, with its thickness (the
  // term's thickness when set, else its dhat). Throws std::invalid_argument for a 2D model with
  // such a term.
  explicit MeshCollisions(const Model& model);
  bool empty() const { return mesh_ == nullptr; }
  double thickness() const { return thickness_; }

  // Finds the substep's pairs from its start x_start and its prediction x_predicted.
  void begin_substep(const VecX& x_start, const VecX& x_predicted);
  std::size_t pairs() const { return pairs_.size() + edge_pairs_.size(); }

  // Projects every pair once, with friction (mu_static, mu_kinetic) against the displacement
  // from x_start, the substep's start; returns how many were violated.
  int project(VecX& x, const VecX& x_start, const std::vector<double>& inverse_mass, double mu_static,
              double mu_kinetic);

 private:
  Vec3 position(const VecX& x, int global) const;
  // 0 for a static obstacle's vertex, else the vertex's inverse mass.
  double inverse_mass_of(int global, const std::vector<double>& inverse_mass) const;
  // Positional friction on one pair whose relative displacement over the substep is
  // sum_k weights[k] (x_k - x_start_k): see above.
  void apply_friction(VecX& x, const VecX& x_start, const std::vector<double>& inverse_mass, const int (&ids)[4],
                      const double (&weights)[4], const Vec3& normal, double pushed, Vec3& taken, double mu_static,
                      double mu_kinetic) const;
  const CollisionMesh* mesh_ = nullptr;
  double thickness_ = 0.0;
  struct Pair {
    int vertex;                // global id
    std::array<int, 3> face;   // global ids
    double side;               // +1 or -1: the side of the face the vertex started on
    double pushed = 0.0;       // the normal correction so far in this substep (m)
    Vec3 taken = Vec3::Zero(); // the relative tangential displacement friction has removed so far
  };
  std::vector<Pair> pairs_;
  struct EdgePair {
    std::array<int, 2> a, b;  // global ids
    double side;              // +1 or -1: the sign of (a1 - a0) x (b1 - b0) . (a0 - b0) at the start
    double pushed = 0.0;
    Vec3 taken = Vec3::Zero();
  };
  std::vector<EdgePair> edge_pairs_;
};

}  // namespace softsim
