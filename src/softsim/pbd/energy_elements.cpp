#include "softsim/pbd/energy_elements.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "softsim/contact/barrier/ipc_contact.hpp"
#include "softsim/contact/barrier/obstacle_barrier.hpp"
#include "softsim/contact/friction/implicit_friction.hpp"
#include "softsim/contact/friction/lagged_friction.hpp"
#include "softsim/contact/penalty/penalty_contact.hpp"
#include "softsim/fem/hinge_bending.hpp"
#include "softsim/fem/isometric_bending.hpp"
#include "softsim/fem/mass_spring.hpp"
#include "softsim/fem/shell_membrane.hpp"
#include "softsim/fem/simplex_elasticity.hpp"
#include "softsim/pbd/strain_constraints.hpp"
#include "softsim/volume/volume_penalty.hpp"

namespace softsim {
namespace {

template <int D>
struct SimplexSource : EnergyElements::Source {
  const SimplexElasticity<D>& term;
  explicit SimplexSource(const SimplexElasticity<D>& t) : term(t) {}
  double energy(const VecX& x, int e, double* grad) const override {
    const MatD<D> F = term.deformation_gradient(x, e);
    const double psi = term.material()->evaluate(F, nullptr, nullptr, false);
    if (!std::isfinite(psi)) return HUGE_VAL;
    if (grad) {
      const auto g = term.element_gradient(x, e);  // W P(F) G: the element's dE/dx
      std::copy(g.data(), g.data() + g.size(), grad);
    }
    return term.rest_volumes()[static_cast<std::size_t>(e)] * psi;
  }
  bool has_hessian() const override { return true; }
  double energy(const VecX& x, int e, double* grad, double* hess) const override {
    constexpr int N = (D + 1) * D;
    Eigen::Matrix<double, N, 1> g;
    Eigen::Matrix<double, N, N> H;
    const double E = term.element_energy(x, e, &g, &H, true);
    if (!std::isfinite(E)) return HUGE_VAL;
    std::copy(g.data(), g.data() + N, grad);
    std::copy(H.data(), H.data() + N * N, hess);
    return E;
  }
};

template <int D>
struct SpringSource : EnergyElements::Source {
  const MassSpring<D>& term;
  explicit SpringSource(const MassSpring<D>& t) : term(t) {}
  double energy(const VecX& x, int e, double* grad) const override { return term.element_energy(x, e, grad); }
};

struct MembraneSource : EnergyElements::Source {
  const ShellMembrane& term;
  explicit MembraneSource(const ShellMembrane& t) : term(t) {}
  double energy(const VecX& x, int t, double* grad) const override { return term.element_energy(x, t, grad); }
};

// Either bending energy (hinge or isometric), one element per hinge.
template <class Bending>
struct HingeSource : EnergyElements::Source {
  const Bending& term;
  explicit HingeSource(const Bending& t) : term(t) {}
  double energy(const VecX& x, int h, double* grad) const override { return term.hinge_energy(x, h, grad); }
};

template <class Bending>
bool add_bending(const Energy& term, std::vector<std::pair<std::unique_ptr<EnergyElements::Source>, std::vector<std::vector<int>>>>& out) {
  const auto* b = dynamic_cast<const Bending*>(&term);
  if (!b) return false;
  std::vector<std::vector<int>> hinges;
  for (int k = 0; k < b->num_hinges(); ++k) {
    const auto v = b->hinge(k);
    hinges.push_back({v[0], v[1], v[2], v[3]});
  }
  out.emplace_back(std::make_unique<HingeSource<Bending>>(*b), hinges);
  return true;
}

// The enclosed volume's W(V) as one element over every vertex of the closed surface: the global
// volume constraint of Li & Jiang 2025, §33.3 with the compliance of the scene's volume law. A
// pressurised gas (Pr > P0) has its minimum at V* = V0 Pr / P0 with W(V*) < 0: the element is
// W(V) - W(V*) >= 0 (the same force), so that it is at rest where the gas is, not at V0.
double volume_law_minimum(const VolumeLaw& law) {
  const double at = law.model == VolumeModel::IdealGas ? law.rest_volume * law.rest_pressure / law.ambient_pressure
                                                       : law.rest_volume;
  return law.energy(at);
}

struct VolumeSource : EnergyElements::Source {
  const VolumePenalty& term;
  std::vector<int> vertices;
  double minimum;
  VolumeSource(const VolumePenalty& t, std::vector<int> v)
      : term(t), vertices(std::move(v)), minimum(volume_law_minimum(t.law())) {}
  double energy(const VecX& x, int, double* grad) const override {
    const double V = term.volume(x);
    const double W = std::max(0.0, term.law().energy(V) - minimum);
    if (!std::isfinite(W)) return HUGE_VAL;
    if (grad) {
      const VecX g = term.law().derivative(V) * term.volume_gradient(x);
      for (std::size_t a = 0; a < vertices.size(); ++a)
        for (int k = 0; k < 3; ++k) grad[a * 3 + static_cast<std::size_t>(k)] = g[vertices[a] * 3 + k];
    }
    return W;
  }
};

template <class Elements>
std::vector<std::vector<int>> rows_of(const Elements& m) {
  std::vector<std::vector<int>> out(static_cast<std::size_t>(m.rows()));
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c) out[static_cast<std::size_t>(r)].push_back(m(r, c));
  return out;
}

template <int D>
bool add_simplex(const Energy& term, bool strain,
                 std::vector<std::pair<std::unique_ptr<EnergyElements::Source>, std::vector<std::vector<int>>>>& out) {
  const auto* s = dynamic_cast<const SimplexElasticity<D>*>(&term);
  if (!s) return false;
  if (!s->element_weights().empty())
    throw std::invalid_argument("reduced (cubature) bodies are not stepped by the position-based integrators");
  if (strain) {  // only the material's small-strain moduli are used: any model will do
    std::vector<std::vector<int>> elements;
    auto source = strain_constraints<D>(*s, elements);
    out.emplace_back(std::move(source), std::move(elements));
    return true;
  }
  if (s->material()->uses_frozen_rotation())
    throw std::invalid_argument("the material '" + s->material()->name() +
                                "' freezes its rotations per step, which position-based projection does not do; "
                                "use fixed_corotated, arap, neo_hookean, stable_neo_hookean, stvk or linear, or "
                                "integrator.elastic_constraints \"strain\"");
  out.emplace_back(std::make_unique<SimplexSource<D>>(*s), rows_of(s->elements()));
  return true;
}

template <int D>
bool add_spring(const Energy& term, std::vector<std::pair<std::unique_ptr<EnergyElements::Source>, std::vector<std::vector<int>>>>& out) {
  const auto* s = dynamic_cast<const MassSpring<D>*>(&term);
  if (!s) return false;
  out.emplace_back(std::make_unique<SpringSource<D>>(*s), rows_of(s->edges()));
  return true;
}

// Contact with analytic obstacles is projected by pbd/obstacle_collisions.hpp, friction included;
// IPC contact's collision mesh by pbd/mesh_collisions.hpp (without friction between bodies).
bool is_collision_term(const Energy& term) {
  return dynamic_cast<const ObstacleBarrier*>(&term) || dynamic_cast<const LaggedFriction*>(&term) ||
         dynamic_cast<const IpcContact*>(&term);
}

}  // namespace

EnergyElements::~EnergyElements() = default;
EnergyElements::EnergyElements(EnergyElements&&) noexcept = default;

EnergyElements::EnergyElements(const Model& model, bool strain_constraints) {
  if (!model.subspace.empty())
    throw std::invalid_argument("affine and reduced bodies are not stepped by the position-based integrators");
  for (const auto& force : model.forces())
    if (!dynamic_cast<const ImplicitFriction*>(force.get()))  // friction: projected with the obstacles
      throw std::invalid_argument("forces without a potential (" + force->name() +
                                  ") are not projected by the position-based integrators; use integrator.momentum_damping or "
                                  "integrator.velocity_damping");
  if (model.rayleigh_alpha != 0.0 || model.rayleigh_beta != 0.0)
    throw std::invalid_argument("Rayleigh damping is not applied by the position-based integrators; use integrator.momentum_damping "
                                "or integrator.velocity_damping");
  if (model.boundary.has_slip())
    throw std::invalid_argument("slip conditions are not projected by the position-based integrators");
  if (model.constraint_contact)
    throw std::invalid_argument("constraint contact has its own stepper; the position-based integrators project "
                                "contact with obstacles themselves (contact.type barrier)");
  std::vector<std::pair<std::unique_ptr<Source>, std::vector<std::vector<int>>>> found;
  for (const auto& term : model.energies()) {
    if (add_simplex<2>(*term, strain_constraints, found) || add_simplex<3>(*term, strain_constraints, found) || add_spring<2>(*term, found) ||
        add_spring<3>(*term, found) || is_collision_term(*term))
      continue;
    if (const auto* m = dynamic_cast<const ShellMembrane*>(term.get())) {
      if (strain_constraints) {
        std::vector<std::vector<int>> elements;
        auto source = softsim::strain_constraints(*m, elements);
        found.emplace_back(std::move(source), std::move(elements));
      } else {
        found.emplace_back(std::make_unique<MembraneSource>(*m), rows_of(m->triangles()));
      }
    } else if (add_bending<HingeBending>(*term, found) || add_bending<IsometricBending>(*term, found)) {
      continue;
    } else if (const auto* v = dynamic_cast<const VolumePenalty*>(term.get())) {
      std::vector<int> ids(v->faces().data(), v->faces().data() + v->faces().size());
      std::sort(ids.begin(), ids.end());
      ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
      found.emplace_back(std::make_unique<VolumeSource>(*v, ids), std::vector<std::vector<int>>{ids});
    } else {
      throw std::invalid_argument("the term '" + term->name() + "' is not projected by the position-based integrators");
    }
  }
  for (auto& [source, elements] : found) add(std::move(source), elements);
}

void EnergyElements::add(std::unique_ptr<Source> source, const std::vector<std::vector<int>>& elements) {
  const int s = static_cast<int>(sources_.size());
  sources_.push_back(std::move(source));
  for (std::size_t e = 0; e < elements.size(); ++e) {
    vertices_.insert(vertices_.end(), elements[e].begin(), elements[e].end());
    offsets_.push_back(static_cast<int>(vertices_.size()));
    source_of_.push_back(s);
    local_of_.push_back(static_cast<int>(e));
    max_vertices_ = std::max(max_vertices_, static_cast<int>(elements[e].size()));
  }
}

double EnergyElements::energy(const VecX& x, int e, double* grad) const {
  const auto i = static_cast<std::size_t>(e);
  return sources_[static_cast<std::size_t>(source_of_[i])]->energy(x, local_of_[i], grad);
}

bool EnergyElements::has_hessian(int e) const {
  return sources_[static_cast<std::size_t>(source_of_[static_cast<std::size_t>(e)])]->has_hessian();
}

double EnergyElements::energy(const VecX& x, int e, double* grad, double* hess) const {
  const auto i = static_cast<std::size_t>(e);
  return sources_[static_cast<std::size_t>(source_of_[i])]->energy(x, local_of_[i], grad, hess);
}

}  // namespace softsim
