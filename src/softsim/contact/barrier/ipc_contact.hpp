#pragma once
// Intersection-free contact between all bodies and with themselves (IPC, Li et al. 2020;
// Li & Jiang 2025, ch. 24): a barrier on the squared distance of every point-triangle and
// edge-edge pair (point-edge in 2D) closer than dhat, edge-edge pairs mollified, and a step
// filter from additive CCD so that no Newton iterate and no accepted state ever intersects.
//   E = kappa * sum_k b(s_k),  b(s) = -(s - dhat^2)^2 ln(s / dhat^2)   (IPC eq. 4 on squared
//   distances), or that of Li & Jiang 2025, (kappa/2)(d/dhat - 1) ln(d/dhat), on unsquared ones.
// The stiffness kappa is set when contact first appears from the balance of the barrier's and
// the other potentials' gradients, and doubled (up to kappa_max) at the start of a step when the
// closest pair got closer than 1e-3 dhat while approaching (IPC supplement, sec. 3).
// Duplicated stencils (a point near a vertex shared by several triangles) each contribute their
// barrier: the contact stays a valid barrier, slightly stiffer near edges and corners. They are
// evaluated once, as the stencil of the closest features, times their number (compact()).
#include <optional>

#include "softsim/contact/barrier/barrier.hpp"
#include "softsim/contact/broad_phase/candidates.hpp"
#include "softsim/contact/geometry/collision_mesh.hpp"
#include "softsim/contact/stencil/stencil_assembly.hpp"
#include "softsim/model/energy.hpp"

namespace softsim {

class Model;

struct IpcOptions {
  double dhat = 1e-3;                   // m
  std::optional<double> kappa;          // fixed stiffness; automatic when absent
  BarrierForm form = BarrierForm::ipc_squared;
  BroadPhaseMethod broad_phase = BroadPhaseMethod::Auto;
  double ccd_safety = 0.9;              // ACCD rescaling s (1 - eta, Li & Jiang 2025, Implementation 21.4.3)
  // Minimum separation xi (m), e.g. a shell's thickness: the barrier acts on the gap d - xi
  // (active for d < xi + dhat) and CCD keeps d >= xi.
  double thickness = 0.0;
  // Per collision vertex: a factor on the barrier of every stencil whose first vertex (the point
  // of a point-edge pair) it is; empty: 1 (the weights A_p dhat / 2 of Li & Jiang 2025,
  // Implementation 21.3.1, with the book_squared form, 2D).
  std::vector<double> point_weights;
};

class IpcContact : public Energy {
 public:
  // The model is used for the rest positions (mollifier thresholds) and the masses (the
  // stiffness bounds).
  IpcContact(const Model& model, CollisionMesh mesh, const IpcOptions& options);

  std::string name() const override { return "ipc_contact"; }
  // The stiffness (fixed, or adapted during the run) and the candidates of the last CCD sweep.
  std::unique_ptr<TermData> make_data() const override;
  double evaluate(const EvalContext& ctx, const VecX& x, const AssemblyOutputs& out) const override;
  bool hessian_psd_when_projected() const override { return true; }  // projected per stencil
  double max_step_fraction(const EvalContext& ctx, const VecX& x, const VecX& p) const override;
  double min_contact_distance(const VecX& x, const ModelData* data = nullptr) const override;
  // The stiffness: balanced against the other forces when contact first appears, doubled when
  // the closest pair keeps approaching (see above).
  void begin_step(const StepContext& ctx, const VecX& x_start) const override;
  bool end_iteration(const StepContext& ctx, const VecX& x) const override;
  // The collision vertices with DOFs. The hooks read the collision vertices only, and the other
  // positions (StepContext::whole_positions, other_gradient) only when contact appears and the
  // stiffness is balanced.
  bool vertex_support(std::vector<int>& vertices) const override;
  bool hooks_read_all_positions() const override { return false; }

  double stiffness(const ModelData& data) const;
  const IpcOptions& options() const { return options_; }
  const CollisionMesh& collision_mesh() const { return mesh_; }
  // Number of candidate pairs closer than dhat at x.
  int active_pairs(const VecX& x) const;
  // Those pairs as stencils (model vertex ids; static obstacle vertices from num_vertices() on)
  // with their distances (m), in candidate order: what a user reads as the contacts at x.
  std::vector<std::pair<ContactStencil, double>> active_contacts(const VecX& x) const;
  // Candidate pairs within dhat + thickness at x (the stencils the barrier is evaluated on);
  // those of the last CCD sweep when x lies on its segment.
  Candidates contact_candidates(const EvalContext& ctx, const VecX& x) const;
  // The barrier (without kappa) of stencil st as a function of its squared distance s, acting on
  // the gap sqrt(s) - thickness, with the stencil's point weight.
  BarrierValue barrier_of(double s, const ContactStencil& st) const;

 private:
  struct Data;
  BarrierValue barrier_of_gap(double s) const;
  Candidates candidates_near(const Data* data, const VecX& x) const;
  // The candidates of the last CCD sweep when x lies on its segment; null otherwise.
  const Candidates* swept_candidates_at(const Data* data, const VecX& x) const;
  double min_distance(const Data* data, const VecX& x) const;
  // The candidates within the barrier's reach at V, in candidate order, with their squared
  // distances: every later pass costs what the active set costs, not what the candidates cost.
  struct ActiveStencils {
    std::vector<ContactStencil> stencils;
    std::vector<double> s;
    std::vector<int> multiplicity;  // after compact(): how many candidates each stencil stands for
    std::size_t size() const { return stencils.size(); }
  };
  // Buffers of one evaluation. The solver's ModelData keeps one (in Data) for every call of
  // every iteration and step, so their capacity settles at the largest contact set seen and
  // evaluations stop allocating; calls without data use a fresh one.
  struct Workspace {
    // The candidates' stencils (only those within reach after a filtered broad phase), and their
    // squared distances (infinity where a bound proved them beyond reach).
    std::vector<ContactStencil> candidates;
    std::vector<double> distances;
    ActiveStencils active, merged;
    std::vector<ContactStencil> reduced;
    std::vector<int> merge_slots;  // compact's table: the merged index of each reduced stencil
    std::vector<double> values;
    std::vector<ContactStencilTerm> terms;
    VertexRows rest;  // the mollifier's rest positions, gathered once
  };
  // Fills w.active with the stencils closer than the reach at V = positions(x): from the cached
  // swept candidates when x lies on the last CCD segment, else from a broad phase that keeps
  // only those pairs as it finds them.
  void active_stencils(const VertexRows& V, const VecX& x, const Data* data, Workspace& w) const;
  // Each active stencil reduced to the features that realise its distance (a point-triangle pair
  // closest at an edge acts on 3 vertices, at a vertex on 2), and equal reduced stencils merged
  // into one with their multiplicity (ipc-toolkit does the same), so that the Hessian holds only
  // the entries the physics has. Edge-edge pairs whose mollifier is active keep their 4
  // vertices: the mollifier depends on all of them. The energy is unchanged (up to round-off).
  void compact(const VertexRows& V, Workspace& w) const;
  // The rest positions the edge-edge mollifier's threshold reads (the model's: gathered on the
  // first call that has an active edge-edge stencil, then kept).
  const VertexRows& mollifier_rest_positions(Workspace& w) const;
  // The barrier (without kappa) of each stencil of w.active at V: values alone (w.values), or
  // with gradient and Hessian, PSD-projected when asked (w.terms).
  void barrier_values(const VertexRows& V, Workspace& w) const;
  void barrier_terms(const VertexRows& V, Workspace& w, bool project_psd) const;
  // Balances kappa at x if contact is there. Without contact: at the step's start, kappa is set
  // to its lower bound there; within a step (`within_step`), it stays so.
  void initialise_stiffness(const StepContext& ctx, Data& data, const VecX& x, bool within_step) const;
  double reach() const { return options_.dhat + options_.thickness; }  // broad-phase radius

  const Model& model_;
  CollisionMesh mesh_;
  IpcOptions options_;
};

}  // namespace softsim
