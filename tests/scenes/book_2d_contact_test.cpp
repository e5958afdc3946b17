// The 2D contact case studies of Li & Jiang 2025 (§8.3, §11.2, ch. 15, ch. 21-22) as scene
// files, with their friction where they have one, through the production path with the exact
// intersection check after every step.
#include <gtest/gtest.h>

#include "support/contact_scene.hpp"

namespace softsim::test {
namespace {

// The bottom of body b (min y over its vertices).
double bottom(const Model& model, const VecX& x, int b) { return body_rows(model, x, b).col(1).minCoeff(); }
double top(const Model& model, const VecX& x, int b) { return body_rows(model, x, b).col(1).maxCoeff(); }

// Smallest vertical gap between the nodes of body `below` and the bottom edge of body `above`
// (a rectangle: its bottom row of vertices, interpolated linearly in x), over the nodes under
// that edge. The ceiling bends under the load, so comparing the extreme y values of the two
// bodies would count a sagging end of the ceiling as a crossing.
double clearance_below(const Model& model, const VecX& x, int below, int above) {
  const Eigen::MatrixXd rest = body_rows(model, model.rest_positions, above), now = body_rows(model, x, above);
  std::vector<std::pair<double, double>> edge;  // (x, y) of the bottom row, sorted by x
  for (Eigen::Index i = 0; i < rest.rows(); ++i)
    if (rest(i, 1) < rest.col(1).minCoeff() + 1e-9) edge.emplace_back(now(i, 0), now(i, 1));
  std::sort(edge.begin(), edge.end());
  double gap = HUGE_VAL;
  const Eigen::MatrixXd nodes = body_rows(model, x, below);
  for (Eigen::Index i = 0; i < nodes.rows(); ++i)
    for (std::size_t k = 0; k + 1 < edge.size(); ++k)
      if (nodes(i, 0) >= edge[k].first && nodes(i, 0) <= edge[k + 1].first) {
        const double s = (nodes(i, 0) - edge[k].first) / (edge[k + 1].first - edge[k].first);
        gap = std::min(gap, (1 - s) * edge[k].second + s * edge[k + 1].second - nodes(i, 1));
      }
  return gap;
}

// Mass-spring nodes (body `points`) inside any triangle of body `solid`.
std::size_t nodes_inside(const Model& model, const VecX& x, int points, int solid) {
  std::vector<int> ids;
  for (int i = 0; i < model.bodies[points].mesh.num_vertices(); ++i) ids.push_back(model.bodies[points].first_vertex + i);
  const Eigen::MatrixXi T = model.bodies[solid].mesh.cells.array() + model.bodies[solid].first_vertex;
  return points_in_triangles_2d(as_rows(x, 2), ids, T).size();
}

TEST(Book2DContact, SquareDropComesToRestOnTheGroundNeverBelowIt) {
  const Scene scene = read_scene(scene_file("book_square_drop.json"));
  Model model = build_model(scene);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  double min_y = HUGE_VAL, max_compression = 0.0;
  double peak_kinetic = 0.0;
  const RunStats s = run_scene(scene, model, state, scene.steps, [&](int, const StepResult&, const Stepper&) {
    min_y = std::min(min_y, bottom(model, state.x, 0));
    max_compression = std::max(max_compression, 1.0 - (top(model, state.x, 0) - bottom(model, state.x, 0)));
    peak_kinetic = std::max(peak_kinetic, kinetic_energy(model, state.v));
  });
  print_stats("book_square_drop", s);
  const double gap = bottom(model, state.x, 0) + 1.0, speed = max_speed(model, state.v);
  const double kinetic = kinetic_energy(model, state.v);
  std::printf("[ scene ] book_square_drop: min y over run %.6f (ground -1), final gap %.3e m, max compression %.4f m, "
              "final max speed %.3e m/s, final / peak kinetic energy %.2e\n", min_y, gap, max_compression, speed,
              kinetic / peak_kinetic);
  EXPECT_GT(min_y, -1.0);
  EXPECT_LT(gap, scene.contact.dhat.value());  // resting in the barrier layer
  // Settled: frictionless, the square keeps rocking slowly on the ground (a mode BE damps
  // little at omega h ~ 0.04), but with 1e-4 of the kinetic energy it hit the ground with.
  EXPECT_LT(kinetic, 1e-3 * peak_kinetic);
  EXPECT_LT(speed, 0.1);
  EXPECT_GT(max_compression, 0.0);
}

TEST(Book2DContact, CompressingSquareIsCrushedToTheCeilingsLimit) {
  const Scene scene = read_scene(scene_file("book_compressing_square.json"));
  Model model = build_model(scene);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  double min_y = HUGE_VAL, min_clearance = HUGE_VAL;
  std::size_t inside = 0;
  const RunStats s = run_scene(scene, model, state, scene.steps, [&](int, const StepResult&, const Stepper&) {
    min_y = std::min(min_y, bottom(model, state.x, 0));
    min_clearance = std::min(min_clearance, clearance_below(model, state.x, 0, 1));
    inside += nodes_inside(model, state.x, 0, 1);
  });
  print_stats("book_compressing_square", s);
  const double ceiling = bottom(model, state.x, 1), height = top(model, state.x, 0) - bottom(model, state.x, 0);
  std::printf("[ scene ] book_compressing_square: ceiling bottom %.4f (target -0.6), square y in [%.4f, %.4f] "
              "(height %.4f), min y over run %.6f, min ceiling clearance %.3e m\n",
              ceiling, bottom(model, state.x, 0), top(model, state.x, 0), height, min_y, min_clearance);
  EXPECT_EQ(s.max_intersections, 0u);
  EXPECT_EQ(inside, 0u) << "mass-spring nodes inside the ceiling";
  EXPECT_GT(min_clearance, 0.0);
  EXPECT_GT(min_y, -1.0);
  EXPECT_NEAR(ceiling, -0.6, 0.02);
  EXPECT_LT(height, 0.4 + 0.02);
}

TEST(Book2DContact, InversionFreeElasticityNoTriangleEverInverts) {
  const Scene scene = read_scene(scene_file("book_inversion_free.json"));
  Model model = build_model(scene);
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
  const double ceiling = bottom(model, state.x, 1), height = top(model, state.x, 0) - bottom(model, state.x, 0);
  std::printf("[ scene ] book_inversion_free: ceiling bottom %.4f (target -0.7), square height %.4f, min det F "
              "(area ratio) %.4f, steps with an inverted triangle %d, min y %.6f\n",
              ceiling, height, min_ratio, inverted_steps, min_y);
  EXPECT_EQ(s.max_intersections, 0u);
  EXPECT_EQ(inverted_steps, 0);
  EXPECT_GT(min_ratio, 0.0);
  EXPECT_GT(min_y, -1.0);
  EXPECT_NEAR(ceiling, -0.7, 0.02);
  EXPECT_LT(height, 0.3 + 0.02);
}

TEST(Book2DContact, SelfContactTopSquareReachesTheGroundNeverIntersecting) {
  const Scene scene = read_scene(scene_file("book_self_contact_2d.json"));
  Model model = build_model(scene);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  const Eigen::RowVector2d bottom_start = body_rows(model, state.x, 1).colwise().mean();
  double min_y = HUGE_VAL;
  const RunStats s = run_scene(scene, model, state, scene.steps, [&](int, const StepResult&, const Stepper&) {
    min_y = std::min({min_y, bottom(model, state.x, 0), bottom(model, state.x, 1)});
  });
  print_stats("book_self_contact_2d", s);
  const Eigen::RowVector2d top_c = body_rows(model, state.x, 0).colwise().mean(),
                           bottom_c = body_rows(model, state.x, 1).colwise().mean();
  std::printf("[ scene ] book_self_contact_2d: ceiling bottom %.4f (target -0.7); top square centre (%.4f, %.4f), "
              "bottom %.6f; bottom square centre (%.4f, %.4f) moved %.4f m; min y %.6f\n",
              bottom(model, state.x, 2), top_c.x(), top_c.y(), bottom(model, state.x, 0), bottom_c.x(), bottom_c.y(),
              (bottom_c - bottom_start).norm(), min_y);
  EXPECT_EQ(s.max_intersections, 0u);
  EXPECT_GT(min_y, -1.0);
  EXPECT_LT(bottom(model, state.x, 0), -1.0 + 0.01) << "the top square should end on the ground";
}

TEST(ContactScenes2D, CShapeSqueezedUntilItsArmsTouch) {
  const Scene scene = read_scene(scene_file("self_touch_c_shape.json"));
  Model model = build_model(scene);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  // Inner faces of the slot: rest y = 0.3 (upper arm) and y = 0.2 (lower arm), x >= 0.3.
  std::vector<int> upper, lower;
  const MatX& X = model.bodies[0].mesh.vertices;
  for (int i = 0; i < X.rows(); ++i) {
    if (X(i, 0) < 0.3 - 1e-9) continue;
    if (std::abs(X(i, 1) - 0.3) < 1e-9) upper.push_back(i);
    if (std::abs(X(i, 1) - 0.2) < 1e-9) lower.push_back(i);
  }
  ASSERT_EQ(upper.size(), 8u);
  const IpcContact* ipc = find_ipc(model);
  ASSERT_NE(ipc, nullptr);
  double min_gap = HUGE_VAL, min_ipc = HUGE_VAL;
  const RunStats s = run_scene(scene, model, state, scene.steps, [&](int, const StepResult&, const Stepper&) {
    const Eigen::MatrixXd V = body_rows(model, state.x, 0);
    for (int a : upper)
      for (int b : lower) min_gap = std::min(min_gap, (V.row(a) - V.row(b)).norm());
    min_ipc = std::min(min_ipc, ipc->min_contact_distance(state.x));
  });
  print_stats("self_touch_c_shape", s);
  std::printf("[ scene ] self_touch_c_shape: slot (rest 0.1 m) closed to %.3e m between inner-face vertices, min IPC "
              "distance %.3e m (dhat %.3g)\n", min_gap, min_ipc, scene.contact.dhat.value());
  EXPECT_EQ(s.max_intersections, 0u);
  EXPECT_GT(min_ipc, 0.0);
  EXPECT_LT(min_gap, 2 * scene.contact.dhat.value()) << "the arms should touch";
}

}  // namespace
}  // namespace softsim::test

namespace softsim::test {
namespace {

// Rotation (radians, counter-clockwise positive) of a body's bottom edge: its leftmost and
// rightmost rest vertices on the lowest row.
double bottom_edge_angle(const Model& model, const VecX& x, int body) {
  const MatX& X = model.bodies[body].mesh.vertices;
  int left = -1, right = -1;
  const double y0 = X.col(1).minCoeff();
  for (int i = 0; i < X.rows(); ++i) {
    if (std::abs(X(i, 1) - y0) > 1e-9) continue;
    if (left < 0 || X(i, 0) < X(left, 0)) left = i;
    if (right < 0 || X(i, 0) > X(right, 0)) right = i;
  }
  const Eigen::MatrixXd V = body_rows(model, x, body);
  const Eigen::RowVector2d e = V.row(right) - V.row(left);
  return std::atan2(e.y(), e.x());
}

struct SquaresOutcome {
  double max_top_angle = -HUGE_VAL, max_bottom_shift = 0;
  std::size_t intersections = 0;
};

SquaresOutcome run_squares(const std::string& file) {
  const Scene scene = read_scene(scene_file(file));
  Model model = build_model(scene);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  const Eigen::RowVector2d start = body_rows(model, state.x, 1).colwise().mean();
  SquaresOutcome o;
  const RunStats s = run_scene(scene, model, state, scene.steps, [&](int, const StepResult&, const Stepper&) {
    o.max_top_angle = std::max(o.max_top_angle, bottom_edge_angle(model, state.x, 0));
    o.max_bottom_shift =
        std::max(o.max_bottom_shift, std::abs(body_rows(model, state.x, 1).colwise().mean().x() - start.x()));
  });
  print_stats(file.c_str(), s);
  o.intersections = s.max_intersections;
  std::printf("[ scene ] %s: top square turned up to %.1f deg; bottom square's centre moved up to %.3f m sideways\n",
              file.c_str(), o.max_top_angle * 180 / M_PI, o.max_bottom_shift);
  return o;
}

// Li & Jiang 2025, ch. 22 (Fig. 22.3.1): with mu = 0.4 everywhere the squares do not slide apart; they rotate
// counter-clockwise under the ceiling. Without friction they are squeezed out sideways.
TEST(Book2DContact, FrictionalSelfContactSquaresRotateInsteadOfSliding) {
  const SquaresOutcome friction = run_squares("book_self_contact_2d_friction.json");
  const SquaresOutcome frictionless = run_squares("book_self_contact_2d.json");
  EXPECT_EQ(friction.intersections, 0u);
  EXPECT_GT(friction.max_top_angle, 10 * M_PI / 180) << "the squares should rotate counter-clockwise";
  EXPECT_LT(friction.max_bottom_shift, 0.5 * frictionless.max_bottom_shift);
}

}  // namespace
}  // namespace softsim::test
