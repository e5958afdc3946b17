#pragma once
// Hyperelastic material models: an energy density Psi(F) per unit reference volume, its first
// Piola-Kirchhoff stress P = dPsi/dF and the stress derivative dP/dF. Materials know nothing of
// meshes. Matrices are flattened column-major: vec(F) = (F00, F10, F20, F01, ...), and
// dPdF(i, j) = d vec(P)_i / d vec(F)_j, a D^2 x D^2 matrix.
#include <memory>
#include <string>
#include <vector>

#include "softsim/core/types.hpp"

namespace softsim {

// Lame parameters (Pa). 2D elements use plane strain, i.e. the same formulas as 3D.
struct LameParameters {
  double mu = 0.0;
  double lambda = 0.0;
  static LameParameters from_young_poisson(double youngs_modulus, double poisson_ratio);
  double youngs_modulus() const;
  double poisson_ratio() const;
};

template <int D>
class Material {
 public:
  using Mat = MatD<D>;
  using Mat2nd = MatD<D * D>;
  virtual ~Material() = default;

  virtual std::string name() const = 0;

  // Returns Psi(F); fills P and dPdF when non-null. With project_psd, dPdF is replaced by its
  // positive semi-definite projection (analytic eigensystem where the model has one).
  virtual double evaluate(const Mat& F, Mat* P, Mat2nd* dPdF, bool project_psd) const = 0;

  double energy_density(const Mat& F) const { return evaluate(F, nullptr, nullptr, false); }

  // True when Psi(R F) = Psi(F) for every rotation R (false for linear elasticity).
  virtual bool rotation_invariant() const { return true; }
  // False for models with a barrier at det F = 0 (neo-Hookean with log J).
  virtual bool defined_when_inverted() const { return true; }
  // True for corotated linear elasticity: the FEM element evaluates the model in a frame
  // rotated by the polar rotation of F at the start of the time step (Li & Jiang 2025, Def. 13.3.1).
  virtual bool uses_frozen_rotation() const { return false; }
};

// Model names as used in scene files: "linear", "corotated_linear", "fixed_corotated",
// "stvk", "neo_hookean", "stable_neo_hookean", "arap". Throws std::invalid_argument on an
// unknown name.
template <int D>
std::unique_ptr<Material<D>> make_material(const std::string& model, const LameParameters& lame);

// All names accepted by make_material, for error messages and docs.
const std::vector<std::string>& material_model_names();

}  // namespace softsim
