#include "softsim/integrate/constraint/corrective_motion.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "softsim/core/parallel.hpp"
#include "softsim/solve/solver_timing.hpp"

namespace softsim {

namespace {

using Clock = std::chrono::steady_clock;

// Right-hand sides per multi-column solve: at most ~64 MB of n-long columns, a multiple of 3.
Eigen::Index column_batch(Eigen::Index n) {
  const Eigen::Index cols = std::max<Eigen::Index>(3, (8 << 20) / std::max<Eigen::Index>(1, n));
  return std::max<Eigen::Index>(3, cols - cols % 3);
}

// The contacts' vertices that can move, numbered in order of appearance.
struct ContactVertices {
  std::vector<int> ids;                     // global vertex ids
  std::vector<std::array<int, 4>> local;    // per contact and stencil vertex: index into ids, -1 if it cannot move
};

// Vertices without DOFs (static obstacles) and vertices whose DOFs are all prescribed (A^-1 is
// zero on them) are left out: their compliance is zero.
ContactVertices contact_vertices(const CollisionMesh& mesh, const std::vector<ContactConstraint>& contacts,
                                 const std::vector<char>& fixed) {
  auto pinned = [&](int id) {
    if (mesh.is_static_vertex(id)) return true;
    if (fixed.empty()) return false;
    for (int i = 0; i < 3; ++i)
      if (!fixed[static_cast<std::size_t>(3 * id + i)]) return false;
    return true;
  };
  ContactVertices cv;
  std::vector<int> index(static_cast<std::size_t>(mesh.num_total_vertices()), -1);
  cv.local.resize(contacts.size());
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    cv.local[k].fill(-1);
    const ContactStencil& s = contacts[k].stencil;
    for (int a = 0; a < s.num_vertices; ++a) {
      const int id = s.ids[static_cast<std::size_t>(a)];
      if (pinned(id)) continue;
      int& i = index[static_cast<std::size_t>(id)];
      if (i < 0) {
        i = static_cast<int>(cv.ids.size());
        cv.ids.push_back(id);
      }
      cv.local[k][static_cast<std::size_t>(a)] = i;
    }
  }
  return cv;
}

}  // namespace

CorrectionResult corrective_motion(const ConstraintContact& contact, const std::vector<ContactConstraint>& contacts,
                                   const VecX& x_start, const VecX& x_free, double h, const SolveColumns& solve,
                                   const ConstraintSolveOptions& options) {
  CorrectionResult result;
  result.x = x_free;
  const Eigen::Index m = static_cast<Eigen::Index>(contacts.size());
  if (m == 0) return result;
  const CollisionMesh& mesh = contact.collision_mesh();
  const auto& obstacles = contact.obstacles();
  const Eigen::Index n = x_free.size();
  const double h2 = h * h;
  const bool fast = options.update == ConstraintUpdate::fast;
  ConstraintPhaseTimes& times = result.times;
  auto fail = [&](const char* why) {
    result.ok = false;
    result.failure = why;
    return result;
  };

  const ContactVertices cv = contact_vertices(mesh, contacts, contact.fixed_dofs());
  const Eigen::Index nv3 = 3 * static_cast<Eigen::Index>(cv.ids.size());
  auto weight = [&](Eigen::Index k, int a) { return contacts[static_cast<std::size_t>(k)].weight[static_cast<std::size_t>(a)]; };
  auto local = [&](Eigen::Index k, int a) { return cv.local[static_cast<std::size_t>(k)][static_cast<std::size_t>(a)]; };
  auto stencil_size = [&](Eigen::Index k) { return contacts[static_cast<std::size_t>(k)].stencil.num_vertices; };
  // x += h^2 A^-1 J_g^T u for world-axes forces u (3 per contact): one solve (eqs. 20, 24).
  auto correct = [&](const VecX& u, VecX& positions) {
    MatX rhs = MatX::Zero(n, 1), X;
    for (Eigen::Index k = 0; k < m; ++k)
      for (int a = 0; a < stencil_size(k); ++a)
        if (local(k, a) >= 0)
          rhs.block<3, 1>(3 * static_cast<Eigen::Index>(cv.ids[static_cast<std::size_t>(local(k, a))]), 0) +=
              weight(k, a) * u.segment<3>(3 * k);
    if (!solve(rhs, X)) return false;
    positions.noalias() += h2 * X.col(0);
    return true;
  };

  VertexRows V = mesh.positions(x_free);
  std::vector<Vec3> r_start(static_cast<std::size_t>(m));
  {
    const VertexRows V0 = mesh.positions(x_start);
    for (Eigen::Index k = 0; k < m; ++k) r_start[static_cast<std::size_t>(k)] = relative_position(contacts[static_cast<std::size_t>(k)], V0);
  }
  std::vector<double> mu(static_cast<std::size_t>(m));
  for (Eigen::Index k = 0; k < m; ++k) mu[static_cast<std::size_t>(k)] = contacts[static_cast<std::size_t>(k)].mu;

  // Fast update: W_S = h^2 S A^-1 S^T, W_S B^T and W_g = B W_S B^T, once per step.
  MatX WS, WSB, Wg;
  VecX y, total_world;  // the contact vertices' positions; sum_i C_i^T lambda_i
  if (fast) {
    const auto t = Clock::now();
    WS.resize(nv3, nv3);
    const Eigen::Index batch = column_batch(n);
    MatX B, X;
    for (Eigen::Index c0 = 0; c0 < nv3; c0 += batch) {
      const Eigen::Index cols = std::min(batch, nv3 - c0);
      B.setZero(n, cols);
      for (Eigen::Index j = 0; j < cols; ++j)
        B(3 * static_cast<Eigen::Index>(cv.ids[static_cast<std::size_t>((c0 + j) / 3)]) + (c0 + j) % 3, j) = 1.0;
      if (!solve(B, X)) return fail("the compliance solve failed");
      for (std::size_t i = 0; i < cv.ids.size(); ++i)
        WS.block(3 * static_cast<Eigen::Index>(i), c0, 3, cols) = h2 * X.middleRows<3>(3 * static_cast<Eigen::Index>(cv.ids[i]));
    }
    WSB.setZero(nv3, 3 * m);
    parallel_for(static_cast<std::size_t>(m), [&](std::size_t kk) {
      const auto k = static_cast<Eigen::Index>(kk);
      for (int a = 0; a < stencil_size(k); ++a)
        if (local(k, a) >= 0) WSB.middleCols<3>(3 * k) += weight(k, a) * WS.middleCols<3>(3 * local(k, a));
    });
    Wg.setZero(3 * m, 3 * m);
    parallel_for(static_cast<std::size_t>(m), [&](std::size_t kk) {
      const auto k = static_cast<Eigen::Index>(kk);
      for (int a = 0; a < stencil_size(k); ++a)
        if (local(k, a) >= 0) Wg.middleRows<3>(3 * k) += weight(k, a) * WSB.middleRows<3>(3 * local(k, a));
    });
    y.resize(nv3);
    for (std::size_t i = 0; i < cv.ids.size(); ++i) y.segment<3>(3 * static_cast<Eigen::Index>(i)) = V.row(cv.ids[i]).transpose();
    total_world.setZero(3 * m);
    times.build_ms += ms_since(t);
  }

  std::vector<Mat3> C(static_cast<std::size_t>(m)), C_previous(static_cast<std::size_t>(m));
  VecX Lambda = VecX::Zero(3 * m), rotated(3 * m), delta(3 * m), increment(3 * m);
  MatX W(3 * m, 3 * m);
  VecX x = x_free;
  const int iterations = std::max(1, options.newton_iterations);
  for (int it = 0; it < iterations; ++it) {
    if (it > 0) {
      if (fast)
        for (std::size_t i = 0; i < cv.ids.size(); ++i) V.row(cv.ids[i]) = y.segment<3>(3 * static_cast<Eigen::Index>(i)).transpose();
      else
        V = mesh.positions(x);
    }
    // Directions and gaps at x_i (eqs. 7, 10, 22); the previous force in the new frames.
    for (Eigen::Index k = 0; k < m; ++k) {
      const auto kk = static_cast<std::size_t>(k);
      const ContactConstraint& c = contacts[kk];
      const ContactGeometry g = contact_geometry(c, V, obstacles);
      const Vec3 r = relative_position(c, V);
      const Vec3 normal = g.valid ? g.normal : C[kk].row(0).transpose().eval();
      const double gap = g.valid ? g.gap : normal.dot(r);
      if (it == 0) {
        C[kk] = contact_frame(normal);
      } else {
        C_previous[kk] = C[kk];
        const Vec3 t1 = C[kk].row(1).transpose();
        C[kk] = contact_frame(normal, &t1);
      }
      const Vec3 slide = r - r_start[kk];
      delta.segment<3>(3 * k) = Vec3(gap, C[kk].row(1).dot(slide), C[kk].row(2).dot(slide));
      rotated.segment<3>(3 * k) = it == 0 ? Vec3::Zero().eval()
                                          : (C[kk] * (C_previous[kk].transpose() * Lambda.segment<3>(3 * k))).eval();
    }
    // W_i (eq. 22 or 28).
    auto t = Clock::now();
    if (fast) {
      parallel_for(static_cast<std::size_t>(m), [&](std::size_t ll) {
        const auto l = static_cast<Eigen::Index>(ll);
        const Eigen::Matrix<double, Eigen::Dynamic, 3> right = Wg.middleCols<3>(3 * l) * C[ll].transpose();
        for (Eigen::Index k = 0; k < m; ++k)
          W.block<3, 3>(3 * k, 3 * l) = C[static_cast<std::size_t>(k)] * right.middleRows<3>(3 * k);
      });
    } else {
      const Eigen::Index batch = column_batch(n) / 3;
      MatX B, X;
      for (Eigen::Index k0 = 0; k0 < m; k0 += batch) {
        const Eigen::Index b = std::min(batch, m - k0);
        B.setZero(n, 3 * b);
        for (Eigen::Index k = k0; k < k0 + b; ++k)
          for (int a = 0; a < stencil_size(k); ++a)
            if (local(k, a) >= 0)
              B.block<3, 3>(3 * static_cast<Eigen::Index>(cv.ids[static_cast<std::size_t>(local(k, a))]), 3 * (k - k0)) +=
                  weight(k, a) * C[static_cast<std::size_t>(k)].transpose();
        if (!solve(B, X)) return fail("the compliance solve failed");
        parallel_for(static_cast<std::size_t>(m), [&](std::size_t ll) {
          const auto l = static_cast<Eigen::Index>(ll);
          Eigen::Matrix<double, 3, Eigen::Dynamic> mapped = Eigen::Matrix<double, 3, Eigen::Dynamic>::Zero(3, 3 * b);
          for (int a = 0; a < stencil_size(l); ++a)
            if (local(l, a) >= 0)
              mapped += weight(l, a) * X.middleRows<3>(3 * static_cast<Eigen::Index>(cv.ids[static_cast<std::size_t>(local(l, a))]));
          W.block(3 * l, 3 * k0, 3, 3 * b) = h2 * C[ll] * mapped;
        });
      }
    }
    times.rebuild_ms += ms_since(t);
    // The accumulated force (eqs. 18-19 with the free term delta_i - W_i Lambda~).
    t = Clock::now();
    VecX free = delta - W * rotated;
    VecX solved = rotated;
    const PgsResult pgs = projected_gauss_seidel(W, free, mu, solved, options.pgs);
    times.pgs_sweeps += pgs.iterations;
    times.pgs_ms += ms_since(t);
    increment = solved - rotated;
    // The correction by the increment (eqs. 22-23 or 30).
    t = Clock::now();
    VecX world(3 * m);
    for (Eigen::Index k = 0; k < m; ++k)
      world.segment<3>(3 * k) = C[static_cast<std::size_t>(k)].transpose() * increment.segment<3>(3 * k);
    if (fast) {
      y.noalias() += WSB * world;
      total_world += world;
    } else {
      if (!correct(world, x)) return fail("the correction solve failed");
    }
    times.correction_ms += ms_since(t);
    Lambda = solved;
    ++times.iterations;
  }
  if (fast) {  // x = x_free + h^2 A^-1 J_g^T sum_i C_i^T lambda_i: the one solve after the loop
    const auto t = Clock::now();
    x = x_free;
    if (!correct(total_world, x)) return fail("the correction solve failed");
    times.final_ms += ms_since(t);
  }
  result.x = x;
  V = mesh.positions(x);
  result.forces.resize(static_cast<std::size_t>(m));
  for (Eigen::Index k = 0; k < m; ++k) {
    const auto kk = static_cast<std::size_t>(k);
    ContactForce& f = result.forces[kk];
    f.stencil = contacts[kk].stencil;
    f.normal = C[kk].row(0).transpose();
    const ContactGeometry g = contact_geometry(contacts[kk], V, obstacles);
    f.gap = g.valid ? g.gap : f.normal.dot(relative_position(contacts[kk], V));
    const Vec3 L = Lambda.segment<3>(3 * k);
    f.normal_force = L[0];
    f.tangential_force = std::hypot(L[1], L[2]);
    f.force = C[kk].transpose() * L;
  }
  return result;
}

}  // namespace softsim
