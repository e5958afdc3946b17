#pragma once
// Dirichlet conditions by eliminating degrees of freedom (Li & Jiang 2025, §5.2 and ch. 6): a constrained DOF
// follows a prescribed position; in the Newton system its gradient entry is zeroed and its row
// and column replaced by the identity. Slip conditions constrain a vertex to a plane or a line by
// a per-vertex change of variables x = Q y (Q orthonormal, constrained directions first), and
// eliminate the constrained local coordinates.
#include <functional>
#include <vector>

#include "softsim/core/types.hpp"

namespace softsim {

// A prescribed motion of a set of vertices: position(t) = rest + offset(t), or, for a rotating
// motion, center + R(t) (rest - center) + offset(t).
struct PrescribedMotion {
  std::vector<int> vertices;
  // Offset from the vertex's initial position at time t, a dim vector. Empty: no translation
  // (a fixed vertex, or a rotation about a fixed centre); a fixed vertex is then applied as a
  // copy, without a call or an allocation.
  std::function<VecX(double t)> offset;
  // A rigid rotation of the selection about `center` (rotating clamps, kinematic affine bodies):
  // R(t) is dim x dim. Empty for a translation.
  std::function<MatX(double t)> rotation;
  VecX center;
  std::string label;  // the scene's JSON path of the selection, e.g. "bodies[1].fixed[0]"
  // Set by BoundaryConditions::steer: keyframes (t, offset), linear between them and held after
  // the last, that replace `offset` from the first one's time on.
  std::vector<std::pair<double, VecX>> steering;
};

// A slip condition: each vertex may move only in the plane with the given normal (one constrained
// direction) or along the line with the given direction (dim - 1 constrained directions).
struct SlipCondition {
  std::vector<int> vertices;
  VecX direction;     // unit normal (plane) or unit direction (line)
  bool line = false;  // true: move along `direction`; false: stay in the plane normal to it
};

class BoundaryConditions {
 public:
  void set_dimensions(int num_vertices, int dim);
  void add_motion(PrescribedMotion motion);
  void add_slip(const SlipCondition& slip);

  // The prescribed motions in the order they were added.
  const std::vector<PrescribedMotion>& motions() const { return motions_; }
  // Motion `index`'s offset at time t, steering included.
  VecX offset(std::size_t index, double t) const;
  // Steers motion `index` (a translation) from time `from` on: its offset runs linearly from its value at `from`
  // to `target` at `to` (> from) and stays there, replacing what it prescribed after `from`. For
  // code that drives a run (a gripper moved from Python), between steps only: the Model does not
  // change during a step. Not kept in checkpoints (a resumed run follows the scene's motions).
  void steer(std::size_t index, double from, double to, const VecX& target);

  bool empty() const { return motions_.empty() && slip_vertices_.empty(); }
  bool has_slip() const { return !slip_vertices_.empty(); }
  // Per-DOF mask of DOFs prescribed by a motion (slip directions are handled separately).
  const std::vector<char>& fixed_dofs() const { return fixed_; }
  int num_fixed_dofs() const;

  // Writes the prescribed positions at time t into x (x0: initial positions).
  void apply_positions(VecX& x, const VecX& x0, double t) const;
  // Velocity of prescribed DOFs at time t by central difference of the motion (for outputs).
  void apply_velocities(VecX& v, const VecX& x0, double t) const;

  // Newton system transforms. reduce_gradient zeroes eliminated entries (after rotating slip
  // vertices into their local frames); reduce_hessian does the same to rows and columns of H
  // in place, pattern unchanged; expand_step rotates a solved step back to world coordinates.
  void reduce_gradient(VecX& g) const;
  void reduce_hessian(SparseMat& H) const;
  void expand_step(VecX& p) const;

 private:
  int num_vertices_ = 0;
  int dim_ = 0;
  std::vector<PrescribedMotion> motions_;
  std::vector<char> fixed_;          // per DOF, prescribed by a motion
  std::vector<char> slip_eliminated_;  // per DOF, constrained local coordinate of a slip vertex
  std::vector<int> slip_vertices_;
  std::vector<MatX> slip_frames_;    // per slip vertex: Q (dim x dim), columns = local axes
  std::vector<int> slip_index_;      // per vertex: index into slip_frames_ or -1
  // Per DOF: fixed or slip-eliminated (what the reductions zero); and whether any is.
  std::vector<char> eliminated_;
  bool any_eliminated_ = false;
  void refresh_eliminated();
};

}  // namespace softsim
