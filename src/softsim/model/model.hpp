#pragma once
// A Model is everything physical and nothing algorithmic: degrees of freedom, mass, energy terms,
// forces without a potential, damping, boundary conditions and the bodies' meshes. Once finalized
// it does not change: a run's adaptive and lagged data live in a ModelData that the stepper owns
// and passes to every call below, with the stage being solved.
#include <memory>
#include <string>
#include <vector>

#include "softsim/core/hessian_layout.hpp"
#include "softsim/mesh/mesh.hpp"
#include "softsim/mesh/surface.hpp"
#include "softsim/model/boundary_conditions.hpp"
#include "softsim/model/energy.hpp"
#include "softsim/model/subspace_map.hpp"
#include "softsim/model/velocity_force.hpp"

namespace softsim {

class ConstraintContact;  // contact/constraint/constraint_contact.hpp

struct Body {
  std::string name;
  int first_vertex = 0;  // the body's vertices are [first_vertex, first_vertex + mesh rows)
  Mesh mesh;             // rest configuration, local vertex ids
  Surface surface;       // boundary (local ids)
  int elasticity_term = -1;  // index into Model::energies of the term with per-element density
  // Every vertex follows a prescribed motion (eliminated or driven by a penalty): a scripted
  // collider. Its contacts with other kinematic bodies and static obstacles are skipped, as IPC
  // skips pairs of Dirichlet vertices: their relative motion is given, not solved.
  bool kinematic = false;
  // Positions an affine map of the body's own coordinates (subspace_map.hpp): x = A xbar + t with
  // det A != 0 is one-to-one, so the body cannot touch itself (Lan et al. 2022, §4).
  bool affine = false;
};

class Model {
 public:
  explicit Model(int dim = 3) : dim_(dim) {}
  // Defined out of line: the members' destructors and moves are compiled once, not in every file
  // that holds a Model.
  ~Model();
  Model(Model&&) noexcept;
  Model& operator=(Model&&) noexcept;

  int dim() const { return dim_; }
  int num_vertices() const { return static_cast<int>(rest_positions.size()) / dim_; }
  int num_dofs() const { return static_cast<int>(rest_positions.size()); }

  // Building (before finalize) ------------------------------------------------------------------
  // Appends a body's vertices; returns the global id of its first vertex.
  int add_vertices(const MatX& vertices);
  // Adds mass: lumped per vertex or consistent triplets (rows/cols are DOF indices).
  void add_lumped_mass(int vertex, double mass);
  void add_mass_triplet(int row, int col, double value);
  // Terms run their step hooks in the order they were added; a term that reads another term's
  // data (Energy::reads_data_of: friction reads its contact's stiffness) must come after it.
  int add_energy(std::unique_ptr<Energy> term);
  // Forces without a potential (only the residual form of the implicit stages accepts them).
  int add_force(std::unique_ptr<VelocityForce> force);
  // Mass of each vertex (lumped, or the row sum of the consistent mass) from what was added so far.
  std::vector<double> vertex_masses() const;
  // Builds the Hessian layout and the mass matrix; call once after all terms are added.
  void finalize();
  bool finalized() const { return layout_.finalized(); }

  // Evaluating (const; the run's data passed in) ------------------------------------------------
  // The potential P(x): every energy term plus the work of the constant external forces
  // (gravity M g and nodal loads): P = sum_k E_k(x) - x . f_ext.
  double potential(const EvalContext& ctx, const VecX& x, const AssemblyOutputs& out) const;
  // The unprojected Hessian of P at x as an operator: forward-mode products of the terms that
  // have them, and the others' Hessians assembled once into one sparse matrix.
  std::unique_ptr<HessianOperator> potential_hessian(const EvalContext& ctx, const VecX& x) const;
  // Every term's dense rank-one Hessian parts (weight applied), in world coordinates.
  void rank_one_hessian(const EvalContext& ctx, const VecX& x, double weight, std::vector<RankOneHessian>& out) const;
  // Largest step fraction allowed by every term's filter (inversion-free, intersection-free).
  double max_step_fraction(const EvalContext& ctx, const VecX& x, const VecX& p) const;
  // Sum of the VelocityForce terms (see velocity_force.hpp): weight * f(q, v) into force, weight *
  // (df/dq + c df/dv) into jacobian triplets; and its matrix-free product with p.
  void add_velocity_forces(const EvalContext& ctx, const VecX& q, const VecX& v, double c, double weight, VecX* force,
                           std::vector<Triplet>* jacobian) const;
  void velocity_forces_jacobian_times(const EvalContext& ctx, const VecX& q, const VecX& v, double c, const VecX& p,
                                      double weight, VecX& out) const;

  // Step hooks (energy.hpp), run over the terms in order ------------------------------------------
  void begin_step(const Stage& stage, ModelData& data, const VecX& x_start) const;
  // True when a term changed its value at x (the caller evaluates again).
  bool end_iteration(const Stage& stage, ModelData& data, const VecX& x) const;
  // The same with x exact on the supports of the terms whose hooks read no more (Energy::
  // hooks_read_all_positions false for every term) and `whole` forming the positions at every
  // vertex on request (StepContext::whole_positions; the other gradient is taken there).
  bool end_iteration(const Stage& stage, ModelData& data, const VecX& x, FunctionRef<const VecX&()> whole) const;
  // Every term's held DOFs (Energy::held_dofs) for the current solve.
  std::vector<int> held_dofs(const ModelData& data) const;
  // The same into `dofs` (cleared first), whose storage a caller asking every iteration keeps.
  void held_dofs(const ModelData& data, std::vector<int>& dofs) const;
  // True when a term asks for the solve to be repeated from x.
  bool after_solve(const Stage& stage, ModelData& data, const VecX& x) const;
  bool after_solve(const Stage& stage, ModelData& data, const VecX& x, FunctionRef<const VecX&()> whole) const;

  // Mass, external force ------------------------------------------------------------------------
  // Adds weight * M into a matrix with the layout's pattern.
  void add_mass_to(SparseMat& H, double weight) const;
  VecX mass_times(const VecX& v) const { return mass_ * v; }
  const SparseMat& mass_matrix() const { return mass_; }
  double total_mass() const;
  // A lower bound on the mass matrix's eigenvalues: the smallest lumped mass per DOF when the mass
  // is lumped, 0 when some of it is consistent (no bound claimed). Valid after finalize().
  double mass_lower_bound() const { return mass_lower_bound_; }
  // Whether every Hessian the model assembles with per-stencil projection is positive
  // semi-definite (Energy::hessian_psd_when_projected for every term, no velocity forces).
  bool hessians_psd_when_projected() const;
  // Constant external force (gravity and nodal loads), valid after finalize().
  const VecX& external_force() const { return external_force_; }

  const HessianLayout& layout() const { return layout_; }
  const std::vector<std::unique_ptr<Energy>>& energies() const { return energies_; }
  const std::vector<std::unique_ptr<VelocityForce>>& forces() const { return forces_; }
  bool has_velocity_forces() const { return !forces_.empty(); }

  VecX rest_positions;     // x at t = 0 (also the reference for prescribed motions)
  VecX initial_velocity;
  Vec3 gravity = Vec3::Zero();  // only the first dim components are used
  VecX nodal_forces;  // loads (N) per DOF, empty or num_dofs() long (Neumann data)
  double rayleigh_alpha = 0.0;  // D = alpha M + beta K (Ascher et al. 2022, eq. 2)
  double rayleigh_beta = 0.0;
  BoundaryConditions boundary;
  // Bodies whose positions are a linear map of fewer coordinates (affine bodies): the implicit
  // stages solve for those coordinates. Empty when every vertex has its own DOFs.
  SubspaceMap subspace;
  std::vector<Body> bodies;
  // Contact resolved by Lagrange multipliers (contact.type "constraint"): not an energy term but
  // a step of its own (integrate/constraint/); null otherwise.
  std::shared_ptr<const ConstraintContact> constraint_contact;

 private:
  // Runs a step hook over the energy terms, each with the lazily evaluated gradient of the others.
  template <class Hook>
  bool run_hook(const Stage& stage, ModelData& data, FunctionRef<const VecX&()> whole, Hook&& hook) const;
  int dim_;
  std::vector<double> lumped_;
  std::vector<Triplet> mass_triplets_;
  std::vector<std::unique_ptr<Energy>> energies_;
  std::vector<std::unique_ptr<VelocityForce>> forces_;
  HessianLayout layout_;
  SparseMat mass_;
  VecX external_force_;
  std::vector<int> mass_to_layout_;  // value index of each mass non-zero inside the layout
  double mass_lower_bound_ = 0.0;
};

}  // namespace softsim
