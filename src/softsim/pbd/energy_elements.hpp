#pragma once
// The model's elastic energy as a list of small elements for the position-based solvers: every
// term the solvers understand (simplex elasticity, springs, shell membranes, hinge bending, the
// enclosed-volume penalty) is cut into elements E_e(x) >= 0 over a few vertices (all of a closed
// surface's for the volume term), each with its gradient. XPBD projects each as the constraint
// C_e = sqrt(2 E_e) of compliance 1, whose potential C^2 / (2 alpha) is E_e itself, so that the
// converged XPBD step is the implicit Euler step of the same energy (Macklin et al. 2016,
// "XPBD", eq. 13; Li & Jiang 2025, §33.5: the continuum constraint C = V0 Psi(F) with its
// gradient V0 P Dm^-T, here square-rooted to make the compliance the material's); except a
// solid's elements, which also give their Hessian and are projected as blocks (XpbdStepper).
#include <cmath>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "softsim/model/model.hpp"

namespace softsim {

class EnergyElements {
 public:
  // Throws std::invalid_argument naming the first term the position-based solvers cannot
  // project (contact between bodies, velocity forces, Rayleigh damping, reduced bodies). The
  // contact terms against analytic obstacles are left to pbd/obstacle_collisions.hpp.
  // With strain_constraints, solids and shell membranes become the strain-based constraints of
  // pbd/strain_constraints.hpp instead of one continuum constraint per element.
  explicit EnergyElements(const Model& model, bool strain_constraints = false);
  ~EnergyElements();
  EnergyElements(EnergyElements&&) noexcept;

  int size() const { return static_cast<int>(offsets_.size()) - 1; }
  std::span<const int> vertices(int e) const {
    return {vertices_.data() + offsets_[static_cast<std::size_t>(e)],
            static_cast<std::size_t>(offsets_[static_cast<std::size_t>(e) + 1] - offsets_[static_cast<std::size_t>(e)])};
  }
  int max_vertices() const { return max_vertices_; }
  // E_e(x) and, when grad is non-null, dE_e/dx over vertices(e) (dim doubles per vertex, in that
  // order). +infinity where the energy is undefined (an inverted element of a barrier-type model).
  double energy(const VecX& x, int e, double* grad) const;
  // The elements of solids (triangles in 2D, tetrahedra in 3D: an energy of the whole strain
  // tensor) also give their Hessian, so that XPBD can project them as a block (XpbdStepper): E_e
  // with its gradient and its Hessian with the material's dP/dF projected to positive
  // semi-definite (n x n column-major, n = dim * vertices(e).size()). The others do not.
  bool has_hessian(int e) const;
  double energy(const VecX& x, int e, double* grad, double* hess) const;

  // One source per model term that contributed elements (internal: the term adapters).
  struct Source {
    virtual ~Source() = default;
    virtual double energy(const VecX& x, int local, double* grad) const = 0;
    virtual bool has_hessian() const { return false; }
    virtual double energy(const VecX&, int, double*, double*) const { return HUGE_VAL; }
  };

 private:
  std::vector<std::unique_ptr<Source>> sources_;
  std::vector<int> offsets_{0}, vertices_;
  std::vector<int> source_of_, local_of_;
  int max_vertices_ = 0;
  void add(std::unique_ptr<Source> source, const std::vector<std::vector<int>>& elements);
};

}  // namespace softsim
