// The contract every VelocityForce honours (implicit friction on IPC pairs, analytic obstacles and
// penalty contact points: tests/support/small_scenes.hpp), at a perturbed point with sliding
// velocities: the Jacobian df/dq + c df/dv assembled as triplets equals central finite
// differences of q -> f(q, c (q - q_ref)), and its matrix-free product equals the assembled one.
#include <gtest/gtest.h>

#include <set>

#include "softsim/model/model.hpp"
#include "softsim/scene/scene.hpp"
#include "support/finite_difference.hpp"
#include "support/small_scenes.hpp"

namespace softsim {
namespace {


TEST(VelocityForceContract, EveryForcesJacobianMatchesFiniteDifferences) {
  int checked = 0;
  std::set<std::string> active_scenes;
  for (const test::SmallScene& s : test::small_scenes()) {
    const Model model = build_model(parse_scene(s.json, s.name + ".json"));
    if (model.forces().empty()) continue;
    ModelData data(model);
    const double h = 0.01, c = 1.0 / h;
    const VecX x0 = model.rest_positions;
    model.begin_step(Stage::step(0.0, h), data, x0);
    const Stage stage = Stage::step(0.0, h);
    const EvalContext ctx{stage, data};
    const Eigen::Index n = x0.size();
    const VecX q = x0 + test::random_perturbation(n, s.perturbation, 3);
    const VecX v = test::random_perturbation(n, 0.05, 5);  // mostly above eps_v = 0.01: sliding
    const VecX q_ref = q - v / c;
    for (const auto& force : model.forces()) {
      SCOPED_TRACE(s.name + ": " + force->name());
      auto F = [&](const VecX& y) {
        VecX f = VecX::Zero(n);
        force->add_force(ctx, y, c * (y - q_ref), c, 1.0, &f, nullptr);
        return f;
      };
      std::vector<Triplet> triplets;
      VecX f0 = VecX::Zero(n);
      force->add_force(ctx, q, v, c, 1.0, &f0, &triplets);
      if (f0.norm() == 0.0) continue;  // this contact model has no contact here (the IPC term of one body)
      active_scenes.insert(s.name);
      SparseMat J(n, n);
      J.setFromTriplets(triplets.begin(), triplets.end());
      const MatX J_fd = test::fd_jacobian(F, q, 1e-3 * s.perturbation);
      const double err = test::relative_error(MatX(J), J_fd);
      const VecX p = test::random_perturbation(n, 1.0, 9);
      VecX jp = VecX::Zero(n);
      force->add_jacobian_times(ctx, q, v, c, p, 1.0, jp);
      const double err_p = test::relative_error(jp, VecX(J * p));
      std::printf("[ force ] %-14s %-20s |f| %.3e Jacobian err %.1e product err %.1e\n", s.name.c_str(),
                  force->name().c_str(), f0.norm(), err, err_p);
      EXPECT_LT(err, 1e-5);
      EXPECT_LT(err_p, 1e-12);
      EXPECT_LT((f0 - F(q)).norm(), 1e-12 * (1.0 + f0.norm()));
      ++checked;
    }
  }
  EXPECT_GE(checked, 4) << "implicit friction on IPC pairs, a plane, a sphere and penalty contact";
  for (const std::string scene : {"ipc_implicit", "obstacles_implicit", "penalty_implicit"})
    EXPECT_TRUE(active_scenes.count(scene)) << scene << ": no implicit friction force was checked";
}

}  // namespace
}  // namespace softsim
