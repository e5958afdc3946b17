#pragma once
// The material point method's explicit step (Li & Jiang 2025, ch. 27-31; Jiang et al. 2016):
// particles to grid (mass, momentum, and the stress's force dt f_i = -dt sum_p V0 P F^T grad w),
// the grid update (velocities, gravity, walls and colliders), and grid to particles (PIC, FLIP
// blend or APIC velocities, F <- (I + dt grad v) F, the plastic return mapping, x += dt v).
//
// Determinism: P2G scatters from blocks of 4^D grid nodes coloured by the parity of their block
// coordinates; blocks of one colour touch disjoint nodes (a particle's stencil reaches at most 3
// nodes past its block), so they run in parallel without atomics, and each node sums its
// contributions in one fixed order whatever the thread count. G2P and the grid update are per
// particle and per node.
#include <array>
#include <string>
#include <vector>

#include "softsim/core/moving_shape.hpp"
#include "softsim/mpm/bspline_kernel.hpp"
#include "softsim/mpm/mpm_material.hpp"
#include "softsim/mpm/mpm_particles.hpp"

namespace softsim {

class ArchiveWriter;
class ArchiveReader;

enum class MpmTransfer { pic, flip, apic };

// Boundary conditions on grid velocities (Li & Jiang 2025, ch. 28), n the normal pointing out
// of the obstacle (into the material): sticky v = v_obstacle; slip removes the normal part;
// separate removes it only when approaching; friction is separate plus the book's tangential
// damping, v_t <- (1 - mu) v_t, on approaching nodes.
enum class MpmBoundary { sticky, slip, separate, friction };

template <int D>
struct MpmCollider : MovingShape<D> {
  MpmBoundary boundary = MpmBoundary::separate;
  double friction = 0.0;  // mu in [0, 1] for MpmBoundary::friction
};

template <int D>
struct MpmOptions {
  VecD<D> origin = VecD<D>::Zero();
  double dx = 1.0 / 128;
  std::array<int, D> cells{};  // grid cells per axis; nodes are cells + 1
  MpmKernel kernel = MpmKernel::quadratic;
  MpmTransfer transfer = MpmTransfer::apic;
  double flip_ratio = 0.99;  // FLIP: the share of the FLIP update in the blend
  VecD<D> gravity = VecD<D>::Zero();
  // Grid velocities decay as exp(-damping t) (1/s): drag against a fixed frame, which leaves
  // static equilibria where they are and lets a quasi-static load settle (0: none).
  double damping = 0.0;
  // Grid nodes closer than wall_nodes to a side of the domain get `walls` (0: no walls; then a
  // particle must not come within the kernel's reach of the domain's edge).
  int wall_nodes = 3;
  MpmBoundary walls = MpmBoundary::sticky;
  double wall_friction = 0.0;  // mu for walls = MpmBoundary::friction
  std::vector<MpmCollider<D>> colliders;
  std::vector<MpmMaterial> materials{MpmMaterial{}};
};

struct MpmStepTiming {
  double p2g_ms = 0.0, grid_ms = 0.0, g2p_ms = 0.0;
};

template <int D>
class MpmSolver {
 public:
  // Sets each particle's mass from its rest volume and its material's density. Throws
  // std::invalid_argument on a bad grid, arrays of different lengths, a material index out of
  // range or a particle outside the grid's interior.
  MpmSolver(MpmOptions<D> options, MpmParticles<D> particles);

  // One explicit step of dt. Before touching anything it checks every particle (finite, inside
  // the grid's interior: its stencil within the grid; a material that exists) and throws
  // std::runtime_error naming the first that is not, with the state unchanged: a particle that
  // the previous step carried out stops the next one.
  void step(double dt);
  // Why the first particle that cannot be transferred cannot (the message step() throws), or
  // empty: for checking the state a last step left.
  std::string first_problem() const;
  // The CFL limit cfl * dx / max_p (|v_p| + c_p), c_p the particle material's wave speed
  // (for snow, stiffened by its hardening).
  double stable_time_step(double cfl = 0.5) const;
  double time() const { return time_; }

  const MpmParticles<D>& particles() const { return particles_; }
  MpmParticles<D>& particles() { return particles_; }
  const MpmOptions<D>& options() const { return options_; }
  const MpmStepTiming& timing() const { return timing_; }  // of the last step

  // The time and every particle's state, bit for bit, for checkpoints. load() reads what save()
  // wrote for the same particles (the same count and materials) and throws ArchiveError
  // (core/binary_archive.hpp) on anything else, leaving the solver as it was.
  void save(ArchiveWriter& out) const;
  void load(ArchiveReader& in);

  // Totals over the particles, the APIC affine motion included (Jiang et al. 2015, §5.3: each
  // particle's mass spread with inertia D = s I adds m s (C_ji - C_ij) to the angular momentum
  // and m s |C|_F^2 / 2 to the kinetic energy). Angular momentum about the origin: in 2D its
  // z component in [2], in 3D all three.
  VecD<D> linear_momentum() const;
  Vec3 angular_momentum() const;
  double kinetic_energy() const;

 private:
  long node_index(const std::array<int, D>& node) const;
  VecD<D> node_position(const std::array<int, D>& node) const;
  // Empty when particle p may be transferred, else why not.
  std::string particle_problem(std::size_t p) const;
  void particles_to_grid(double dt);
  void update_grid(double dt);
  void grid_to_particles(double dt);
  double affine_scale() const;  // s of the APIC inertia D = s I (0 unless APIC)

  MpmOptions<D> options_;
  MpmParticles<D> particles_;
  std::array<int, D> nodes_{};  // per axis
  std::vector<double> grid_mass_;
  // Momentum, then (after the grid update) velocity; the velocity the transfer alone gives
  // (FLIP's increment is measured from it); the stress impulse dt f_i.
  std::vector<VecD<D>> grid_velocity_, grid_velocity_before_, grid_impulse_;
  std::vector<int> order_, block_start_;  // particles sorted by block, and each block's range
  std::array<int, D> blocks_{};
  double time_ = 0.0;
  MpmStepTiming timing_;
};

}  // namespace softsim
