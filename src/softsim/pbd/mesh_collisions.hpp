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
// Limits: there is no friction between bodies. Pairs are projected one
// after another in the broad phase's sorted order: deterministic for any thread count.
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

  // Projects every pair once; returns how many were violated.
  int project(VecX& x, const std::vector<double>& inverse_mass) const;

 private:
  Vec3 position(const VecX& x, int global) const;
  const CollisionMesh* mesh_ = nullptr;
  double thickness_ = 0.0;
  struct Pair {
    int vertex;                // global id
    std::array<int, 3> face;   // global ids
    double side;               // +1 or -1: the side of the face the vertex started on
  };
  std::vector<Pair> pairs_;
  struct EdgePair {
    std::array<int, 2> a, b;  // global ids
    double side;              // +1 or -1: the sign of (a1 - a0) x (b1 - b0) . (a0 - b0) at the start
  };
  std::vector<EdgePair> edge_pairs_;
};

}  // namespace softsim
