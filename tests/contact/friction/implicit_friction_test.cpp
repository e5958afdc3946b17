// Fully implicit friction (Larionov et al. 2022, eq. 16): the assembled Jacobian df/dq + c df/dv (forward-mode
// AD, column by column) against central finite differences of q -> f(q, c (q - q_ref)), and the
// matrix-free product against the assembled Jacobian, on every kind of contact: vertices near a
// plane and a sphere, and IPC pairs (point-triangle, edge-edge and their degenerate point-edge /
// point-point reductions between two boxes, one turned; point-edge in 2D).
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "softsim/contact/friction/implicit_friction.hpp"

#include "softsim/scene/scene.hpp"
#include "support/evaluation.hpp"
#include "support/finite_difference.hpp"

namespace softsim {
namespace {

// Boxes of 0.2 m resting 0.4 mm above their support (dhat 1 mm), implicit friction mu = 0.5.
nlohmann::json base_scene(int dim) {
  nlohmann::json j = {{"dim", dim}, {"time", {{"dt", 0.01}, {"steps", 1}}}};
  // A fixed kappa: the automatic one is only set once a step begins in contact.
  j["contact"] = {{"dhat", 0.001}, {"kappa", 1e5}, {"friction", {{"mu", 0.5}, {"mode", "implicit"}, {"eps_v", 0.01}}}};
  return j;
}

nlohmann::json block(int dim, double y, double turn_degrees = 0.0, double x = 0.0) {
  nlohmann::json b;
  b["generator"] = {{"type", dim == 3 ? "box" : "rectangle"}};
  b["generator"]["size"] = dim == 3 ? nlohmann::json{0.2, 0.2, 0.2} : nlohmann::json{0.2, 0.2};
  b["generator"]["resolution"] = dim == 3 ? nlohmann::json{1, 1, 1} : nlohmann::json{2, 2};
  b["transform"]["translate"] = dim == 3 ? nlohmann::json{x, y, 0.0} : nlohmann::json{x, y};
  if (turn_degrees != 0.0) b["transform"]["rotate"] = {0.0, turn_degrees, 0.0};
  b["material"] = {{"E", 1e6}, {"nu", 0.3}, {"density", 1000}};
  return b;
}

struct JacobianCheck {
  double fd_error = 0, jvp_error = 0, force_norm = 0;
  int nonzero_columns = 0;
  std::set<StencilKind> kinds;  // IPC contacts present
};

JacobianCheck check(const nlohmann::json& j, double c) {
  const Scene scene = parse_scene(j, "implicit_friction.json");
  Model model = build_model(scene);
  EXPECT_FALSE(model.forces().empty());
  const int n = model.num_dofs();
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  VecX q = model.rest_positions, v(n), p(n);
  for (int i = 0; i < n; ++i) {
    q[i] += 2e-5 * u(rng);  // stays inside (0, dhat) of its support
    v[i] = 0.05 * u(rng);   // mostly above eps_v: sliding
    p[i] = u(rng);
  }
  const VecX q_ref = q - v / c;
  const test::Evaluation e(model);
  auto F = [&](const VecX& x) {
    VecX f = VecX::Zero(n);
    model.add_velocity_forces(e.ctx(), x, c * (x - q_ref), c, 1.0, &f, nullptr);
    return f;
  };
  std::vector<Triplet> triplets;
  VecX f0 = VecX::Zero(n);
  model.add_velocity_forces(e.ctx(), q, v, c, 1.0, &f0, &triplets);
  SparseMat J(n, n);
  J.setFromTriplets(triplets.begin(), triplets.end());
  const MatX Jd = MatX(J);
  const MatX Jfd = test::fd_jacobian(F, q, 1e-8);
  VecX jp = VecX::Zero(n);
  model.velocity_forces_jacobian_times(e.ctx(), q, v, c, p, 1.0, jp);
  JacobianCheck r;
  r.fd_error = test::relative_error(Jd, Jfd);
  r.jvp_error = test::relative_error(jp, VecX(J * p));
  r.force_norm = f0.norm();
  for (int k = 0; k < n; ++k) r.nonzero_columns += Jd.col(k).norm() > 0 ? 1 : 0;
  for (const auto& f : model.forces())
    if (const auto* ipc = dynamic_cast<const ImplicitFriction*>(f.get()))
      for (const FrictionContact& c : ipc->contacts(e.ctx(), q)) r.kinds.insert(c.stencil.kind);
  EXPECT_LT((f0 - F(q)).norm(), 1e-12 * (1 + f0.norm()));
  return r;
}

void expect_good(const char* what, const JacobianCheck& r) {
  std::printf("%-28s |f| %.3g  Jacobian vs FD %.2e  J p vs AD product %.2e  (%d columns)\n", what, r.force_norm,
              r.fd_error, r.jvp_error, r.nonzero_columns);
  EXPECT_GT(r.force_norm, 0.0) << what;
  EXPECT_GT(r.nonzero_columns, 0) << what;
  EXPECT_LT(r.fd_error, 1e-5) << what;
  EXPECT_LT(r.jvp_error, 1e-12) << what;
}

TEST(ImplicitFrictionJacobian, VerticesOnAPlane) {
  nlohmann::json j = base_scene(3);
  j["bodies"] = {block(3, 0.1004)};
  j["obstacles"] = {{{"type", "plane"}, {"point", {0, 0, 0}}, {"normal", {0, 1, 0}}}};
  expect_good("plane obstacle", check(j, 100.0));
}

TEST(ImplicitFrictionJacobian, VertexOnASphere) {
  nlohmann::json j = base_scene(3);
  j["bodies"] = {block(3, 0.1)};
  // The vertex (0.1, 0, 0.1) is 0.4 mm above the sphere; the normal turns with the vertex.
  j["obstacles"] = {{{"type", "sphere"}, {"center", {0.1, -0.5004, 0.1}}, {"radius", 0.5}}};
  expect_good("sphere obstacle", check(j, 100.0));
}

TEST(ImplicitFrictionJacobian, IpcPairsBetweenBoxes) {
  nlohmann::json j = base_scene(3);
  j["bodies"] = {block(3, 0.1), block(3, 0.3004, 30.0, 0.05)};  // turned: edge-edge crossings
  const JacobianCheck r = check(j, 100.0);
  expect_good("IPC pairs, 3D", r);
  EXPECT_TRUE(r.kinds.count(StencilKind::point_triangle));
  EXPECT_TRUE(r.kinds.count(StencilKind::edge_edge));
}

TEST(ImplicitFrictionJacobian, IpcPairsIn2D) {
  nlohmann::json j = base_scene(2);
  j["bodies"] = {block(2, 0.1), block(2, 0.3004, 0.0, 0.05)};
  expect_good("IPC pairs, 2D", check(j, 100.0));
}

}  // namespace
}  // namespace softsim

namespace softsim {
namespace {

// Penalty contact (the setting of Larionov et al. 2022): a block 0.4 mm deep in the plane's delta layer, and
// a block resting inside the delta layer of another (face, edge and vertex features).
TEST(ImplicitFrictionJacobian, PenaltyContactPoints) {
  nlohmann::json j = base_scene(3);
  j["contact"] = {{"type", "penalty"}, {"delta", 0.001}, {"kappa", 1e9},
                  {"friction", {{"mu", 0.5}, {"mode", "implicit"}, {"eps_v", 0.01}}}};
  j["bodies"] = {block(3, 0.1004), block(3, 0.3008, 30.0, 0.05)};
  j["obstacles"] = {{{"type", "plane"}, {"point", {0, 0, 0}}, {"normal", {0, 1, 0}}}};
  expect_good("penalty points, 3D", check(j, 100.0));
  j["obstacles"] = {{{"type", "sphere"}, {"center", {0.1, -0.5004, 0.1}}, {"radius", 0.5}}};
  expect_good("penalty, sphere", check(j, 100.0));
}

TEST(ImplicitFrictionJacobian, PenaltyContactPointsIn2D) {
  nlohmann::json j = base_scene(2);
  j["contact"] = {{"type", "penalty"}, {"delta", 0.001}, {"kappa", 1e9},
                  {"friction", {{"mu", 0.5}, {"mode", "implicit"}, {"eps_v", 0.01}}}};
  j["bodies"] = {block(2, 0.1004), block(2, 0.3008, 0.0, 0.05)};
  j["obstacles"] = {{{"type", "plane"}, {"point", {0, 0}}, {"normal", {0, 1}}}};
  expect_good("penalty points, 2D", check(j, 100.0));
}

}  // namespace
}  // namespace softsim
