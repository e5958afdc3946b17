#pragma once
// A Model is everything physical and nothing algorithmic: degrees of freedom, mass, energy terms,
// damping, boundary conditions and the bodies' meshes (for output and, later, collision).
#include <memory>
#include <string>
#include <vector>

#include "softsim/core/hessian_layout.hpp"
#include "softsim/mesh/mesh.hpp"
#include "softsim/mesh/surface.hpp"
#include "softsim/model/boundary_conditions.hpp"
#include "softsim/model/energy.hpp"
#include "softsim/model/velocity_force.hpp"

namespace softsim {

struct Body {
  std::string name;
  int first_vertex = 0;  // the body's vertices are [first_vertex, first_vertex + mesh rows)
  Mesh mesh;             // rest configuration, local vertex ids
  Surface surface;       // boundary (local ids)
  int elasticity_term = -1;  // index into Model::energies of the term with per-element density
};

class Model {
 public:
  explicit Model(int dim = 3) : dim_(dim) {}

  int dim() const { return dim_; }
  int num_vertices() const { return static_cast<int>(rest_positions.size()) / dim_; }
  int num_dofs() const { return static_cast<int>(rest_positions.size()); }

  // Appends a body's vertices; returns the global id of its first vertex.
  int add_vertices(const MatX& vertices);
  // Adds mass: lumped per vertex or consistent triplets (rows/cols are DOF indices).
  void add_lumped_mass(int vertex, double mass);
  void add_mass_triplet(int row, int col, double value);
  int add_energy(std::unique_ptr<Energy> term);
  // Forces without a potential (only the residual form of the implicit stages accepts them).
  int add_force(std::unique_ptr<VelocityForce> force);
  // Mass of each vertex (lumped, or the row sum of the consistent mass) from what was added so far.
  std::vector<double> vertex_masses() const;

  // Builds the Hessian layout and the mass matrix; call once after all terms are added.
  void finalize();
  bool finalized() const { return layout_.finalized(); }

  // weight * Hess P(x) p (unprojected): forward-mode JVPs where terms provide them, the term's
  // assembled Hessian times p otherwise. The assembled part is kept for the x it was built at
  // and reused by every product there (all Krylov iterations of one Newton iteration); any
  // call that may change a term (begin_step, set_stage_fraction, set_stage_velocity,
  // end_iteration, stiffening) drops it.
  void potential_hessian_times(const VecX& x, const VecX& p, double weight, VecX& out) const;
  // Every term's dense rank-one Hessian parts (weight applied), in world coordinates.
  void rank_one_hessian(const VecX& x, double weight, std::vector<RankOneHessian>& out) const;
  // How many times potential_hessian_times assembled the terms without a JVP (for tests).
  long hessian_product_assemblies() const { return product_hessian_.assemblies; }
  // The potential P(x): every energy term plus the work of the constant external forces
  // (gravity M g and nodal loads): P = sum_k E_k(x) - x . f_ext.
  double potential(const VecX& x, const AssemblyOutputs& out) const;
  // Prepares every term for the step from t to t + h that starts at x_start.
  void begin_step(const VecX& x_start, double t = 0.0, double h = 0.0);
  // The next solve is an integrator stage ending at t + c h (see Energy::set_stage_fraction).
  void set_stage_fraction(double c);
  // The next solve's velocity map v = scale (x - reference) (see Energy::set_stage_velocity).
  void set_stage_velocity(const VecX& reference, double scale);
  // True when a penalty term stiffened after a converged solve: solve the step again.
  bool stiffen_unmet_penalties(const VecX& x);
  void end_iteration(const VecX& x);
  // Largest step fraction allowed by every term's filter (e.g. inversion-free).
  double max_step_fraction(const VecX& x, const VecX& p) const;

  // Adds weight * M into a matrix with the layout's pattern; returns M * v.
  void add_mass_to(SparseMat& H, double weight) const;
  VecX mass_times(const VecX& v) const { return mass_ * v; }
  const SparseMat& mass_matrix() const { return mass_; }
  double total_mass() const;

  const HessianLayout& layout() const { return layout_; }
  const std::vector<std::unique_ptr<Energy>>& energies() const { return energies_; }
  const std::vector<std::unique_ptr<VelocityForce>>& forces() const { return forces_; }
  bool has_velocity_forces() const { return !forces_.empty(); }
  // Sum of the VelocityForce terms (see velocity_force.hpp): weight * f(q, v) into force, weight *
  // (df/dq + c df/dv) into jacobian triplets; and its matrix-free product with p.
  void add_velocity_forces(const VecX& q, const VecX& v, double c, double weight, VecX* force,
                           std::vector<Triplet>* jacobian) const;
  void velocity_forces_jacobian_times(const VecX& q, const VecX& v, double c, const VecX& p, double weight,
                                      VecX& out) const;

  // Constant external force (gravity and nodal loads), valid after finalize().
  const VecX& external_force() const { return external_force_; }

  VecX rest_positions;     // x at t = 0 (also the reference for prescribed motions)
  VecX initial_velocity;
  Vec3 gravity = Vec3::Zero();  // only the first dim components are used
  VecX nodal_forces;  // loads (N) per DOF, empty or num_dofs() long (Neumann data)
  double rayleigh_alpha = 0.0;  // D = alpha M + beta K (seed 000 eq. 2)
  double rayleigh_beta = 0.0;
  BoundaryConditions boundary;
  std::vector<Body> bodies;

 private:
  int dim_;
  std::vector<double> lumped_;
  std::vector<Triplet> mass_triplets_;
  std::vector<std::unique_ptr<Energy>> energies_;
  std::vector<std::unique_ptr<VelocityForce>> forces_;
  HessianLayout layout_;
  SparseMat mass_;
  VecX external_force_;
  std::vector<int> mass_to_layout_;  // value index of each mass non-zero inside the layout
  // The summed Hessian (weight 1, zeros pruned) of the terms without a JVP, at x.
  struct AssembledProductHessian {
    bool valid = false;
    VecX x;
    std::vector<int> terms;
    SparseMat H;
    long assemblies = 0;
  };
  mutable AssembledProductHessian product_hessian_;
};

}  // namespace softsim
