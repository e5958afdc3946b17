#include "softsim/pbd/xpbd_stepper.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <cmath>
#include <stdexcept>

#include "softsim/pbd/graph_colouring.hpp"
#include "softsim/pbd/momentum_damping.hpp"

namespace softsim {

XpbdStepper::XpbdStepper(const Model& model, const PbdOptions& options, bool extended)
    : model_(model), options_(options), extended_(extended), data_(model), elements_(model, options.strain_constraints), collisions_(model), mesh_collisions_(model) {
  if (options.substeps < 1 || options.iterations < 1)
    throw std::invalid_argument("integrator.substeps and integrator.iterations must be at least 1");
  if (!(options.drag >= 0.0 && options.drag < 1.0)) throw std::invalid_argument("integrator.velocity_damping must be in [0, 1)");
  if (!(options.stiffness >= 0.0 && options.stiffness <= 1.0))
    throw std::invalid_argument("integrator.pbd_stiffness must be in [0, 1]");
  if (!(options.damping >= 0.0 && options.damping <= 1.0))
    throw std::invalid_argument("integrator.momentum_damping must be in [0, 1]");
  if (!(options.collision_margin >= 0.0) || !std::isfinite(options.collision_margin))
    throw std::invalid_argument("integrator.collision_margin must be finite and >= 0");
  if (!(options.friction >= 0.0) || std::isnan(options.static_friction))
    throw std::invalid_argument("contact.friction.mu and integrator.static_friction must be >= 0");
  const int n = model.num_vertices(), dim = model.dim();
  mass_ = model.vertex_masses();
  inverse_mass_.assign(static_cast<std::size_t>(n), 0.0);
  const std::vector<char>& fixed = model.boundary.fixed_dofs();
  acceleration_ = VecX::Zero(model.num_dofs());
  for (int i = 0; i < n; ++i) {
    bool prescribed = false;
    for (int k = 0; k < dim; ++k) prescribed |= !fixed.empty() && fixed[static_cast<std::size_t>(i * dim + k)] != 0;
    const double m = mass_[static_cast<std::size_t>(i)];
    if (prescribed || !(m > 0.0)) {
      mass_[static_cast<std::size_t>(i)] = 0.0;
      continue;
    }
    inverse_mass_[static_cast<std::size_t>(i)] = 1.0 / m;
    acceleration_.segment(i * dim, dim) = model.external_force().segment(i * dim, dim) / m;
  }
  colours_ = colour_constraints(elements_.size(), n, [&](int e) { return elements_.vertices(e); });
  lambda_ = VecX::Zero(elements_.size());
  if (extended_) {
    displacement_offset_.resize(static_cast<std::size_t>(elements_.size()));
    std::size_t total = 0;
    for (int e = 0; e < elements_.size(); ++e) {
      displacement_offset_[static_cast<std::size_t>(e)] = total;
      total += elements_.vertices(e).size() * static_cast<std::size_t>(dim);
    }
    displacement_.assign(total, 0.0);
  }
}

bool XpbdStepper::project(VecX& x, int e, double a_tilde, double k, std::vector<double>& grad) {
  const int dim = model_.dim();
  const std::size_t d = static_cast<std::size_t>(dim);
  const double E = elements_.energy(x, e, grad.data());
  if (!std::isfinite(E)) return false;
  const std::span<const int> vs = elements_.vertices(e);
  // XPBD: this element's share of the displacement from the prediction, w grad C lambda.
  double* applied = a_tilde >= 0.0 ? displacement_.data() + displacement_offset_[static_cast<std::size_t>(e)] : nullptr;
  if (!(E > 0.0)) {
    // At rest the element exerts no force (grad C is undefined there): withdraw its share.
    if (applied) {
      for (std::size_t a = 0; a < vs.size(); ++a)
        for (std::size_t c = 0; c < d; ++c) {
          x[vs[a] * dim + static_cast<int>(c)] -= applied[a * d + c];
          applied[a * d + c] = 0.0;
        }
      lambda_[e] = 0.0;
    }
    return true;
  }
  const double C = std::sqrt(2.0 * E);
  for (std::size_t i = 0; i < vs.size() * d; ++i) grad[i] /= C;  // now grad C
  double norm2 = 0.0, along = 0.0;
  for (std::size_t a = 0; a < vs.size(); ++a) {
    const double w = inverse_mass_[static_cast<std::size_t>(vs[a])];
    if (w == 0.0) continue;
    for (std::size_t c = 0; c < d; ++c) {
      const double g = grad[a * d + c];
      norm2 += w * g * g;
      // grad C . M^-1 g_e, with M^-1 g_e = applied - w grad C lambda the element's primal residual
      if (applied) along += g * (applied[a * d + c] - w * g * lambda_[e]);
    }
  }
  if (applied) {
    // Macklin et al. 2016, eq. 17 with the primal residual g kept per element (they drop it):
    // the element's share is re-aligned with its current gradient, so that the fixed point is
    // the backward Euler step even where the gradients turn during the sweeps.
    const double denominator = norm2 + a_tilde;
    if (!(denominator > 0.0)) return true;
    lambda_[e] += (-C - a_tilde * lambda_[e] + along) / denominator;
    for (std::size_t a = 0; a < vs.size(); ++a) {
      const double w = inverse_mass_[static_cast<std::size_t>(vs[a])];
      for (std::size_t c = 0; c < d; ++c) {
        const double share = w * grad[a * d + c] * lambda_[e];
        x[vs[a] * dim + static_cast<int>(c)] += share - applied[a * d + c];
        applied[a * d + c] = share;
      }
    }
    return true;
  }
  if (!(norm2 > 0.0)) return true;
  const double dlambda = -k * C / norm2;
  for (std::size_t a = 0; a < vs.size(); ++a) {
    const double w = inverse_mass_[static_cast<std::size_t>(vs[a])];
    if (w == 0.0) continue;
    for (std::size_t c = 0; c < d; ++c) x[vs[a] * dim + static_cast<int>(c)] += w * dlambda * grad[a * d + c];
  }
  return true;
}

StepResult XpbdStepper::step(State& state, double h) {
  const int dim = model_.dim(), n = model_.num_vertices();
  const double hs = h / options_.substeps;
  const double a_tilde = extended_ ? 1.0 / (hs * hs) : -1.0;
  const double k = options_.stiffness_correction
                       ? 1.0 - std::pow(1.0 - options_.stiffness, 1.0 / options_.iterations)
                       : options_.stiffness;
  const double mu_kinetic = options_.friction;
  const double mu_static = options_.static_friction >= 0.0 ? options_.static_friction : options_.friction;
  const std::size_t grad_size = static_cast<std::size_t>(elements_.max_vertices() * dim);
  VecX& x = state.x;
  VecX& v = state.v;
  int undefined = 0;
  for (int s = 0; s < options_.substeps; ++s) {
    const double t1 = state.t + (s + 1) * hs;
    x_prev_ = x;
    for (int i = 0; i < n; ++i) {
      if (inverse_mass_[static_cast<std::size_t>(i)] == 0.0) continue;
      v.segment(i * dim, dim) += hs * acceleration_.segment(i * dim, dim);
      x.segment(i * dim, dim) += hs * v.segment(i * dim, dim);
    }
    if (!model_.boundary.empty()) model_.boundary.apply_positions(x, model_.rest_positions, t1);
    mesh_collisions_.begin_substep(x_prev_, x);
    lambda_.setZero();
    std::fill(displacement_.begin(), displacement_.end(), 0.0);
    contact_push_.assign(static_cast<std::size_t>(n) * collisions_.obstacles().size(), 0.0);
    friction_taken_.setZero(static_cast<Eigen::Index>(contact_push_.size()) * dim);
    for (int it = 0; it < options_.iterations; ++it) {
      for (const std::vector<int>& colour : colours_) {
        undefined += tbb::parallel_reduce(
            tbb::blocked_range<std::size_t>(0, colour.size(), 64), 0,
            [&](const tbb::blocked_range<std::size_t>& r, int bad) {
              std::vector<double> grad(grad_size);
              for (std::size_t c = r.begin(); c != r.end(); ++c)
                if (!project(x, colour[c], a_tilde, k, grad)) ++bad;
              return bad;
            },
            [](int a, int b) { return a + b; });
      }
      // Obstacles last: they are hard limits, and a contact between layers of cloth lying on an
      // obstacle must not push the lower layer into it.
      mesh_collisions_.project(x, x_prev_, inverse_mass_, mu_static, mu_kinetic);
      collisions_.project(x, x_prev_, inverse_mass_, options_.collision_margin, mu_static, mu_kinetic, contact_push_,
                          friction_taken_);
    }
    v = (x - x_prev_) / hs;
    if (options_.drag > 0.0)
      for (int i = 0; i < n; ++i)
        if (inverse_mass_[static_cast<std::size_t>(i)] > 0.0) v.segment(i * dim, dim) *= 1.0 - options_.drag;
    for (const Body& body : model_.bodies)
      damp_relative_motion(v, x, mass_, dim, body.first_vertex, static_cast<int>(body.mesh.vertices.rows()),
                           options_.damping);
  }
  state.t += h;
  undefined_ = undefined;
  StepResult result;
  result.newton_iterations = options_.substeps * options_.iterations;  // sweeps
  result.residual = std::nan("");
  return result;
}

}  // namespace softsim
