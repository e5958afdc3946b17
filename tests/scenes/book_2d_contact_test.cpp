// The 2D contact case studies of Li & Jiang 2025 (§8.3, §11.2, ch. 15, ch. 21-22) as scene
// files, with their friction where they have one, through the production path with the exact
// intersection check after every step.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/body_rotation.hpp"
#include "support/contact_scene.hpp"

namespace softsim::test {
namespace {

// The bottom of body b (min y over its vertices).
double bottom(const Model& model, const VecX& x, int b) { return body_rows(model, x, b).col(1).minCoeff(); }
double top(const Model& model, const VecX& x, int b) { return body_rows(model, x, b).col(1).maxCoeff(); }

// The book's ceiling is a half-plane (normal -y) whose pose is the model's last vertex.
double ceiling_y(const Model& model, const VecX& x) { return x[2 * (model.num_vertices() - 1) + 1]; }

TEST(Book2DContact, CompressingSquareIsCrushedToTheCeilingsLimit) {
  const Scene scene = read_scene(scene_file("book_compressing_square.json"));
  Model model = build_model(scene);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  double min_y = HUGE_VAL, min_clearance = HUGE_VAL;
  const RunStats s = run_scene(scene, model, state, scene.steps, [&](int, const StepResult&, const Stepper&) {
    min_y = std::min(min_y, bottom(model, state.x, 0));
    min_clearance = std::min(min_clearance, ceiling_y(model, state.x) - top(model, state.x, 0));
  });
  print_stats("book_compressing_square", s);
  const double ceiling = ceiling_y(model, state.x), height = top(model, state.x, 0) - bottom(model, state.x, 0);
  std::printf("[ scene ] book_compressing_square: ceiling %.5f (limit -0.6), square y in [%.4f, %.4f] "
              "(height %.4f), min y over run %.6f, min ceiling clearance %.3e m\n",
              ceiling, bottom(model, state.x, 0), top(model, state.x, 0), height, min_y, min_clearance);
  EXPECT_GT(min_clearance, 0.0);
  EXPECT_GT(min_y, -1.0);
  // The ceiling lags its targets while it presses (the penalty holds it within tolerance x h of
  // each one), so it stops at most one step of h |v| = 5 mm past its 1.2 m of travel: the book's
  // code ends at -0.60176 (tests/data/book/compressing_square.csv).
  EXPECT_LT(ceiling, -0.6);
  EXPECT_GT(ceiling, -0.6 - 0.005);
  EXPECT_LT(height, 0.4);
}

TEST(Book2DContact, InversionFreeElasticityNoTriangleEverInverts) {
  const Scene scene = read_scene(scene_file("book_inversion_free.json"));
  Model model = build_model(scene);
  // The companion code has no self-contact in this chapter, and the scene switches it off: the
  // square's only collision geometry is itself, so the model has no IPC term at all.
  EXPECT_EQ(find_ipc(model), nullptr);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  const Eigen::MatrixXi T = model.bodies[0].mesh.cells.array() + model.bodies[0].first_vertex;
  auto min_area_ratio = [&](const VecX& x) {
    const Eigen::MatrixXd X = as_rows(model.rest_positions, 2), V = as_rows(x, 2);
    double r = HUGE_VAL;
    for (int t = 0; t < T.rows(); ++t) {
      auto area = [&](const auto& P) {
        const Eigen::RowVector2d a = P.row(T(t, 1)) - P.row(T(t, 0)), b = P.row(T(t, 2)) - P.row(T(t, 0));
        return a.x() * b.y() - a.y() * b.x();
      };
      r = std::min(r, area(V) / area(X));
    }
    return r;
  };
  int inverted_steps = 0;
  double min_ratio = HUGE_VAL, min_y = HUGE_VAL;
  const RunStats s = run_scene(scene, model, state, scene.steps, [&](int, const StepResult&, const Stepper&) {
    // det F > 0 exactly: orient2d of every triangle keeps the sign it has at rest.
    const Eigen::MatrixXd V = as_rows(state.x, 2), X = as_rows(model.rest_positions, 2);
    const Eigen::Matrix<double, Eigen::Dynamic, 2, Eigen::RowMajor> Vr = V, Xr = X;
    for (int t = 0; t < T.rows(); ++t)
      if (orient2d(Vr.row(T(t, 0)).data(), Vr.row(T(t, 1)).data(), Vr.row(T(t, 2)).data()) !=
          orient2d(Xr.row(T(t, 0)).data(), Xr.row(T(t, 1)).data(), Xr.row(T(t, 2)).data())) {
        ++inverted_steps;
        break;
      }
    min_ratio = std::min(min_ratio, min_area_ratio(state.x));
    min_y = std::min(min_y, bottom(model, state.x, 0));
  });
  print_stats("book_inversion_free", s);
  const double ceiling = ceiling_y(model, state.x), height = top(model, state.x, 0) - bottom(model, state.x, 0);
  std::printf("[ scene ] book_inversion_free: ceiling %.5f (limit -0.7), square height %.4f, min det F "
              "(area ratio) %.4f, steps with an inverted triangle %d, min y %.6f\n",
              ceiling, height, min_ratio, inverted_steps, min_y);
  EXPECT_EQ(s.max_intersections, 0u);
  EXPECT_EQ(inverted_steps, 0);
  EXPECT_GT(min_ratio, 0.0);
  EXPECT_GT(min_y, -1.0);
  EXPECT_LT(ceiling, -0.7);
  EXPECT_GT(ceiling, -0.7 - 0.005);
  EXPECT_LT(height, 0.3);
}

TEST(Book2DContact, SelfContactTopSquareReachesTheGroundNeverIntersecting) {
  const Scene scene = read_scene(scene_file("book_self_contact_2d.json"));
  Model model = build_model(scene);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  double min_y = HUGE_VAL;
  const RunStats s = run_scene(scene, model, state, scene.steps, [&](int, const StepResult&, const Stepper&) {
    min_y = std::min({min_y, bottom(model, state.x, 0), bottom(model, state.x, 1)});
  });
  print_stats("book_self_contact_2d", s);
  const Eigen::RowVector2d top_c = body_rows(model, state.x, 0).colwise().mean(),
                           bottom_c = body_rows(model, state.x, 1).colwise().mean();
  std::printf("[ scene ] book_self_contact_2d: ceiling %.4f (limit -0.7); top square centre (%.4f, %.4f), "
              "bottom %.6f; bottom square centre (%.4f, %.4f); min y %.6f\n",
              ceiling_y(model, state.x), top_c.x(), top_c.y(), bottom(model, state.x, 0), bottom_c.x(), bottom_c.y(),
              min_y);
  EXPECT_EQ(s.max_intersections, 0u);
  EXPECT_GT(min_y, -1.0);
  // As in the book's code: the top square is squeezed out to the left and ends on the ground
  // beside the bottom one, which barely moves.
  EXPECT_LT(bottom(model, state.x, 0), -1.0 + 0.01) << "the top square should end on the ground";
  EXPECT_LT(top_c.x(), bottom_c.x() - 0.45) << "beside the bottom square, to its left";
  EXPECT_NEAR(bottom_c.x(), 0.045, 0.05);
}

// The C shape squeezed between its plates (self_touch_c_shape.json), with or without its
// self-contact: how close the inner faces of its slot (rest y = 0.3 and 0.2, x >= 0.3) came, by
// how much their mean heights crossed, and the smallest distance the IPC term saw.
struct CShapeRun {
  RunStats stats;
  double min_gap = HUGE_VAL, overlap = -HUGE_VAL, min_ipc = HUGE_VAL, dhat = 0.0;
};
CShapeRun squeeze_c_shape(bool self_contact) {
  const auto file = scene_file("self_touch_c_shape.json");
  nlohmann::json j = read_scene_json(file);
  if (!self_contact) j["bodies"][0]["self_contact"] = false;
  const Scene scene = parse_scene(j, file.string());
  Model model = build_model(scene);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  std::vector<int> upper, lower;
  const MatX& X = model.bodies[0].mesh.vertices;
  for (int i = 0; i < X.rows(); ++i) {
    if (X(i, 0) < 0.3 - 1e-9) continue;
    if (std::abs(X(i, 1) - 0.3) < 1e-9) upper.push_back(i);
    if (std::abs(X(i, 1) - 0.2) < 1e-9) lower.push_back(i);
  }
  EXPECT_EQ(upper.size(), 8u);
  EXPECT_EQ(lower.size(), 8u);
  const IpcContact* ipc = find_ipc(model);
  CShapeRun run;
  run.dhat = scene.contact.dhat.value();
  if (!ipc) {
    ADD_FAILURE() << "no IPC term: the plates have contact with the C either way";
    return run;
  }
  run.stats = run_scene(scene, model, state, scene.steps, [&](int, const StepResult&, const Stepper&) {
    const Eigen::MatrixXd V = body_rows(model, state.x, 0);
    double upper_y = 0.0, lower_y = 0.0;
    for (int a : upper) {
      upper_y += V(a, 1) / static_cast<double>(upper.size());
      for (int b : lower) run.min_gap = std::min(run.min_gap, (V.row(a) - V.row(b)).norm());
    }
    for (int b : lower) lower_y += V(b, 1) / static_cast<double>(lower.size());
    run.overlap = std::max(run.overlap, lower_y - upper_y);  // > 0: the inner faces have crossed
    run.min_ipc = std::min(run.min_ipc, ipc->min_contact_distance(state.x));
  });
  print_stats(self_contact ? "self_touch_c_shape" : "self_touch_c_shape without self-contact", run.stats);
  std::printf("[ scene ] self_touch_c_shape%s: slot (rest 0.1 m) closed to %.3e m between inner-face vertices, "
              "inner faces crossed by %.3e m, min IPC distance %.3e m (dhat %.3g)\n",
              self_contact ? "" : " without self-contact", run.min_gap, run.overlap, run.min_ipc, run.dhat);
  return run;
}

TEST(ContactScenes2D, CShapeSqueezedUntilItsArmsTouch) {
  const CShapeRun run = squeeze_c_shape(true);
  EXPECT_EQ(run.stats.max_intersections, 0u);
  EXPECT_GT(run.min_ipc, 0.0);
  EXPECT_LT(run.min_gap, 2 * run.dhat) << "the arms should touch";
}

// The same squeeze with the C's self-contact switched off (bodies[i].self_contact: false): the
// plates still touch the C and never pass it, but its arms now go through each other, which the
// exact intersection check sees. The switch is what keeps them apart above.
TEST(ContactScenes2D, CShapeWithoutSelfContactLetsItsArmsPass) {
  const CShapeRun run = squeeze_c_shape(false);
  EXPECT_EQ(run.stats.failed_steps, 0);
  EXPECT_GT(run.stats.max_intersections, 0u);  // the C runs through itself
  EXPECT_GT(run.overlap, 0.01);
  EXPECT_GT(run.min_ipc, 0.0);  // between the C and the plates: kept apart
}

}  // namespace
}  // namespace softsim::test

namespace softsim::test {
namespace {

struct SquaresOutcome {
  // Rotation at the end (rad, counter-clockwise), tracked every step and unwrapped: an edge's
  // atan2 wraps at 180 deg, where the frictional case's top square ends.
  double top_rotation = 0, bottom_rotation = 0;
  double bottom_leftmost_shift = 0, bottom_largest_shift = 0;  // bottom centre's x - start: min, max |.|
  std::size_t intersections = 0;
};

SquaresOutcome run_squares(const std::string& file) {
  const Scene scene = read_scene(scene_file(file));
  Model model = build_model(scene);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  const Eigen::MatrixXd top_rest = body_rows(model, state.x, 0), bottom_rest = body_rows(model, state.x, 1);
  const double start_x = bottom_rest.col(0).mean();
  UnwrappedRotation top_turn, bottom_turn;
  SquaresOutcome o;
  const RunStats s = run_scene(scene, model, state, scene.steps, [&](int, const StepResult&, const Stepper&) {
    o.top_rotation = top_turn.add(best_fit_rotation(top_rest, body_rows(model, state.x, 0)));
    o.bottom_rotation = bottom_turn.add(best_fit_rotation(bottom_rest, body_rows(model, state.x, 1)));
    const double shift = body_rows(model, state.x, 1).col(0).mean() - start_x;
    o.bottom_leftmost_shift = std::min(o.bottom_leftmost_shift, shift);
    o.bottom_largest_shift = std::max(o.bottom_largest_shift, std::abs(shift));
  });
  print_stats(file.c_str(), s);
  o.intersections = s.max_intersections;
  std::printf("[ scene ] %s: top square turned %.1f deg, bottom %.1f deg; bottom square's centre moved up to %.3f m "
              "sideways, %.3f m to the left at most\n",
              file.c_str(), o.top_rotation * 180 / M_PI, o.bottom_rotation * 180 / M_PI, o.bottom_largest_shift,
              -o.bottom_leftmost_shift);
  return o;
}

// Li & Jiang 2025, ch. 22: with mu = 0.4 between the squares (and on the ground) the top square
// no longer slides off the bottom one as it does without friction: it rolls over twice (about 180
// deg, against one quarter turn without self-friction) and drags the bottom square, which tips
// over once, along to the left (the book's code: the bottom square's centre up to 0.60 m left of
// its start, ending at x = -0.47, against +0.008 without self-friction;
// tests/data/book/self_friction.csv). book_outcomes_test.cpp compares these with the book's run.
TEST(Book2DContact, FrictionalSelfContactDragsTheBottomSquareAlong) {
  const SquaresOutcome friction = run_squares("book_self_contact_2d_friction.json");
  const SquaresOutcome frictionless = run_squares("book_self_contact_2d.json");
  EXPECT_EQ(friction.intersections, 0u);
  EXPECT_GT(friction.top_rotation, 135 * M_PI / 180) << "the top square should roll over twice, counter-clockwise";
  EXPECT_LT(frictionless.top_rotation, 135 * M_PI / 180) << "without self-friction it tips over once";
  EXPECT_GT(friction.bottom_rotation, 45 * M_PI / 180) << "the bottom square should be tipped over";
  EXPECT_LT(std::abs(frictionless.bottom_rotation), 10 * M_PI / 180);
  EXPECT_LT(friction.bottom_leftmost_shift, -0.4) << "the bottom square should be dragged to the left (-x)";
  EXPECT_LT(frictionless.bottom_largest_shift, 0.1);
}

}  // namespace
}  // namespace softsim::test
