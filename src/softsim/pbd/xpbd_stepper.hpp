#pragma once
// Position-based dynamics as a Stepper over the same Model as every other integrator (Li & Jiang
// 2025, ch. 32-33): XPBD (Macklin et al. 2016) and plain PBD (Müller et al. 2007). Each substep
// predicts x* = x + h v + h^2 a_ext, projects the model's energy elements (pbd/energy_elements.hpp),
// the analytic obstacle collisions and the vertex-triangle contacts of the collision mesh
// (pbd/mesh_collisions.hpp) in Gauss-Seidel sweeps, and sets v = (x - x_prev) / h.
//   XPBD: a solid's element (with elastic_constraints "energy") is projected as a block: one
//         Newton step of its own backward Euler problem with its whole Hessian, on its share of
//         the displacement (project_block()). Every other element is the scalar constraint
//         C_e = sqrt(2 E_e), compliance 1, dlambda = (-C - a~ lambda + grad C . r_e) /
//         (sum w |grad C|^2 + a~), a~ = 1 / h^2, lambda reset to 0 each substep (Macklin et al.
//         2016, eqs. 17-18, with the element's primal residual r_e kept: see project()).
//         Converged, a substep is the implicit Euler step of the same energy: the answer does not
//         depend on the iteration count, and quasi-static runs end at the static equilibrium.
//         The scalar constraint converges only while w k h^2 (w a vertex's inverse mass, k an
//         element's stiffness) stays below ~1; the block projection for any w k h^2.
//   PBD:  the same constraints projected to zero with stiffness k' = 1 - (1 - k)^(1/n) per sweep
//         (Li & Jiang 2025, §32.5): the material's moduli play no part, only the shapes.
// Elements are coloured (pbd/graph_colouring.hpp) and a colour projected in parallel: results are
// bitwise the same for any thread count. The step never fails; it reports its sweeps.
#include <array>
#include <vector>

#include "softsim/integrate/stepper.hpp"
#include "softsim/pbd/energy_elements.hpp"
#include "softsim/pbd/mesh_collisions.hpp"
#include "softsim/pbd/obstacle_collisions.hpp"
#include "softsim/pbd/pbd_options.hpp"

namespace softsim {

class XpbdStepper : public Stepper {
 public:
  // extended: XPBD (true) or plain PBD. Throws std::invalid_argument for a model the
  // position-based integrators cannot step (EnergyElements' list) or bad options.
  XpbdStepper(const Model& model, const PbdOptions& options, bool extended);
  std::string name() const override { return extended_ ? "xpbd" : "pbd"; }
  StepResult step(State& state, double h) override;
  const ModelData& data() const override { return data_; }
  // Nothing but the state is carried between steps (the multipliers restart every substep).
  void save(ArchiveWriter& out) const override { data_.save(model_, out); }
  void load(ArchiveReader& in) override { data_.load(model_, in); }

  const EnergyElements& elements() const { return elements_; }
  int num_colours() const { return static_cast<int>(colours_.size()); }
  // Projections skipped in the last step (all substeps and sweeps) because the element's energy
  // was undefined (inverted elements of a material without an inverted branch).
  int undefined_elements() const { return undefined_; }
  // Vertex-triangle pairs watched in the last substep.
  std::size_t contact_pairs() const { return mesh_collisions_.pairs(); }

 private:
  const Model& model_;
  PbdOptions options_;
  bool extended_;
  ModelData data_;
  EnergyElements elements_;
  ObstacleCollisions collisions_;
  MeshCollisions mesh_collisions_;  // between and within bodies, and with mesh obstacles
  std::vector<std::vector<int>> colours_;
  std::vector<double> mass_, inverse_mass_;  // per vertex; 0 for prescribed vertices
  VecX acceleration_;                        // per DOF: external force / mass
  VecX lambda_, x_prev_;
  // XPBD: each element's share of the substep's displacement (w_i grad_i C lambda per vertex),
  // at displacement_offset_[e]; kept so that the share follows the element's current gradient.
  std::vector<double> displacement_;
  std::vector<std::size_t> displacement_offset_;
  // The substep's obstacle contacts: normal correction per vertex, friction's take per DOF.
  std::vector<double> contact_push_;
  VecX friction_taken_;
  int undefined_ = 0;
  // XPBD with elastic_constraints "energy": which elements are projected as a block (those with a
  // Hessian: solids' triangles and tetrahedra); empty otherwise.
  std::vector<char> block_;
  // Projects element e as the scalar constraint sqrt(2 E_e); a_tilde = compliance / h^2 (XPBD) or
  // < 0 for PBD with stiffness k.
  bool project(VecX& x, int e, double a_tilde, double k, std::vector<double>& grad);
  // Projects element e as a block: one Newton step of its backward Euler problem (h2 = h_s^2);
  // false where its energy is undefined (skipped, as project() does).
  struct BlockScratch {
    std::array<double, 12> grad;
    std::array<double, 144> hess;
  };
  bool project_block(VecX& x, int e, double h2, BlockScratch& scratch);
  template <int N>
  bool project_block(VecX& x, int e, double h2, BlockScratch& scratch);
};

}  // namespace softsim
