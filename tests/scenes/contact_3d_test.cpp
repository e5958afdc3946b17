// 3D contact scenes (scenes/*.json) through the production path, the exact intersection check
// after every step, plus thread-count determinism.
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <cstring>

#include "support/contact_scene.hpp"
#include "support/data_dir.hpp"

namespace softsim::test {
namespace {

TEST(ContactScenes3D, BoxStackSettlesAndStaysStacked) {
  Scene scene = read_scene(scene_file("box_stack.json"));
  Model model = build_model(scene);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  double min_y = HUGE_VAL;
  const RunStats s = run_scene(scene, model, state, scene.steps, [&](int, const StepResult&, const Stepper&) {
    min_y = std::min(min_y, as_rows(state.x, 3).col(1).minCoeff());
  });
  print_stats("box_stack", s);
  Eigen::Vector3d c[3];
  for (int b = 0; b < 3; ++b) c[b] = body_rows(model, state.x, b).colwise().mean().transpose();
  const double speed = max_speed(model, state.v);
  std::printf("[ scene ] box_stack: centres (%.4f %.4f %.4f) (%.4f %.4f %.4f) (%.4f %.4f %.4f), min y %.3e, final max "
              "speed %.3e m/s\n", c[0].x(), c[0].y(), c[0].z(), c[1].x(), c[1].y(), c[1].z(), c[2].x(), c[2].y(),
              c[2].z(), min_y, speed);
  EXPECT_EQ(s.max_intersections, 0u);
  EXPECT_GT(min_y, 0.0);
  // Sides 0.3, 0.2, 0.12: resting centres at 0.15, 0.4, 0.56 (less a little compression).
  const double expected_gap[3] = {0.0, 0.25, 0.16};
  for (int b = 1; b < 3; ++b) {
    EXPECT_LT(std::hypot(c[b].x() - c[0].x(), c[b].z() - c[0].z()), 0.03) << "box " << b;
    EXPECT_NEAR(c[b].y() - c[b - 1].y(), expected_gap[b], 0.01) << "box " << b;  // order kept, on the one below
  }
  EXPECT_NEAR(c[0].y(), 0.15, 0.01);
  EXPECT_LT(speed, 1e-3);  // friction brings the stack to rest
}

TEST(ContactScenes3D, TorusFromSharedDataRestsOnThePlane) {
  SOFTSIM_REQUIRE_SHARED_DATA();
  const Scene scene = read_scene(scene_file("torus_drop.json"));
  Model model = build_model(scene);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  double min_y = HUGE_VAL;
  const RunStats s = run_scene(scene, model, state, scene.steps, [&](int, const StepResult&, const Stepper&) {
    min_y = std::min(min_y, as_rows(state.x, 3).col(1).minCoeff());
  });
  print_stats("torus_drop", s);
  const double final_min = as_rows(state.x, 3).col(1).minCoeff(), speed = max_speed(model, state.v);
  std::printf("[ scene ] torus_drop: %d tets, min y over run %.3e, final min y %.3e, final max speed %.3e m/s\n",
              static_cast<int>(model.bodies[0].mesh.cells.rows()), min_y, final_min, speed);
  EXPECT_EQ(s.max_intersections, 0u);
  EXPECT_GT(min_y, 0.0);
  EXPECT_LT(final_min, scene.contact.dhat.value());
  EXPECT_LT(speed, 0.05);
}

TEST(ContactScenes3D, ClothDrapesOverTheSphereNeverInsideIt) {
  const Scene scene = read_scene(scene_file("cloth_on_sphere.json"));
  Model model = build_model(scene);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  const Eigen::Vector3d centre = scene.obstacles[0].point;
  const double radius = scene.obstacles[0].radius;
  double min_gap = HUGE_VAL;
  // 100 of the scene's 150 steps (the sheet has draped by then; keeps the test a few seconds).
  const RunStats s = run_scene(scene, model, state, 100, [&](int, const StepResult&, const Stepper&) {
    const Eigen::MatrixXd V = as_rows(state.x, 3);
    min_gap = std::min(min_gap, (V.rowwise() - centre.transpose()).rowwise().norm().minCoeff() - radius);
  });
  print_stats("cloth_on_sphere", s);
  // Corners: the vertices farthest from the centre line in x-z at rest.
  const Eigen::MatrixXd X = as_rows(model.rest_positions, 3), V = as_rows(state.x, 3);
  double corner_max_y = -HUGE_VAL;
  for (int i = 0; i < X.rows(); ++i)
    if (std::abs(std::abs(X(i, 0)) - 0.5) < 1e-9 && std::abs(std::abs(X(i, 2)) - 0.5) < 1e-9)
      corner_max_y = std::max(corner_max_y, V(i, 1));
  std::printf("[ scene ] cloth_on_sphere: min vertex distance to the sphere %.3e m, highest corner y %.4f (sphere top "
              "%.2f), cloth top %.4f\n", min_gap, corner_max_y, centre.y() + radius, V.col(1).maxCoeff());
  EXPECT_EQ(s.max_intersections, 0u);
  EXPECT_GT(min_gap, 0.0);
  EXPECT_LT(corner_max_y, centre.y() + radius);
  EXPECT_GT(V.col(1).maxCoeff(), centre.y() + radius);  // still on the sphere, not fallen off
}

TEST(ContactScenes3D, ThrownBoxesAt20MetresPerSecondDoNotTunnel) {
  const Scene scene = read_scene(scene_file("thrown_boxes.json"));
  Model model = build_model(scene);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  // The side of the left plate's centroid relative to the right plate's front face (its rest
  // x = min): the plane through that face's centroid with the normal of its two diagonals.
  const MatX& R = model.bodies[1].mesh.vertices;
  const double front_x = R.col(0).minCoeff();
  std::vector<int> front;
  for (int i = 0; i < R.rows(); ++i)
    if (R(i, 0) < front_x + 1e-9) front.push_back(model.bodies[1].first_vertex + i);
  auto corner = [&](const VecX& x, double sy, double sz) {  // front vertex extreme in (sy y + sz z)
    int best = front[0];
    for (int v : front)
      if (sy * x[3 * v + 1] + sz * x[3 * v + 2] > sy * x[3 * best + 1] + sz * x[3 * best + 2]) best = v;
    return Eigen::Vector3d(x.segment<3>(3 * best));
  };
  auto side = [&](const VecX& x) {
    Eigen::Vector3d n = (corner(x, 1, 1) - corner(x, -1, -1)).cross(corner(x, 1, -1) - corner(x, -1, 1));
    Eigen::Vector3d c = Eigen::Vector3d::Zero();
    for (int v : front) c += x.segment<3>(3 * v);
    c /= front.size();
    const Eigen::Vector3d cl = body_rows(model, x, 0).colwise().mean().transpose();
    return (cl - c).dot(n.normalized());
  };
  const double side0 = side(state.x);
  int flipped = 0;
  double min_side = HUGE_VAL;
  const RunStats s = run_scene(scene, model, state, scene.steps, [&](int, const StepResult&, const Stepper&) {
    const double d = side(state.x);
    min_side = std::min(min_side, d * (side0 > 0 ? 1 : -1));
    flipped += (d > 0) != (side0 > 0);
  });
  print_stats("thrown_boxes", s);
  const double vl = body_rows(model, state.v, 0).col(0).mean(), vr = body_rows(model, state.v, 1).col(0).mean();
  std::printf("[ scene ] thrown_boxes: left centroid vs right front face: start %.4f m, min %.3e m (steps on the wrong "
              "side %d); final mean x-velocities %.3f / %.3f m/s\n", std::abs(side0), min_side, flipped, vl, vr);
  EXPECT_EQ(s.max_intersections, 0u);
  EXPECT_EQ(flipped, 0);
  EXPECT_GT(min_side, 0.0);
  // Stopped or bounced back (backward Euler dissipates much of the impact).
  EXPECT_LT(vl, 1.0);
  EXPECT_GT(vr, -1.0);
}

TEST(ContactScenes3D, OneAndTwoThreadsGiveBitIdenticalPositions) {
  // Finer boxes than the scene file so that elements and contact pairs span several parallel
  // blocks (256 items each).
  Scene scene = read_scene(scene_file("box_stack.json"));
  for (BodySpec& b : scene.bodies) b.generator->resolution = Eigen::Vector3i(5, 5, 5);  // 3 x 625 tets
  auto run = [&](int threads) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
    Model model = build_model(scene);
    State state{model.rest_positions, model.initial_velocity, 0.0};
    run_scene(scene, model, state, 40);
    const IpcContact* ipc = find_ipc(model);
    std::printf("[ scene ] determinism (%d threads): %d active IPC pairs, %ld tets\n", threads,
                ipc ? ipc->active_pairs(state.x) : -1, static_cast<long>(3 * model.bodies[0].mesh.cells.rows()));
    return state.x;
  };
  const VecX a = run(1), b = run(2);
  ASSERT_EQ(a.size(), b.size());
  long differing = 0;
  for (Eigen::Index i = 0; i < a.size(); ++i) differing += std::memcmp(&a[i], &b[i], sizeof(double)) != 0;
  std::printf("[ scene ] determinism: box_stack 40 steps, %ld of %ld coordinates differ between 1 and 2 threads\n",
              differing, static_cast<long>(a.size()));
  EXPECT_EQ(differing, 0);
}

}  // namespace
}  // namespace softsim::test
