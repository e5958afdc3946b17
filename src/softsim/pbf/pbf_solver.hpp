#pragma once
// Position-based fluids (Macklin & Müller 2013): particles of equal mass, the density constraint
// C_i = rho_i / rho0 - 1 per particle solved by Jacobi iterations of PBD, with the relaxation eps of
// its eq. 11, the artificial pressure s_corr against tensile clumping (eq. 13), vorticity
// confinement (eq. 15-16) and XSPH viscosity (eq. 17). Choices (docs/pbf.md):
//  - the constraint is one-sided, C_i = max(rho_i / rho0 - 1, 0): particles at a free surface lack
//    neighbours and would otherwise be pulled together to make up their density;
//  - a particle's mass makes the rest lattice it was sampled on exactly rest_density under poly6;
//  - XSPH and vorticity are weighted by volumes (XSPH by the pair's 2 m / (rho_i + rho_j), so that
//    it conserves momentum; vorticity by m / rho_j), so their coefficients are dimensionless;
//  - the domain is a box whose walls clamp positions (half a spacing inside) and add the density
//    of rest fluid beyond them (lattice rows averaged along the wall), so that particles next to a
//    wall are not under-dense; optional analytic obstacles (spheres, boxes, planes; static or
//    translating) only push particles out.
// Every pass gathers over a particle's neighbours and writes only its own values, so a step is the
// same bit for bit for any thread count.
#include <string>
#include <vector>

#include "softsim/core/moving_shape.hpp"
#include "softsim/core/types.hpp"
#include "softsim/pbf/neighbour_grid.hpp"
#include "softsim/pbf/sph_kernels.hpp"

namespace softsim {

class ArchiveWriter;
class ArchiveReader;

// A rigid obstacle the fluid cannot enter: particles found inside are moved to its surface.
template <int D>
using PbfObstacle = MovingShape<D>;

template <int D>
struct PbfOptions {
  double rest_density = 1000.0;  // kg / m^D
  double spacing = 0.02;         // of the lattice the particles were sampled on (m)
  double kernel_radius = 0.0;    // h; 0: 2 spacings
  int substeps = 2;              // per step, each with its own neighbour search
  int iterations = 4;            // Jacobi sweeps of the density constraints per substep
  // eps of Macklin & Müller eq. 11, relative to sum_k |grad_k C_i|^2 of a particle in the rest lattice.
  double relaxation = 0.01;
  // s_corr = -k (W(r) / W(dq))^n with |dq| = tensile_distance h (Macklin & Müller eq. 13; the book's k = 0.1, n = 4, 0.3 h).
  double tensile_k = 0.02;
  int tensile_n = 4;
  double tensile_distance = 0.3;
  double xsph = 0.01;       // c of XSPH viscosity
  // C_i = max(rho_i / rho0 - 1, 0): only compression is resisted (false: Macklin & Müller's
  // equality, under which a free surface pulls together until s_corr holds it).
  bool unilateral = true;
  double vorticity = 0.0;   // eps of vorticity confinement: the acceleration eps N x omega (eps in m/s)
  VecD<D> gravity = VecD<D>::Zero();
  VecD<D> domain_lo = VecD<D>::Zero(), domain_hi = VecD<D>::Ones();
  std::vector<PbfObstacle<D>> obstacles;
};

struct PbfStepTiming {
  double neighbours_ms = 0.0, density_ms = 0.0, velocity_ms = 0.0;
};

template <int D>
class PbfSolver {
 public:
  // Throws std::invalid_argument on bad options (non-positive density, spacing, kernel radius
  // smaller than a spacing, no iterations or substeps, an empty domain) or a particle that is
  // not finite or outside the domain.
  PbfSolver(PbfOptions<D> options, std::vector<VecD<D>> positions, std::vector<VecD<D>> velocities);

  void step(double dt);
  double time() const { return time_; }

  const std::vector<VecD<D>>& positions() const { return x_; }
  const std::vector<VecD<D>>& velocities() const { return v_; }
  std::size_t size() const { return x_.size(); }
  double particle_mass() const { return mass_; }
  double kernel_radius() const { return kernels_.h; }
  const PbfOptions<D>& options() const { return options_; }
  const PbfStepTiming& timing() const { return timing_; }

  // SPH densities at the current positions (poly6, the particle itself included).
  std::vector<double> densities() const;
  // The compression the constraint removes, max(rho_i / rho0 - 1, 0): its mean and maximum over
  // the particles, at the current positions.
  struct DensityError {
    double mean = 0.0, max = 0.0;
  };
  DensityError density_error() const;
  // The density the tank's walls add at p (rest fluid beyond them, see docs/pbf.md) and its gradient.
  double wall_density(const VecD<D>& p, VecD<D>& gradient) const;
  // Why the state cannot be stepped (a particle not finite), or empty.
  std::string first_problem() const;

  VecD<D> linear_momentum() const;
  Vec3 angular_momentum() const;  // about the origin; 2D: the z component in [2]
  double kinetic_energy() const;

  // Positions, velocities and time bit for bit, for checkpoints; load() throws ArchiveError on a
  // state of another dimension or particle count, leaving the solver as it was.
  void save(ArchiveWriter& out) const;
  void load(ArchiveReader& in);

 private:
  double row_density(double z, double* slope) const;
  // Particle i's SPH density at positions p with their neighbours in grid, the walls' share included.
  double density_at(const std::vector<VecD<D>>& p, const NeighbourGrid<D>& grid, std::size_t i) const;
  void enforce_boundaries(std::vector<VecD<D>>& p, double t) const;
  void solve_density(double dt);
  void update_velocities(double dt);

  PbfOptions<D> options_;
  SphKernels<D> kernels_;
  NeighbourGrid<D> grid_;
  double mass_ = 0.0;
  double relaxation_ = 0.0;  // eps in the constraint's units
  double tensile_reference_ = 0.0;  // W_poly6(dq)
  double tensile_scale_ = 0.0;      // k in the multipliers' units
  double wall_row_scale_ = 0.0;     // mass per unit wall length (2D) or area (3D) of a lattice row
  std::vector<VecD<D>> x_, v_;
  // Step scratch, kept between steps so that a step allocates nothing once the sizes settle.
  std::vector<VecD<D>> predicted_, correction_, vorticity_grad_, wall_gradient_;
  std::vector<double> density_, lambda_;
  std::vector<Eigen::Matrix<double, D == 2 ? 1 : 3, 1>> omega_;
  double time_ = 0.0;
  PbfStepTiming timing_;
};

}  // namespace softsim
