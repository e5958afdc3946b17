#include "softsim/mpm/mpm_solver.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <Eigen/Geometry>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "softsim/core/archive_fixed_arrays.hpp"
#include "softsim/core/binary_archive.hpp"
#include "softsim/core/parallel.hpp"

namespace softsim {

namespace {

constexpr int kBlock = 4;  // grid nodes per block side; must be >= kernel support - 1

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Applies a boundary condition to velocity v of a node inside an obstacle moving at v_obstacle,
// with n the obstacle's outward normal.
template <int D>
void apply_boundary(MpmBoundary type, double friction, const VecD<D>& n, const VecD<D>& v_obstacle, VecD<D>& v) {
  VecD<D> rel = v - v_obstacle;
  const double vn = n.dot(rel);
  switch (type) {
    case MpmBoundary::sticky:
      rel.setZero();
      break;
    case MpmBoundary::slip:
      rel -= vn * n;
      break;
    case MpmBoundary::separate:
      if (vn < 0.0) rel -= vn * n;
      break;
    case MpmBoundary::friction:
      if (vn < 0.0) rel = (1.0 - friction) * (rel - vn * n);
      break;
  }
  v = v_obstacle + rel;
}

// The particle's stencil: per-axis weights, and for node offsets the weight and its gradient.
template <int D>
struct Stencil {
  std::array<AxisWeights, D> axis;
  int support = 3;
  int count() const { return D == 2 ? support * support : support * support * support; }
  // Offset k (0 <= k < count) as per-axis node offsets, axis 0 fastest.
  std::array<int, D> offset(int k) const {
    std::array<int, D> o;
    for (int a = 0; a < D; ++a) {
      o[a] = k % support;
      k /= support;
    }
    return o;
  }
  double weight(const std::array<int, D>& o) const {
    double w = 1.0;
    for (int a = 0; a < D; ++a) w *= axis[a].w[o[a]];
    return w;
  }
  std::array<int, D> node(const std::array<int, D>& o) const {
    std::array<int, D> n;
    for (int a = 0; a < D; ++a) n[a] = axis[a].base + o[a];
    return n;
  }
  VecD<D> gradient(const std::array<int, D>& o) const {
    VecD<D> g;
    for (int a = 0; a < D; ++a) {
      double d = axis[a].dw[o[a]];
      for (int b = 0; b < D; ++b)
        if (b != a) d *= axis[b].w[o[b]];
      g[a] = d;
    }
    return g;
  }
};

template <int D>
Stencil<D> stencil_of(MpmKernel kernel, const VecD<D>& x, const VecD<D>& origin, double dx) {
  Stencil<D> s;
  s.support = kernel_support(kernel);
  for (int a = 0; a < D; ++a) s.axis[a] = axis_weights(kernel, x[a] - origin[a], dx);
  return s;
}

}  // namespace

template <int D>
MpmSolver<D>::MpmSolver(MpmOptions<D> options, MpmParticles<D> particles)
    : options_(std::move(options)), particles_(std::move(particles)) {
  if (!(options_.dx > 0.0)) throw std::invalid_argument("MPM: the grid spacing dx must be positive");
  long nodes = 1, blocks = 1;
  for (int a = 0; a < D; ++a) {
    if (options_.cells[a] < 2 * kernel_support(options_.kernel))
      throw std::invalid_argument(fmt::format("MPM: the grid needs at least {} cells per axis",
                                              2 * kernel_support(options_.kernel)));
    nodes_[a] = options_.cells[a] + 1;
    blocks_[a] = (nodes_[a] + kBlock - 1) / kBlock;
    nodes *= nodes_[a];
    blocks *= blocks_[a];
  }
  if (!(options_.damping >= 0.0) || !std::isfinite(options_.damping))
    throw std::invalid_argument("MPM: damping must be a non-negative rate (1/s)");
  if (options_.transfer == MpmTransfer::flip && !(options_.flip_ratio >= 0.0 && options_.flip_ratio <= 1.0))
    throw std::invalid_argument("MPM: flip_ratio must lie in [0, 1]");
  grid_mass_.assign(nodes, 0.0);
  grid_velocity_.assign(nodes, VecD<D>::Zero());
  grid_velocity_before_.assign(nodes, VecD<D>::Zero());
  grid_impulse_.assign(nodes, VecD<D>::Zero());
  block_start_.assign(blocks + 1, 0);
  const std::size_t n = particles_.size();
  const MpmParticles<D>& q = particles_;
  for (std::size_t size : {q.v.size(), q.F.size(), q.C.size(), q.mass.size(), q.volume.size(),
                           q.log_volume_correction.size(), q.plastic_strain.size(), q.material.size()})
    if (size != n) throw std::invalid_argument("MPM: the particle arrays have different lengths");
  for (std::size_t p = 0; p < n; ++p) {
    const std::string problem = particle_problem(p);
    if (!problem.empty()) throw std::invalid_argument(problem);
    particles_.mass[p] = particles_.volume[p] * options_.materials[particles_.material[p]].density;
  }
}

template <int D>
long MpmSolver<D>::node_index(const std::array<int, D>& node) const {
  long id = 0, stride = 1;
  for (int a = 0; a < D; ++a) {
    id += node[a] * stride;
    stride *= nodes_[a];
  }
  return id;
}

template <int D>
std::string MpmSolver<D>::particle_problem(std::size_t p) const {
  const int m = particles_.material[p];
  if (m < 0 || m >= static_cast<int>(options_.materials.size()))
    return fmt::format("MPM: particle {} has material {}, but there are {}", p, m, options_.materials.size());
  const VecD<D>& x = particles_.x[p];
  // In cells from the origin, checked in floating point before any conversion to int: the
  // stencil's first node is floor(u - 1/2) (quadratic) or floor(u) - 1 (cubic).
  const int support = kernel_support(options_.kernel);
  const double shift = options_.kernel == MpmKernel::quadratic ? 0.5 : 1.0;
  bool inside = particles_.v[p].allFinite() && particles_.F[p].allFinite();
  for (int a = 0; a < D && inside; ++a) {
    const double u = (x[a] - options_.origin[a]) / options_.dx;
    const double base = std::floor(u - shift);
    inside = std::isfinite(u) && base >= 0.0 && base + support <= nodes_[a];
  }
  // The same with the stencil's own integer arithmetic, now that the conversion is safe.
  for (int a = 0; a < D && inside; ++a) {
    const int base = axis_base(options_.kernel, x[a] - options_.origin[a], options_.dx);
    inside = base >= 0 && base + support <= nodes_[a];
  }
  if (inside) return "";
  return fmt::format("MPM: particle {} at ({}) is outside the grid's interior or not finite (t = {:g} s)", p,
                     fmt::join(x.data(), x.data() + D, ", "), time_);
}

template <int D>
VecD<D> MpmSolver<D>::node_position(const std::array<int, D>& node) const {
  VecD<D> x;
  for (int a = 0; a < D; ++a) x[a] = options_.origin[a] + node[a] * options_.dx;
  return x;
}

template <int D>
double MpmSolver<D>::affine_scale() const {
  return options_.transfer == MpmTransfer::apic ? apic_inertia_scale(options_.kernel, options_.dx) : 0.0;
}

template <int D>
void MpmSolver<D>::particles_to_grid(double dt) {
  const std::size_t n = particles_.size();
  std::fill(grid_mass_.begin(), grid_mass_.end(), 0.0);
  std::fill(grid_velocity_.begin(), grid_velocity_.end(), VecD<D>::Zero());
  std::fill(grid_impulse_.begin(), grid_impulse_.end(), VecD<D>::Zero());
  // Bucket the particles by the block of their stencil's first node (counting sort: stable, so
  // a block's particles keep their index order).
  std::vector<int> block_of(n);
  parallel_for(n, [&](std::size_t p) {
    long id = 0, stride = 1;
    for (int a = 0; a < D; ++a) {
      id += (axis_base(options_.kernel, particles_.x[p][a] - options_.origin[a], options_.dx) / kBlock) * stride;
      stride *= blocks_[a];
    }
    block_of[p] = static_cast<int>(id);
  });
  std::fill(block_start_.begin(), block_start_.end(), 0);
  for (std::size_t p = 0; p < n; ++p) ++block_start_[block_of[p] + 1];
  for (std::size_t b = 1; b < block_start_.size(); ++b) block_start_[b] += block_start_[b - 1];
  order_.resize(n);
  std::vector<int> fill(block_start_.begin(), block_start_.end() - 1);
  for (std::size_t p = 0; p < n; ++p) order_[fill[block_of[p]]++] = static_cast<int>(p);

  const double s_affine = affine_scale();
  const int num_blocks = static_cast<int>(block_start_.size()) - 1;
  for (int colour = 0; colour < (1 << D); ++colour) {
    std::vector<int> blocks;
    for (int b = 0; b < num_blocks; ++b) {
      if (block_start_[b] == block_start_[b + 1]) continue;
      int rest = b, c = 0;
      for (int a = 0; a < D; ++a) {
        c |= ((rest % blocks_[a]) & 1) << a;
        rest /= blocks_[a];
      }
      if (c == colour) blocks.push_back(b);
    }
    parallel_for_each_heavy(blocks.size(), [&](std::size_t i) {
      const int b = blocks[i];
      for (int k = block_start_[b]; k < block_start_[b + 1]; ++k) {
        const int p = order_[k];
        const VecD<D>& xp = particles_.x[p];
        const Stencil<D> s = stencil_of<D>(options_.kernel, xp, options_.origin, options_.dx);
        const MatD<D>& F = particles_.F[p];
        // dt f_i = -dt V0 P F^T grad w_ip (the stress's force on node i).
        const MatD<D> stress =
            -dt * particles_.volume[p] *
            mpm_stress<D>(options_.materials[particles_.material[p]], F, particles_.log_volume_correction[p]) *
            F.transpose();
        const double m = particles_.mass[p];
        const MatD<D> affine = s_affine > 0.0 ? MatD<D>(m * particles_.C[p]) : MatD<D>::Zero();
        for (int j = 0; j < s.count(); ++j) {
          const std::array<int, D> o = s.offset(j), node = s.node(o);
          const VecD<D> xi = node_position(node);
          const double w = s.weight(o);
          const long id = node_index(node);
          grid_mass_[id] += w * m;
          grid_velocity_[id] += w * (m * particles_.v[p] + affine * (xi - xp));
          grid_impulse_[id] += stress * s.gradient(o);
        }
      }
    });
  }
}

template <int D>
void MpmSolver<D>::update_grid(double dt) {
  const long nodes = static_cast<long>(grid_mass_.size());
  parallel_for(nodes, [&](std::size_t i) {
    if (grid_mass_[i] <= 0.0) {
      grid_velocity_[i].setZero();
      grid_velocity_before_[i].setZero();
      return;
    }
    // Transferred momentum to velocity (FLIP's "before"), then the stress impulse and gravity.
    grid_velocity_before_[i] = grid_velocity_[i] / grid_mass_[i];
    VecD<D>& v = grid_velocity_[i];
    v = (grid_velocity_[i] + grid_impulse_[i]) / grid_mass_[i];
    v += dt * options_.gravity;
    if (options_.damping > 0.0) v *= std::exp(-options_.damping * dt);
    std::array<int, D> node;
    long rest = static_cast<long>(i);
    for (int a = 0; a < D; ++a) {
      node[a] = static_cast<int>(rest % nodes_[a]);
      rest /= nodes_[a];
    }
    const VecD<D> xi = node_position(node);
    if (options_.wall_nodes > 0) {
      for (int a = 0; a < D; ++a) {
        VecD<D> n = VecD<D>::Zero();
        if (node[a] < options_.wall_nodes) n[a] = 1.0;
        else if (node[a] > nodes_[a] - 1 - options_.wall_nodes) n[a] = -1.0;
        else continue;
        apply_boundary<D>(options_.walls, options_.wall_friction, n, VecD<D>::Zero(), v);
      }
    }
    for (const MpmCollider<D>& c : options_.colliders) {
      VecD<D> n;
      if (c.signed_distance(xi, time_, n) <= 0.0) apply_boundary<D>(c.boundary, c.friction, n, c.velocity, v);
    }
  });
}

template <int D>
void MpmSolver<D>::grid_to_particles(double dt) {
  const double s_affine = affine_scale();
  const MpmTransfer transfer = options_.transfer;
  parallel_for(particles_.size(), [&](std::size_t p) {
    const VecD<D> xp = particles_.x[p];
    const Stencil<D> s = stencil_of<D>(options_.kernel, xp, options_.origin, options_.dx);
    VecD<D> v_pic = VecD<D>::Zero(), dv_flip = VecD<D>::Zero();
    MatD<D> grad_v = MatD<D>::Zero(), B = MatD<D>::Zero();
    for (int j = 0; j < s.count(); ++j) {
      const std::array<int, D> o = s.offset(j), node = s.node(o);
      const VecD<D> xi = node_position(node);
      const long id = node_index(node);
      const double w = s.weight(o);
      const VecD<D>& vi = grid_velocity_[id];
      v_pic += w * vi;
      grad_v += vi * s.gradient(o).transpose();
      if (transfer == MpmTransfer::apic) B += w * vi * (xi - xp).transpose();
      if (transfer == MpmTransfer::flip) dv_flip += w * (vi - grid_velocity_before_[id]);
    }
    switch (transfer) {
      case MpmTransfer::pic:
        particles_.v[p] = v_pic;
        break;
      case MpmTransfer::flip:
        particles_.v[p] = options_.flip_ratio * (particles_.v[p] + dv_flip) + (1.0 - options_.flip_ratio) * v_pic;
        break;
      case MpmTransfer::apic:
        particles_.v[p] = v_pic;
        particles_.C[p] = B / s_affine;
        break;
    }
    const MatD<D> F_trial = (MatD<D>::Identity() + dt * grad_v) * particles_.F[p];
    particles_.F[p] = mpm_return_mapping<D>(options_.materials[particles_.material[p]], F_trial,
                                            particles_.log_volume_correction[p], particles_.plastic_strain[p]);
    particles_.x[p] = xp + dt * v_pic;  // advected with the grid's (PIC) velocity
  });
}

template <int D>
void MpmSolver<D>::step(double dt) {
  if (!(dt > 0.0) || !std::isfinite(dt)) throw std::invalid_argument("MPM: the time step must be positive");
  if (const std::string problem = first_problem(); !problem.empty()) throw std::runtime_error(problem);
  auto t0 = std::chrono::steady_clock::now();
  particles_to_grid(dt);
  timing_.p2g_ms = ms_since(t0);
  t0 = std::chrono::steady_clock::now();
  update_grid(dt);
  timing_.grid_ms = ms_since(t0);
  t0 = std::chrono::steady_clock::now();
  grid_to_particles(dt);
  timing_.g2p_ms = ms_since(t0);
  time_ += dt;
}

template <int D>
std::string MpmSolver<D>::first_problem() const {
  // Checked in parallel (this runs before every step); the lowest failing index is reported,
  // whatever the thread count.
  std::atomic<std::size_t> first{particles_.size()};
  parallel_for(particles_.size(), [&](std::size_t p) {
    if (p >= first.load(std::memory_order_relaxed) || particle_problem(p).empty()) return;
    std::size_t seen = first.load();
    while (p < seen && !first.compare_exchange_weak(seen, p)) {
    }
  });
  return first < particles_.size() ? particle_problem(first) : "";
}

template <int D>
double MpmSolver<D>::stable_time_step(double cfl) const {
  double fastest = 0.0;
  for (std::size_t p = 0; p < particles_.size(); ++p) {
    // Snow hardens: its wave speed grows with the square root of the hardening factor.
    const MpmMaterial& m = options_.materials[particles_.material[p]];
    const double c = m.wave_speed() * std::sqrt(m.hardening_scale(particles_.log_volume_correction[p]));
    fastest = std::max(fastest, particles_.v[p].norm() + c);
  }
  return fastest > 0.0 ? cfl * options_.dx / fastest : HUGE_VAL;
}

template <int D>
VecD<D> MpmSolver<D>::linear_momentum() const {
  VecD<D> total = VecD<D>::Zero();
  for (std::size_t p = 0; p < particles_.size(); ++p) total += particles_.mass[p] * particles_.v[p];
  return total;
}

template <int D>
Vec3 MpmSolver<D>::angular_momentum() const {
  const double s = affine_scale();
  Vec3 total = Vec3::Zero();
  for (std::size_t p = 0; p < particles_.size(); ++p) {
    const double m = particles_.mass[p];
    const MatD<D>& C = particles_.C[p];
    Vec3 x = Vec3::Zero(), v = Vec3::Zero();
    x.head<D>() = particles_.x[p];
    v.head<D>() = particles_.v[p];
    total += m * x.cross(v);
    if constexpr (D == 2) {
      total[2] += m * s * (C(1, 0) - C(0, 1));
    } else {
      total += m * s * Vec3(C(2, 1) - C(1, 2), C(0, 2) - C(2, 0), C(1, 0) - C(0, 1));
    }
  }
  return total;
}

template <int D>
double MpmSolver<D>::kinetic_energy() const {
  const double s = affine_scale();
  double total = 0.0;
  for (std::size_t p = 0; p < particles_.size(); ++p)
    total += 0.5 * particles_.mass[p] * (particles_.v[p].squaredNorm() + s * particles_.C[p].squaredNorm());
  return total;
}

template <int D>
void MpmSolver<D>::save(ArchiveWriter& out) const {
  out.tag("mpm");
  out.integer(D);
  out.integer(static_cast<std::int64_t>(particles_.size()));
  out.real(time_);
  save_fixed_arrays(out, particles_.x);
  save_fixed_arrays(out, particles_.v);
  save_fixed_arrays(out, particles_.F);
  save_fixed_arrays(out, particles_.C);
  out.reals(particles_.mass);
  out.reals(particles_.volume);
  out.reals(particles_.log_volume_correction);
  out.reals(particles_.plastic_strain);
  std::vector<double> material(particles_.material.begin(), particles_.material.end());
  out.reals(material);
}

template <int D>
void MpmSolver<D>::load(ArchiveReader& in) {
  in.expect("mpm");
  const std::int64_t dim = in.integer();
  if (dim != D) throw ArchiveError(fmt::format("a {}D MPM state, this solver is {}D", dim, D));
  const std::int64_t count = in.integer();
  if (count != static_cast<std::int64_t>(particles_.size()))
    throw ArchiveError(fmt::format("{} particles, this scene makes {}", count, particles_.size()));
  MpmParticles<D> loaded = particles_;  // filled in full before the solver's state is replaced
  const double time = in.real();
  load_fixed_arrays(in, loaded.x, "positions");
  load_fixed_arrays(in, loaded.v, "velocities");
  load_fixed_arrays(in, loaded.F, "deformation gradients");
  load_fixed_arrays(in, loaded.C, "affine velocities");
  const auto load_reals = [&](std::vector<double>& values, const char* what) {
    std::vector<double> read = in.reals();
    if (read.size() != values.size())
      throw ArchiveError(fmt::format("{}: {} values for {} particles", what, read.size(), values.size()));
    values = std::move(read);
  };
  load_reals(loaded.mass, "masses");
  load_reals(loaded.volume, "volumes");
  load_reals(loaded.log_volume_correction, "plastic volume changes");
  load_reals(loaded.plastic_strain, "plastic strains");
  std::vector<double> material(particles_.size());
  load_reals(material, "materials");
  for (std::size_t p = 0; p < material.size(); ++p) {
    if (material[p] != loaded.material[p])
      throw ArchiveError(fmt::format("particle {} has material {}, this scene gives it {}", p, material[p],
                                     loaded.material[p]));
  }
  particles_ = std::move(loaded);
  time_ = time;
}

template struct MpmCollider<2>;
template struct MpmCollider<3>;
template class MpmSolver<2>;
template class MpmSolver<3>;

}  // namespace softsim
