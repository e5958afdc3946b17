#pragma once
// Positions as a linear map of fewer coordinates, x = offset + B y (Li & Jiang 2025, the chapters
// on affine bodies and model reduction): an affine body's vertices follow x_i = A (xbar_i - c) + t
// (12 coordinates in 3D, 6 in 2D; Lan et al. 2022), every other vertex keeps its own dim
// coordinates (B is the identity there). The Model holds the map (it is physics, constant during
// a run); the implicit stages solve for y (integrate/subspace_objective.hpp) while the state,
// the energy terms, contact and outputs stay in positions.
#include <vector>

#include "softsim/core/types.hpp"

namespace softsim {

struct SubspaceMap {
  SparseMat basis;         // B: num_dofs x num_coordinates
  SparseMat basis_t;       // B^T
  SparseMat left_inverse;  // L with L B = I: y = L (x - offset) for x in the range of the map
  VecX offset;             // num_dofs (zero for affine bodies)
  int dim = 0;             // of the positions
  // The first coordinate (t, then the columns of A) of each affine body held near a rotation by a
  // stiff orthogonality potential: line searches turn these bodies along rotations instead of
  // moving A along a straight line off the rotations (SubspaceObjective::trial_point).
  std::vector<int> turning_frames;

  // No map: the coordinates are the positions.
  bool empty() const { return basis.rows() == 0; }
  int num_coordinates() const { return static_cast<int>(basis.cols()); }

  VecX positions(const VecX& y) const { return offset + basis * y; }
  VecX coordinates(const VecX& x) const { return left_inverse * (x - offset); }
  // A displacement or velocity of the coordinates in positions (B p), and back (L u).
  VecX to_positions(const VecX& p) const { return basis * p; }
  VecX to_coordinates(const VecX& u) const { return left_inverse * u; }
  // B^T g: a gradient or force in positions as one in coordinates.
  VecX pull_back(const VecX& g) const { return basis_t * g; }
  // B^T H B (one-off; SubspacePullBack keeps the pattern for repeated products).
  SparseMat pull_back(const SparseMat& H) const;
  // The largest distance of x from the range of the map, max |x - positions(coordinates(x))|.
  double distance_from_range(const VecX& x) const;
  // The first coordinate of the group or vertex that vertex v's first DOF follows.
  int first_coordinate_of_vertex(int v) const;
};

struct State;
// Writes a state's positions and velocities from its coordinates when a step in coordinates left
// them behind (State::defer_positions): x = offset + B y, v = B y_dot. Does nothing when they
// are current.
void update_positions(const SubspaceMap& map, State& state);
// A step in coordinates starts from the state's coordinates: its own y and y_dot when it defers
// its positions and holds them, else taken from x and v (which may have been changed since).
void start_coordinates(const SubspaceMap& map, const State& state, VecX& y, VecX& y_dot);
// ... and ends by making (y, y_dot) the state's (swapped in, so storage is reused) at time t; x
// and v are written from them unless the state defers its positions.
void finish_coordinates(const SubspaceMap& map, State& state, VecX& y, VecX& y_dot, double t);

// Assembles a map from groups of vertices, each following its own coordinates: either per-vertex
// weights over "handles" (vertex i's position is sum_k w_ik c_k with c_k a dim-vector of
// coordinates; an affine body's handles are t and the columns of A, with weights 1 and the
// components of xbar_i - c), or a basis of displacements about an offset (a reduced body,
// x = x0 + U q). Vertices that no group claims keep their own coordinates.
class SubspaceMapBuilder {
 public:
  SubspaceMapBuilder(int num_vertices, int dim) : num_vertices_(num_vertices), dim_(dim), group_of_(num_vertices, -1) {}
  // A group of vertices (global ids) whose positions are weights (rows: vertices, columns:
  // handles) times the handles. The weights must have full column rank.
  void add_group(const std::vector<int>& vertices, const MatX& weights);
  // A group of vertices whose DOFs (vertex-major, vertices.size() * dim rows) are offset + basis q.
  // The basis must have full column rank.
  void add_basis_group(const std::vector<int>& vertices, const MatX& basis, const VecX& offset);
  // Coordinates are ordered by vertex: a vertex of no group brings its dim coordinates, the first
  // vertex of a group brings the group's coordinates.
  SubspaceMap build() const;

 private:
  int num_vertices_, dim_;
  std::vector<int> group_of_;
  std::vector<std::vector<int>> vertices_;
  std::vector<MatX> bases_;   // per group: vertices.size() * dim x its coordinates
  std::vector<VecX> offsets_;
};

}  // namespace softsim
