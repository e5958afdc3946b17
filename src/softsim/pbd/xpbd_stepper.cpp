#include "softsim/pbd/xpbd_stepper.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <cmath>
#include <stdexcept>

#include "softsim/pbd/graph_colouring.hpp"
#include "softsim/pbd/momentum_damping.hpp"

namespace softsim {

XpbdStepper::XpbdStepper(const Model& model, const PbdOptions& options, bool extended)
    : model_(model), options_(options), extended_(extended), data_(model), elements_(model, options.elastic_constraints == PbdOptions::ElasticConstraints::strain), collisions_(model), mesh_collisions_(model) {
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
  if (extended_ && options.elastic_constraints == PbdOptions::ElasticConstraints::energy) {
    block_.resize(static_cast<std::size_t>(elements_.size()));
    for (int e = 0; e < elements_.size(); ++e) block_[static_cast<std::size_t>(e)] = elements_.has_hessian(e);
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

// The block projection of a solid's element (elastic_constraints "energy"). XPBD's update of the
// scalar constraint C = sqrt(2 E_e) is a Newton step on the element's part of the backward Euler
// problem in which h^2 grad^2 E_e is replaced by grad C grad C^T / a~ = h^2 grad E grad E^T / (2 E)
// (Macklin et al. 2016 derive eq. 18 with the geometric stiffness lambda grad^2 C dropped): exact
// along the element's force, blind across it. For the root of a whole strain tensor's energy the
// dropped part is of the size of h^2 grad^2 E itself, so that an error across the force grows by
// about -w k h^2 per projection: past w k h^2 ~ 1 the sweeps end in a cycle, not at the step
// (docs/pbd.md). Here the element's share d_e of the displacement moves instead by one Newton step
// of the element's own problem (the idea of Chaudhary et al. 2025's per-force Newton step)
//   min over d_e of  1/2 d_e^T M d_e + h^2 E_e(x - d_e_old + d_e),
//   (M + h^2 H_e) dd = -(M d_e + h^2 grad E_e),   H_e the element's Hessian (dP/dF made PSD),
// halved until that objective does not grow (so the step never inverts an element of a
// barrier-type material). Its fixed point is that of the scalar update, M d_e = -h^2 grad E_e for
// every element: the backward Euler step.
namespace {

// Solves A y = b in place (b becomes y) for a symmetric positive definite A by Cholesky, A's lower
// triangle overwritten; false if A is not positive definite. Plain loops of a size known at compile
// time: for 6 to 12 unknowns several times faster than Eigen's LLT, which goes through its
// general matrix-vector kernels.
template <int N>
bool cholesky_solve(Eigen::Matrix<double, N, N>& A, Eigen::Matrix<double, N, 1>& b) {
  for (int j = 0; j < N; ++j) {
    double d = A(j, j);
    for (int k = 0; k < j; ++k) d -= A(j, k) * A(j, k);
    if (!(d > 0.0)) return false;
    const double inverse = 1.0 / std::sqrt(d);
    A(j, j) = inverse;  // the diagonal holds 1 / L_jj
    for (int i = j + 1; i < N; ++i) {
      double s = A(i, j);
      for (int k = 0; k < j; ++k) s -= A(i, k) * A(j, k);
      A(i, j) = s * inverse;
    }
  }
  for (int i = 0; i < N; ++i) {  // L z = b
    double s = b[i];
    for (int k = 0; k < i; ++k) s -= A(i, k) * b[k];
    b[i] = s * A(i, i);
  }
  for (int i = N - 1; i >= 0; --i) {  // L^T y = z
    double s = b[i];
    for (int k = i + 1; k < N; ++k) s -= A(k, i) * b[k];
    b[i] = s * A(i, i);
  }
  return true;
}

}  // namespace

template <int N>
bool XpbdStepper::project_block(VecX& x, int e, double h2, BlockScratch& scratch) {
  using Vec = Eigen::Matrix<double, N, 1>;
  using Mat = Eigen::Matrix<double, N, N>;
  const int dim = model_.dim();
  const std::span<const int> vs = elements_.vertices(e);
  const double E = elements_.energy(x, e, scratch.grad.data(), scratch.hess.data());
  if (!std::isfinite(E)) return false;
  const Eigen::Map<const Vec> g(scratch.grad.data());
  Mat A = h2 * Eigen::Map<const Mat>(scratch.hess.data());
  Eigen::Map<Vec> applied(displacement_.data() + displacement_offset_[static_cast<std::size_t>(e)]);
  Vec mass, index;
  for (int i = 0; i < N; ++i) {
    const int vertex = vs[static_cast<std::size_t>(i / dim)];
    const double w = inverse_mass_[static_cast<std::size_t>(vertex)];
    mass[i] = w > 0.0 ? 1.0 / w : 0.0;
    index[i] = vertex * dim + i % dim;
  }
  Vec rhs = -(mass.cwiseProduct(applied) + h2 * g);
  for (int i = 0; i < N; ++i) {
    if (mass[i] > 0.0) {
      A(i, i) += mass[i];
      continue;
    }
    A.row(i).setZero();  // a prescribed vertex: no share, no step
    A.col(i).setZero();
    A(i, i) = 1.0;
    rhs[i] = 0.0;
  }
  if (!cholesky_solve<N>(A, rhs)) return true;  // cannot happen with M > 0 and H PSD
  const Vec& step = rhs;
  // Shorten the step until the element's objective does not grow (roundoff allowed for).
  const double phi0 = 0.5 * applied.dot(mass.cwiseProduct(applied)) + h2 * E;
  double t = 1.0;
  for (int tries = 0; tries < 12; ++tries, t *= 0.5) {
    for (int i = 0; i < N; ++i) x[static_cast<Eigen::Index>(index[i])] += t * step[i];
    const double Et = elements_.energy(x, e, nullptr);
    const Vec d = applied + t * step;
    const double phi = 0.5 * d.dot(mass.cwiseProduct(d)) + h2 * Et;
    if (std::isfinite(Et) && phi <= phi0 + 1e-12 * std::abs(phi0)) {
      applied = d;
      return true;
    }
    for (int i = 0; i < N; ++i) x[static_cast<Eigen::Index>(index[i])] -= t * step[i];
  }
  return true;
}

bool XpbdStepper::project_block(VecX& x, int e, double h2, BlockScratch& scratch) {
  switch (static_cast<int>(elements_.vertices(e).size()) * model_.dim()) {
    case 6: return project_block<6>(x, e, h2, scratch);    // 2D triangle
    case 12: return project_block<12>(x, e, h2, scratch);  // tetrahedron
    default: throw std::logic_error("XpbdStepper: no block projection for this element size");
  }
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
              BlockScratch scratch;
              for (std::size_t c = r.begin(); c != r.end(); ++c) {
                const int e = colour[c];
                const bool ok = !block_.empty() && block_[static_cast<std::size_t>(e)]
                                    ? project_block(x, e, hs * hs, scratch)
                                    : project(x, e, a_tilde, k, grad);
                if (!ok) ++bad;
              }
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
