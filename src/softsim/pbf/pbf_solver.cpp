#include "softsim/pbf/pbf_solver.hpp"

#include <fmt/format.h>

#include <Eigen/Geometry>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "softsim/core/archive_fixed_arrays.hpp"
#include "softsim/core/parallel.hpp"

namespace softsim {

namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// The kernel radius the options ask for (0: two spacings).
template <int D>
double support_of(const PbfOptions<D>& o) {
  return o.kernel_radius > 0.0 ? o.kernel_radius : 2.0 * o.spacing;
}

template <int D>
const PbfOptions<D>& checked(const PbfOptions<D>& o) {
  const double h = support_of(o);
  if (!(o.rest_density > 0.0) || !std::isfinite(o.rest_density))
    throw std::invalid_argument("PbfSolver: rest_density must be positive");
  if (!(o.spacing > 0.0) || !std::isfinite(o.spacing)) throw std::invalid_argument("PbfSolver: spacing must be positive");
  // At one spacing a particle of the rest lattice would have no neighbour (they are strictly closer
  // than h) and the constraint no gradient.
  if (!(h >= 1.5 * o.spacing) || !std::isfinite(h) || h > 10.0 * o.spacing)
    throw std::invalid_argument("PbfSolver: kernel_radius must be between 1.5 and 10 spacings");
  if (o.substeps < 1 || o.iterations < 1) throw std::invalid_argument("PbfSolver: substeps and iterations must be >= 1");
  if (!(o.relaxation > 0.0) || !std::isfinite(o.relaxation))
    throw std::invalid_argument("PbfSolver: relaxation must be positive");
  if (!(o.tensile_k >= 0.0) || o.tensile_n < 1 || !(o.tensile_distance > 0.0 && o.tensile_distance < 1.0))
    throw std::invalid_argument("PbfSolver: tensile_k >= 0, tensile_n >= 1 and 0 < tensile_distance < 1");
  if (!(o.xsph >= 0.0 && o.xsph <= 1.0) || !(o.vorticity >= 0.0) || !std::isfinite(o.vorticity))
    throw std::invalid_argument("PbfSolver: xsph in [0, 1] and vorticity >= 0");
  if (!((o.domain_hi - o.domain_lo).array() > 2.0 * o.spacing).all())
    throw std::invalid_argument("PbfSolver: the domain must be wider than two spacings on every axis");
  return o;
}

// Calls f(offset) for every lattice offset of spacing s within distance h of the origin, the origin included.
template <int D, class F>
void for_lattice_offsets(double s, double h, F&& f) {
  const int reach = static_cast<int>(std::ceil(h / s));
  std::array<int, D> k;
  k.fill(-reach);
  while (true) {
    VecD<D> r;
    for (int a = 0; a < D; ++a) r[a] = k[a] * s;
    if (r.squaredNorm() < h * h) f(r);
    int a = 0;
    while (a < D && k[a] == reach) k[a] = -reach, ++a;
    if (a == D) break;
    ++k[a];
  }
}

// The 2D cross product as a 1-vector (the z component) and the 3D one: the vorticity's type.
template <int D>
using Curl = Eigen::Matrix<double, D == 2 ? 1 : 3, 1>;

template <int D>
Curl<D> cross(const VecD<D>& a, const VecD<D>& b) {
  if constexpr (D == 2) return Curl<D>(a[0] * b[1] - a[1] * b[0]);
  else return a.cross(b);
}

// N x omega: in 2D omega is along z, N x (w z) = (N_y w, -N_x w).
template <int D>
VecD<D> cross(const VecD<D>& n, const Curl<D>& w) {
  if constexpr (D == 2) return VecD<D>(n[1] * w[0], -n[0] * w[0]);
  else return n.cross(w);
}

}  // namespace

template <int D>
PbfSolver<D>::PbfSolver(PbfOptions<D> options, std::vector<VecD<D>> positions, std::vector<VecD<D>> velocities)
    : options_(checked(options)),
      kernels_(support_of(options_)),
      grid_(options_.domain_lo, options_.domain_hi, support_of(options_)),
      x_(std::move(positions)),
      v_(std::move(velocities)) {
  if (x_.size() != v_.size()) throw std::invalid_argument("PbfSolver: as many velocities as positions");
  for (std::size_t i = 0; i < x_.size(); ++i) {
    if (!x_[i].allFinite() || !v_[i].allFinite())
      throw std::invalid_argument(fmt::format("PbfSolver: particle {} is not finite", i));
    if ((x_[i].array() < options_.domain_lo.array()).any() || (x_[i].array() > options_.domain_hi.array()).any())
      throw std::invalid_argument(fmt::format("PbfSolver: particle {} is outside the domain", i));
  }
  // The rest lattice: rho0 = m sum W (the mass) and sum_k |grad_k C|^2 (the scale of eps).
  double weight = 0.0, gradient = 0.0;
  for_lattice_offsets<D>(options_.spacing, kernels_.h, [&](const VecD<D>& r) {
    weight += kernels_.poly6(r.squaredNorm());
    gradient += kernels_.spiky_gradient(r).squaredNorm();
  });
  mass_ = options_.rest_density / weight;
  // Rows of the rest lattice averaged along a wall: their sum over every row (at multiples of the
  // spacing) is rho0, whatever the discrepancy between the lattice's sum and the average.
  double rows = row_density(0.0, nullptr);
  for (double z = options_.spacing; z < kernels_.h; z += options_.spacing) rows += 2.0 * row_density(z, nullptr);
  wall_row_scale_ = options_.rest_density / rows;
  const double lattice_gradient = gradient * (mass_ / options_.rest_density) * (mass_ / options_.rest_density);
  relaxation_ = options_.relaxation * lattice_gradient;
  tensile_reference_ = kernels_.poly6(std::pow(options_.tensile_distance * kernels_.h, 2));
  // s_corr enters beside the multipliers, which have units of length^2: scaled as the multiplier
  // of a rest-lattice particle whose constraint is k (W / W(dq))^n, so that k means the same at any
  // resolution (Macklin & Müller's unscaled k fits only their particle size).
  tensile_scale_ = options_.tensile_k / (lattice_gradient + relaxation_);
}

template <int D>
double PbfSolver<D>::row_density(double z, double* slope) const {
  // A(z) = integral of W_poly6 over the line (2D) or plane (3D) at distance z, and dA/dz.
  const double a2 = kernels_.h2 - z * z;
  if (a2 <= 0.0) {
    if (slope) *slope = 0.0;
    return 0.0;
  }
  if constexpr (D == 2) {
    const double c = kernels_.poly6_scale * 32.0 / 35.0;
    if (slope) *slope = -7.0 * c * z * std::pow(a2, 2.5);
    return c * std::pow(a2, 3.5);
  } else {
    const double c = kernels_.poly6_scale * std::numbers::pi / 4.0;
    if (slope) *slope = -8.0 * c * z * a2 * a2 * a2;
    return c * a2 * a2 * a2 * a2;
  }
}

template <int D>
double PbfSolver<D>::wall_density(const VecD<D>& p, VecD<D>& gradient) const {
  // The rest fluid the walls stand for: lattice rows continuing beyond each wall (the first half a
  // spacing behind it, as the clamped first row is in front), averaged along the wall, so that a
  // particle next to a wall is not under-dense and the layers next to it do not pack closer.
  // Per axis a, phi_a is the share of a rest particle's density beyond the axis's two walls; the
  // regions beyond walls of different axes overlap (edges and corners), so the walls together
  // stand for rho0 (1 - prod_a (1 - phi_a)): inclusion-exclusion with the overlaps taken as
  // products (exact for a separable kernel; poly6 nearly is).
  const double s = options_.spacing, rho0 = options_.rest_density;
  VecD<D> phi, slope;
  for (int a = 0; a < D; ++a) {
    phi[a] = 0.0;
    slope[a] = 0.0;
    for (int side = 0; side < 2; ++side) {
      const double d = side == 0 ? p[a] - options_.domain_lo[a] : options_.domain_hi[a] - p[a];
      for (double z = std::max(d, 0.0) + 0.5 * s; z < kernels_.h; z += s) {
        double dz = 0.0;
        phi[a] += wall_row_scale_ * row_density(z, &dz) / rho0;
        // dz/dp_a = +1 at the low wall, -1 at the high one (and 0 where d is clamped at 0).
        if (d > 0.0) slope[a] += (side == 0 ? 1.0 : -1.0) * wall_row_scale_ * dz / rho0;
      }
    }
  }
  double outside_none = 1.0;
  for (int a = 0; a < D; ++a) outside_none *= 1.0 - phi[a];
  for (int a = 0; a < D; ++a) {
    double others = 1.0;
    for (int b = 0; b < D; ++b)
      if (b != a) others *= 1.0 - phi[b];
    gradient[a] = rho0 * slope[a] * others;
  }
  return rho0 * (1.0 - outside_none);
}

template <int D>
double PbfSolver<D>::density_at(const std::vector<VecD<D>>& p, const NeighbourGrid<D>& grid, std::size_t i) const {
  double w = kernels_.poly6(0.0);
  for (const int* j = grid.begin(i); j != grid.end(i); ++j) w += kernels_.poly6((p[i] - p[*j]).squaredNorm());
  VecD<D> unused;
  return mass_ * w + wall_density(p[i], unused);
}

template <int D>
void PbfSolver<D>::enforce_boundaries(std::vector<VecD<D>>& p, double t) const {
  const double margin = 0.5 * options_.spacing;
  const VecD<D> lo = options_.domain_lo.array() + margin, hi = options_.domain_hi.array() - margin;
  parallel_for(p.size(), [&](std::size_t i) {
    for (const PbfObstacle<D>& o : options_.obstacles) {
      VecD<D> n;
      const double d = o.signed_distance(p[i], t, n);
      if (d < margin) p[i] += (margin - d) * n;
    }
    p[i] = p[i].cwiseMax(lo).cwiseMin(hi);  // the walls last: nothing leaves the box
  });
}

template <int D>
void PbfSolver<D>::solve_density(double dt) {
  (void)dt;
  const std::size_t n = x_.size();
  const double rho0 = options_.rest_density, scale = mass_ / rho0;
  const double self = kernels_.poly6(0.0);
  for (int iteration = 0; iteration < options_.iterations; ++iteration) {
    // lambda_i = -C_i / (sum_k |grad_k C_i|^2 + eps)  (Macklin & Müller eq. 11)
    parallel_for(n, [&](std::size_t i) {
      const VecD<D>& pi = predicted_[i];
      double w = self;
      VecD<D> grad_i = VecD<D>::Zero();
      double grad_others = 0.0;
      for (const int* j = grid_.begin(i); j != grid_.end(i); ++j) {
        const VecD<D> r = pi - predicted_[*j];
        w += kernels_.poly6(r.squaredNorm());
        const VecD<D> g = scale * kernels_.spiky_gradient(r);
        grad_i += g;
        grad_others += g.squaredNorm();
      }
      VecD<D> wall_gradient;
      density_[i] = mass_ * w + wall_density(pi, wall_gradient);
      wall_gradient_[i] = wall_gradient / rho0;
      grad_i += wall_gradient_[i];
      const double c = options_.unilateral ? std::max(density_[i] / rho0 - 1.0, 0.0) : density_[i] / rho0 - 1.0;
      lambda_[i] = -c / (grad_i.squaredNorm() + grad_others + relaxation_);
    });
    // dp_i = (m / rho0) sum_j (lambda_i + lambda_j + s_corr) grad W(p_i - p_j)  (eq. 12, 14)
    const double k = tensile_scale_;
    const int power = options_.tensile_n;
    parallel_for(n, [&](std::size_t i) {
      const VecD<D>& pi = predicted_[i];
      VecD<D> dp = VecD<D>::Zero();
      for (const int* j = grid_.begin(i); j != grid_.end(i); ++j) {
        const VecD<D> r = pi - predicted_[*j];
        double s_corr = 0.0;
        if (k > 0.0) {
          const double ratio = kernels_.poly6(r.squaredNorm()) / tensile_reference_;
          double term = ratio;  // ratio^n by multiplication: std::pow was a third of the sweep
          for (int e = 1; e < power; ++e) term *= ratio;
          s_corr = -k * term;
        }
        dp += (lambda_[i] + lambda_[*j] + s_corr) * kernels_.spiky_gradient(r);
      }
      correction_[i] = scale * dp + lambda_[i] * wall_gradient_[i];
    });
    parallel_for(n, [&](std::size_t i) { predicted_[i] += correction_[i]; });
    enforce_boundaries(predicted_, time_ + dt);
  }
}

template <int D>
void PbfSolver<D>::update_velocities(double dt) {
  const std::size_t n = x_.size();
  parallel_for(n, [&](std::size_t i) { v_[i] = (predicted_[i] - x_[i]) / dt; });
  if (options_.vorticity == 0.0 && options_.xsph == 0.0) return;
  // Densities at the corrected positions: the neighbours' volumes m / rho_j.
  parallel_for(n, [&](std::size_t i) { density_[i] = density_at(predicted_, grid_, i); });
  if (options_.vorticity > 0.0) {
    // omega_i = sum_j V_j grad W_ij x (v_j - v_i); eta_i = sum_j V_j (|omega_j| - |omega_i|) grad W_ij;
    // v_i += dt eps N x omega_i with N = eta / |eta|  (Macklin & Müller eq. 15-16)
    parallel_for(n, [&](std::size_t i) {
      Curl<D> w = Curl<D>::Zero();
      for (const int* j = grid_.begin(i); j != grid_.end(i); ++j)
        w += mass_ / density_[*j] * cross<D>(kernels_.spiky_gradient(predicted_[i] - predicted_[*j]), VecD<D>(v_[*j] - v_[i]));
      omega_[i] = w;
    });
    parallel_for(n, [&](std::size_t i) {
      VecD<D> eta = VecD<D>::Zero();
      const double wi = omega_[i].norm();
      for (const int* j = grid_.begin(i); j != grid_.end(i); ++j)
        eta += mass_ / density_[*j] * (omega_[*j].norm() - wi) * kernels_.spiky_gradient(predicted_[i] - predicted_[*j]);
      const double len = eta.norm();
      vorticity_grad_[i] = len > 1e-12 ? VecD<D>(dt * options_.vorticity / len * cross<D>(eta, omega_[i]))
                                       : VecD<D>(VecD<D>::Zero());
    });
    parallel_for(n, [&](std::size_t i) { v_[i] += vorticity_grad_[i]; });
  }
  if (options_.xsph > 0.0) {
    // v_i += c sum_j V_ij (v_j - v_i) W_ij  (eq. 17) with the pair's volume V_ij = 2 m / (rho_i + rho_j),
    // symmetric so that the exchange conserves momentum; from the velocities before any is changed.
    parallel_for(n, [&](std::size_t i) {
      VecD<D> dv = VecD<D>::Zero();
      for (const int* j = grid_.begin(i); j != grid_.end(i); ++j)
        dv += 2.0 * mass_ / (density_[i] + density_[*j]) * kernels_.poly6((predicted_[i] - predicted_[*j]).squaredNorm()) *
              (v_[*j] - v_[i]);
      correction_[i] = options_.xsph * dv;
    });
    parallel_for(n, [&](std::size_t i) { v_[i] += correction_[i]; });
  }
}

template <int D>
void PbfSolver<D>::step(double dt) {
  if (!(dt > 0.0) || !std::isfinite(dt)) throw std::invalid_argument("PbfSolver::step: dt must be positive");
  if (const std::string problem = first_problem(); !problem.empty()) throw std::runtime_error(problem);
  const std::size_t n = x_.size();
  predicted_.resize(n);
  correction_.resize(n);
  vorticity_grad_.resize(n);
  density_.resize(n);
  lambda_.resize(n);
  omega_.resize(n);
  wall_gradient_.resize(n);
  timing_ = PbfStepTiming{};
  const double h = dt / options_.substeps;
  for (int sub = 0; sub < options_.substeps; ++sub) {
    auto t0 = std::chrono::steady_clock::now();
    parallel_for(n, [&](std::size_t i) {
      v_[i] += h * options_.gravity;
      predicted_[i] = x_[i] + h * v_[i];
    });
    enforce_boundaries(predicted_, time_ + h);
    grid_.build(predicted_);
    timing_.neighbours_ms += ms_since(t0);
    t0 = std::chrono::steady_clock::now();
    solve_density(h);
    timing_.density_ms += ms_since(t0);
    t0 = std::chrono::steady_clock::now();
    update_velocities(h);
    x_.swap(predicted_);
    time_ += h;
    timing_.velocity_ms += ms_since(t0);
  }
}

template <int D>
std::vector<double> PbfSolver<D>::densities() const {
  NeighbourGrid<D> grid(options_.domain_lo, options_.domain_hi, kernels_.h);
  grid.build(x_);
  std::vector<double> rho(x_.size());
  parallel_for(x_.size(), [&](std::size_t i) { rho[i] = density_at(x_, grid, i); });
  return rho;
}

template <int D>
typename PbfSolver<D>::DensityError PbfSolver<D>::density_error() const {
  const std::vector<double> rho = densities();
  DensityError e;
  if (rho.empty()) return e;
  for (double r : rho) {
    const double c = std::max(r / options_.rest_density - 1.0, 0.0);
    e.mean += c;
    e.max = std::max(e.max, c);
  }
  e.mean /= static_cast<double>(rho.size());
  return e;
}

template <int D>
std::string PbfSolver<D>::first_problem() const {
  for (std::size_t i = 0; i < x_.size(); ++i)
    if (!x_[i].allFinite() || !v_[i].allFinite()) return fmt::format("particle {} is not finite", i);
  return {};
}

template <int D>
VecD<D> PbfSolver<D>::linear_momentum() const {
  VecD<D> p = VecD<D>::Zero();
  for (const VecD<D>& v : v_) p += mass_ * v;
  return p;
}

template <int D>
Vec3 PbfSolver<D>::angular_momentum() const {
  Vec3 l = Vec3::Zero();
  for (std::size_t i = 0; i < x_.size(); ++i) {
    Vec3 x = Vec3::Zero(), v = Vec3::Zero();
    x.head<D>() = x_[i];
    v.head<D>() = v_[i];
    l += mass_ * x.cross(v);
  }
  return l;
}

template <int D>
double PbfSolver<D>::kinetic_energy() const {
  double e = 0.0;
  for (const VecD<D>& v : v_) e += 0.5 * mass_ * v.squaredNorm();
  return e;
}

template <int D>
void PbfSolver<D>::save(ArchiveWriter& out) const {
  out.tag("pbf");
  out.integer(D);
  out.integer(static_cast<std::int64_t>(x_.size()));
  out.real(time_);
  save_fixed_arrays(out, x_);
  save_fixed_arrays(out, v_);
}

template <int D>
void PbfSolver<D>::load(ArchiveReader& in) {
  in.expect("pbf");
  const std::int64_t dim = in.integer();
  if (dim != D) throw ArchiveError(fmt::format("a {}D fluid state, this solver is {}D", dim, D));
  const std::int64_t count = in.integer();
  if (count != static_cast<std::int64_t>(x_.size()))
    throw ArchiveError(fmt::format("{} particles, this scene makes {}", count, x_.size()));
  const double time = in.real();
  std::vector<VecD<D>> x(x_.size()), v(v_.size());
  load_fixed_arrays(in, x, "positions");
  load_fixed_arrays(in, v, "velocities");
  x_ = std::move(x);
  v_ = std::move(v);
  time_ = time;
}

template class PbfSolver<2>;
template class PbfSolver<3>;

}  // namespace softsim
