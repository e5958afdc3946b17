// IpcContact's evaluation passes: only the candidates within dhat are evaluated, value-only calls
// compute values alone, and nothing depends on the thread count. The scene: two triangulated
// sheets 0.6 dhat apart, the upper one turned by 0.3 degrees, so that there are thousands of
// active point-triangle and edge-edge pairs, many of them nearly parallel edges whose mollifier
// is active (|ea x eb|^2 < 1e-3 |ea|^2 |eb|^2 below 1.8 degrees).
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <cmath>
#include <random>
#include <vector>

#include "softsim/contact/barrier/edge_edge_mollifier.hpp"
#include "softsim/contact/barrier/ipc_contact.hpp"
#include "softsim/contact/broad_phase/candidates.hpp"
#include "softsim/contact/geometry/collision_mesh.hpp"
#include "softsim/contact/stencil/contact_stencil.hpp"
#include "softsim/core/psd_projection.hpp"
#include "softsim/model/model.hpp"

namespace softsim {
namespace {

constexpr double kDhat = 1e-2;

struct TwoSheets {
  Model model{3};
  CollisionMesh mesh;
  VecX x;

  TwoSheets() {
    const int n = 12;  // cells per side of each 1 m sheet
    std::vector<Vec3> points;
    std::vector<std::array<int, 3>> tris;
    auto add_sheet = [&](double angle, double height) {
      const int first = static_cast<int>(points.size());
      for (int i = 0; i <= n; ++i)
        for (int j = 0; j <= n; ++j) {
          const double u = double(i) / n - 0.5, v = double(j) / n - 0.5;
          points.emplace_back(std::cos(angle) * u - std::sin(angle) * v, height, std::sin(angle) * u + std::cos(angle) * v);
        }
      auto id = [&](int i, int j) { return first + i * (n + 1) + j; };
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          tris.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1)});
          tris.push_back({id(i, j), id(i + 1, j + 1), id(i, j + 1)});
        }
    };
    add_sheet(0.0, 0.0);
    add_sheet(0.3 * M_PI / 180.0, 0.6 * kDhat);
    MatX V(points.size(), 3);
    for (std::size_t i = 0; i < points.size(); ++i) V.row(i) = points[i].transpose();
    Eigen::MatrixXi F(tris.size(), 3);
    for (std::size_t i = 0; i < tris.size(); ++i) F.row(i) << tris[i][0], tris[i][1], tris[i][2];
    model.add_vertices(V);
    x = model.rest_positions;
    // Rest shapes as built; the current state lowers the upper sheet's centre a little so the
    // pairs are not all at one distance.
    for (int i = static_cast<int>(points.size()) / 2; i < static_cast<int>(points.size()); ++i)
      x[3 * i + 1] -= 0.2 * kDhat * std::exp(-4.0 * (x[3 * i] * x[3 * i] + x[3 * i + 2] * x[3 * i + 2]));
    mesh = build_collision_mesh(3, static_cast<int>(points.size()), Eigen::MatrixXi(), F);
  }

  IpcContact contact() const {
    IpcOptions options;
    options.dhat = kDhat;
    options.kappa = 1e3;
    return IpcContact(model, mesh, options);
  }
};

struct Evaluation {
  double value = 0.0;
  VecX gradient;
  std::vector<Triplet> hessian;
};

Evaluation evaluate(const IpcContact& ipc, const VecX& x, bool derivatives) {
  ModelData data;
  data.add(ipc);
  const Stage stage;
  Evaluation e;
  if (!derivatives) {
    e.value = ipc.evaluate({stage, data}, x, AssemblyOutputs{});
    return e;
  }
  e.gradient = VecX::Zero(x.size());
  e.value = ipc.evaluate({stage, data}, x, AssemblyOutputs{&e.gradient, nullptr, 1.0, true, &e.hessian});
  return e;
}

TEST(IpcContact, SceneHasActiveMollifiedEdgePairs) {
  const TwoSheets scene;
  const VertexRows V = scene.mesh.positions(scene.x);
  int mollified = 0, active = 0;
  for (const ContactStencil& s :
       candidate_stencils(scene.mesh, proximity_candidates(scene.mesh, V, kDhat, BroadPhaseMethod::BruteForce))) {
    if (!(distance_squared(s, V) < kDhat * kDhat)) continue;
    ++active;
    if (s.kind != StencilKind::edge_edge) continue;
    auto at = [&](int a) { return stencil_vertex<3>(s, V, a); };
    const Vec3 n = (at(1) - at(0)).cross(at(3) - at(2));
    mollified += n.squaredNorm() < edge_edge_mollifier_threshold(at(0), at(1), at(2), at(3));
  }
  EXPECT_GT(active, 1000);
  EXPECT_GT(mollified, 50);
}

TEST(IpcContact, ActiveSetIsTheCandidatesCloserThanDhat) {
  const TwoSheets scene;
  const IpcContact ipc = scene.contact();
  const VertexRows V = scene.mesh.positions(scene.x);
  int expected = 0;
  for (const ContactStencil& s :
       candidate_stencils(scene.mesh, proximity_candidates(scene.mesh, V, kDhat, BroadPhaseMethod::BruteForce)))
    expected += distance_squared(s, V) < kDhat * kDhat;
  EXPECT_EQ(ipc.active_pairs(scene.x), expected);
}

// A jumble of small triangles (random centres and orientations): unlike the sheets, most
// candidates are box neighbours farther than dhat, which the separation bound settles without
// the exact distance. The active contacts are still exactly the candidates whose exact squared
// distance is below dhat^2, with that distance.
TEST(IpcContact, SeparationBoundLeavesTheActiveContactsExact) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> U(-1, 1);
  const int triangles = 400;
  MatX V(3 * triangles, 3);
  Eigen::MatrixXi F(triangles, 3);
  for (int t = 0; t < triangles; ++t) {
    const Vec3 centre(0.3 * U(rng), 0.3 * U(rng), 0.3 * U(rng));
    for (int k = 0; k < 3; ++k) {
      V.row(3 * t + k) = (centre + 0.04 * Vec3(U(rng), U(rng), U(rng))).transpose();
      F(t, k) = 3 * t + k;
    }
  }
  Model model(3);
  model.add_vertices(V);
  const CollisionMesh mesh = build_collision_mesh(3, static_cast<int>(V.rows()), Eigen::MatrixXi(), F);
  IpcOptions options;
  options.dhat = 0.01;
  options.kappa = 1.0;
  const IpcContact ipc(model, mesh, options);
  const VertexRows X = mesh.positions(model.rest_positions);
  const double shat = options.dhat * options.dhat;
  std::vector<std::pair<ContactStencil, double>> expected;
  int settled_by_bound = 0, candidates = 0;
  for (const ContactStencil& s : candidate_stencils(mesh, proximity_candidates(mesh, X, options.dhat))) {
    const double d2 = distance_squared(s, X);
    ++candidates;
    if (d2 < shat) expected.emplace_back(s, std::sqrt(d2));
    const double bounded = distance_squared_if_below(s, X, shat, true);
    if (std::isinf(bounded)) {
      ++settled_by_bound;
      EXPECT_GE(d2, shat);
    } else {
      EXPECT_EQ(bounded, d2);
    }
  }
  EXPECT_GT(settled_by_bound, candidates / 2);  // the bound is exercised
  EXPECT_GT(expected.size(), 20u);
  const auto active = ipc.active_contacts(model.rest_positions);
  ASSERT_EQ(active.size(), expected.size());
  for (std::size_t i = 0; i < active.size(); ++i) {
    EXPECT_EQ(active[i].first.ids, expected[i].first.ids) << i;
    EXPECT_EQ(active[i].second, expected[i].second) << i;  // bitwise
  }
}

TEST(IpcContact, ValueOnlyCallGivesTheSameEnergyAsTheFullEvaluation) {
  const TwoSheets scene;
  const IpcContact ipc = scene.contact();
  const Evaluation full = evaluate(ipc, scene.x, true);
  EXPECT_GT(full.value, 0.0);
  EXPECT_EQ(evaluate(ipc, scene.x, false).value, full.value);  // bitwise: same terms, same order
}

TEST(IpcContact, ResultsDoNotDependOnTheThreadCount) {
  const TwoSheets scene;
  const IpcContact ipc = scene.contact();
  Evaluation one, two;
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
    one = evaluate(ipc, scene.x, true);
  }
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
    two = evaluate(ipc, scene.x, true);
  }
  EXPECT_EQ(one.value, two.value);
  EXPECT_TRUE(one.gradient == two.gradient);
  ASSERT_EQ(one.hessian.size(), two.hessian.size());
  for (std::size_t i = 0; i < one.hessian.size(); ++i) {
    ASSERT_EQ(one.hessian[i].row(), two.hessian[i].row());
    ASSERT_EQ(one.hessian[i].col(), two.hessian[i].col());
    ASSERT_EQ(one.hessian[i].value(), two.hessian[i].value()) << "triplet " << i;
  }
}

TEST(IpcContact, EnergyIsTheSumOfTheActiveBarriers) {
  // Independent of IpcContact's passes: kappa sum m b(d^2) over the brute-force candidates.
  const TwoSheets scene;
  const IpcContact ipc = scene.contact();
  const VertexRows V = scene.mesh.positions(scene.x);
  const VertexRows X = scene.mesh.positions(scene.model.rest_positions);
  double expected = 0.0;
  for (const ContactStencil& s :
       candidate_stencils(scene.mesh, proximity_candidates(scene.mesh, V, kDhat, BroadPhaseMethod::BruteForce))) {
    const double d2 = distance_squared(s, V);
    if (!(d2 < kDhat * kDhat)) continue;
    double m = 1.0;
    if (s.kind == StencilKind::edge_edge) {
      auto at = [&](const VertexRows& P, int a) { return stencil_vertex<3>(s, P, a); };
      const Vec3 n = (at(V, 1) - at(V, 0)).cross(at(V, 3) - at(V, 2));
      m = mollifier(n.squaredNorm(), edge_edge_mollifier_threshold(at(X, 0), at(X, 1), at(X, 2), at(X, 3)));
    }
    const double shat = kDhat * kDhat;
    expected += 1e3 * m * (-(d2 - shat) * (d2 - shat) * std::log(d2 / shat));
  }
  EXPECT_NEAR(evaluate(ipc, scene.x, false).value, expected, 1e-12 * expected);
}

// The reference: every active candidate as its own 12-coordinate stencil (as IPC defines the
// sum), without reduction or merging, assembled into a sparse matrix.
struct Reference {
  double value = 0.0;
  VecX gradient;
  SparseMat hessian;
  std::size_t triplets = 0;
};

Reference uncompacted(const TwoSheets& scene, const IpcContact& ipc, bool project) {
  const VertexRows V = scene.mesh.positions(scene.x);
  const VertexRows X = scene.mesh.positions(scene.model.rest_positions);
  const double kappa = 1e3;
  Reference r;
  r.gradient = VecX::Zero(scene.x.size());
  std::vector<Triplet> triplets;
  for (const ContactStencil& s :
       candidate_stencils(scene.mesh, proximity_candidates(scene.mesh, V, kDhat, BroadPhaseMethod::BruteForce))) {
    const double d2 = distance_squared(s, V);
    if (!(d2 < kDhat * kDhat)) continue;
    auto e = compose_barrier(ipc.barrier_of(d2, s), distance_squared_derivatives(s, V));
    if (s.kind == StencilKind::edge_edge) {
      auto at = [&](const VertexRows& P, int a) { return stencil_vertex<3>(s, P, a); };
      const auto m = edge_edge_mollifier(at(V, 0), at(V, 1), at(V, 2), at(V, 3),
                                         edge_edge_mollifier_threshold(at(X, 0), at(X, 1), at(X, 2), at(X, 3)));
      const auto b = e;
      e.value = m.value * b.value;
      e.grad = m.value * b.grad + b.value * m.grad;
      e.hess = m.value * b.hess + m.grad * b.grad.transpose() + b.grad * m.grad.transpose() + b.value * m.hess;
    }
    const int k = 3 * s.num_vertices;
    Eigen::MatrixXd H = e.hess.topLeftCorner(k, k);
    if (project) project_psd(H);
    r.value += kappa * e.value;
    for (int a = 0; a < s.num_vertices; ++a) {
      r.gradient.segment<3>(3 * s.ids[a]) += kappa * e.grad.segment<3>(3 * a);
      for (int b = 0; b < s.num_vertices; ++b)
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) triplets.emplace_back(3 * s.ids[a] + i, 3 * s.ids[b] + j, kappa * H(3 * a + i, 3 * b + j));
    }
  }
  r.triplets = triplets.size();
  r.hessian.resize(scene.x.size(), scene.x.size());
  r.hessian.setFromTriplets(triplets.begin(), triplets.end());
  return r;
}

TEST(IpcContact, CompactStencilsGiveTheEnergyGradientAndHessianOfEveryCandidate) {
  const TwoSheets scene;
  const IpcContact ipc = scene.contact();
  VecX w(scene.x.size());
  for (Eigen::Index i = 0; i < w.size(); ++i) w[i] = std::sin(1.7 * i + 0.3);
  for (bool project : {false, true}) {
    SCOPED_TRACE(project ? "PSD-projected" : "exact");
    const Reference ref = uncompacted(scene, ipc, project);
    ModelData data;
    data.add(ipc);
    const Stage stage;
    VecX g = VecX::Zero(scene.x.size());
    std::vector<Triplet> triplets;
    const double E = ipc.evaluate({stage, data}, scene.x, AssemblyOutputs{&g, nullptr, 1.0, project, &triplets});
    SparseMat H(scene.x.size(), scene.x.size());
    H.setFromTriplets(triplets.begin(), triplets.end());
    EXPECT_NEAR(E, ref.value, 1e-12 * ref.value);
    EXPECT_LE((g - ref.gradient).norm(), 1e-12 * ref.gradient.norm());
    const VecX Hw = H * w, Hw_ref = ref.hessian * w;
    EXPECT_LE((Hw - Hw_ref).norm(), 1e-12 * Hw_ref.norm());
    // The compact stencils carry fewer Hessian entries than one 12x12 block per candidate.
    EXPECT_LT(triplets.size(), ref.triplets * 3 / 4) << triplets.size() << " of " << ref.triplets;
  }
}


// The step size with the running minimum (each pair stops stepping at the earliest impact found
// so far) equals the minimum over every candidate of its own impact time, for 1 and 2 threads.
// The step drops the upper sheet through the lower one with a twist, so that hundreds of pairs
// collide at different times.
TEST(IpcContactStepSize, RunningMinimumEqualsTheMinimumOverEveryPairForAnyThreadCount) {
  const TwoSheets scene;
  const IpcContact ipc = scene.contact();
  VecX p = VecX::Zero(scene.x.size());
  const int half = static_cast<int>(scene.x.size()) / 6;
  for (int i = half; i < 2 * half; ++i) {
    p[3 * i + 1] = -0.05 - 0.02 * std::sin(7.0 * scene.x[3 * i]);
    p[3 * i] = 0.01 * scene.x[3 * i + 2];
  }
  const VecX x1 = scene.x + p;
  const VertexRows V0 = scene.mesh.positions(scene.x), V1 = scene.mesh.positions(x1);
  double expected = 1.0;
  int colliding = 0;
  for (const ContactStencil& s : candidate_stencils(
           scene.mesh, ccd_candidates(scene.mesh, V0, V1, kDhat, BroadPhaseMethod::BruteForce))) {
    AccdOptions accd;  // IpcOptions' defaults: safety 0.9, no thickness
    const CcdResult r = time_of_impact(s, V0, V1, accd);
    if (r.collides) {
      ++colliding;
      expected = std::min(expected, r.toi);
    }
  }
  ASSERT_GT(colliding, 100);
  ASSERT_LT(expected, 0.5);
  for (int threads : {1, 2}) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
    ModelData data;
    data.add(ipc);
    const Stage stage;
    EXPECT_EQ(ipc.max_step_fraction({stage, data}, scene.x, p), expected) << threads << " threads";
  }
}

}  // namespace
}  // namespace softsim
