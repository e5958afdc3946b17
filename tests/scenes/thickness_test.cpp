// Minimum separation (contact.thickness): a box dropped on a fixed sheet stops with its surface
// at least the thickness away from the sheet, never closer, and the thick barrier's derivatives
// match finite differences.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "softsim/contact/barrier/ipc_contact.hpp"
#include "softsim/integrate/stepper.hpp"
#include "softsim/scene/scene.hpp"
#include "support/evaluation.hpp"
#include "support/finite_difference.hpp"

namespace softsim {
namespace {

constexpr double kThickness = 0.02;

nlohmann::json scene_json() {
  return R"json({
    "dim": 3, "time": {"dt": 0.01, "steps": 40},
    "bodies": [
      {"name": "box", "generator": {"type": "box", "size": [0.2, 0.2, 0.2], "resolution": [1, 1, 1]},
       "transform": {"translate": [0.03, 0.14, 0.02]},
       "material": {"model": "neo_hookean", "E": 1e5, "nu": 0.3, "density": 500}},
      {"name": "sheet", "kind": "shell",
       "generator": {"type": "sheet", "size": [0.6, 0, 0.6], "resolution": [2, 1, 2]},
       "material": {"model": "stvk", "E": 1e6, "nu": 0.3, "density": 200, "thickness": 0.001},
       "fixed": [{"box": [[-1, -1, -1], [1, 1, 1]]}]}
    ],
    "contact": {"dhat": 0.01, "thickness": 0.02}
  })json"_json;
}

const IpcContact& contact_term(const Model& model) {
  for (const auto& term : model.energies())
    if (const auto* ipc = dynamic_cast<const IpcContact*>(term.get())) return *ipc;
  throw std::logic_error("no IPC term");
}

TEST(ContactThickness, BoxStopsAtTheThicknessAboveTheSheet) {
  Scene scene = parse_scene(scene_json(), "thick.json");
  Model model = build_model(scene);
  const IpcContact& ipc = contact_term(model);
  auto stepper = make_stepper(model, scene.integrator);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  double closest = HUGE_VAL;
  for (int n = 0; n < scene.steps; ++n) {
    ASSERT_TRUE(stepper->step(state, scene.dt).converged) << "step " << n;
    const double d = ipc.min_contact_distance(state.x);
    closest = std::min(closest, d);
    ASSERT_GT(d, kThickness) << "closer than the thickness at step " << n;
  }
  // The box fell 0.04 m onto the sheet: it rests inside the barrier zone above the thickness.
  EXPECT_LT(closest, kThickness + 0.01);
  std::printf("[ thickness ] closest surface distance %.6f m (thickness %.3f, dhat 0.01)\n", closest, kThickness);
}

TEST(ContactThickness, ThickBarrierDerivativesMatchFiniteDifferences) {
  auto j = scene_json();
  j["bodies"][0]["transform"]["translate"][1] = 0.1 + kThickness + 0.004;  // inside the barrier zone
  j["contact"]["kappa"] = 1.0;
  Scene scene = parse_scene(j, "thick.json");
  Model model = build_model(scene);
  const IpcContact& ipc = contact_term(model);
  const VecX x = model.rest_positions;
  ASSERT_GT(ipc.active_pairs(x), 0);
  const test::Evaluation e(model);
  auto energy = [&](const VecX& y) { return ipc.evaluate(e.ctx(), y, AssemblyOutputs{}); };
  auto gradient = [&](const VecX& y) {
    VecX g = VecX::Zero(y.size());
    ipc.evaluate(e.ctx(), y, AssemblyOutputs{&g, nullptr, 1.0, false});
    return g;
  };
  EXPECT_LT(test::relative_error(gradient(x), test::fd_gradient(energy, x, 1e-7)), 1e-5);
  std::vector<Triplet> triplets;
  ipc.evaluate(e.ctx(), x, AssemblyOutputs{nullptr, nullptr, 1.0, false, &triplets});
  SparseMat H(x.size(), x.size());
  H.setFromTriplets(triplets.begin(), triplets.end());
  EXPECT_LT(test::relative_error(MatX(H), test::fd_jacobian(gradient, x, 1e-7)), 1e-5);
}

}  // namespace
}  // namespace softsim
