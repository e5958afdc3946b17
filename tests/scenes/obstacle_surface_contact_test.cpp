// Whole surfaces stay out of analytic obstacles (docs/contact.md, "What each obstacle
// guarantees"): cloths and solids of several resolutions dropped on spheres and boxes (landing
// on a face, across an edge, over a corner), a sphere moving up into a held cloth, and 2D bodies
// on a disk and a rectangle's corner. After every step the clearance between the body's faces
// (edges in 2D) and the obstacle, by the independent checker of support/obstacle_clearance.hpp,
// is positive; where the body comes to rest on the obstacle it is within the barrier's reach.
// Before faces were part of the barrier, the shipped 12 x 12 cloth on the sphere ended with
// triangles 2.9 mm inside it.
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "softsim/contact/geometry/collision_mesh.hpp"
#include "softsim/integrate/stepper.hpp"
#include "softsim/scene/scene.hpp"
#include "support/obstacle_clearance.hpp"

namespace softsim {
namespace obstacle_surface_contact {
namespace {

struct Outcome {
  double min_clearance = HUGE_VAL;  // over every step
  double final_clearance = HUGE_VAL;
};

// Runs the scene step by step; clearance(V, primitives) after each.
template <class Clearance>
Outcome run_checked(const nlohmann::json& j, const std::string& name, Clearance&& clearance) {
  const Scene scene = parse_scene(j, name);
  Model model = build_model(scene);
  const CollisionMesh mesh = build_collision_mesh(model);
  const MatXi primitives = model.dim() == 3 ? mesh.faces : mesh.edges;
  auto stepper = make_stepper(model, scene.integrator);
  State s{model.rest_positions, model.initial_velocity, 0.0};
  Outcome out;
  for (int n = 0; n < scene.steps; ++n) {
    EXPECT_TRUE(stepper->step(s, scene.dt).converged) << name << ": step " << n;
    const MatX V = s.x.reshaped<Eigen::RowMajor>(model.num_vertices(), model.dim());
    const double c = clearance(V, primitives);
    out.min_clearance = std::min(out.min_clearance, c);
    out.final_clearance = c;
    if (c <= 0.0) {
      ADD_FAILURE() << name << ": the surface meets the obstacle at step " << n << " (clearance " << c << ")";
      break;
    }
  }
  std::printf("[ scene ] %s: smallest clearance %.3e m, at the end %.3e m\n", name.c_str(), out.min_clearance,
              out.final_clearance);
  return out;
}

// A square cloth (StVK shell, 1 mm, rho 200) of `cells` x `cells` over size x size m at height y.
nlohmann::json cloth(int cells, double size, Vec3 centre, double E = 1e5) {
  return {{"name", "cloth"},
          {"kind", "shell"},
          {"generator", {{"type", "sheet"}, {"size", {size, 1, size}}, {"resolution", {cells, 1, cells}}}},
          {"transform", {{"translate", {centre.x(), centre.y(), centre.z()}}}},
          {"material", {{"model", "stvk"}, {"E", E}, {"nu", 0.3}, {"density", 200}, {"thickness", 0.001}}}};
}

nlohmann::json scene_3d(const nlohmann::json& body, const nlohmann::json& obstacle, int steps, double dhat) {
  return {{"dim", 3},
          {"time", {{"dt", 0.01}, {"steps", steps}}},
          {"bodies", {body}},
          {"obstacles", {obstacle}},
          {"contact", {{"dhat", dhat}}}};
}

nlohmann::json sphere(double r) { return {{"type", "sphere"}, {"center", {0, 0, 0}}, {"radius", r}}; }
nlohmann::json box(Vec3 half) {
  return {{"type", "box"}, {"center", {0, 0, 0}}, {"size", {2 * half.x(), 2 * half.y(), 2 * half.z()}}};
}

auto sphere_clearance(double r) {
  return [r](const MatX& V, const MatXi& F) { return test::sphere_clearance(V, F, Vec3::Zero(), r); };
}
auto box_clearance(Vec3 half) {
  return [half](const MatX& V, const MatXi& F) { return test::box_clearance(V, F, Vec3::Zero(), half); };
}

TEST(ObstacleSurfaceContact, ClothsOfSeveralResolutionsDrapeOverASphere) {
  // The shipped scene's cloth and sphere (12 x 12, 1 x 1 m, r = 0.3 m, dhat 3 mm), and a coarser
  // and a finer cloth; 0.4 s: landed and draping.
  for (int cells : {5, 12, 16}) {
    const double dhat = 0.003;
    const Outcome o = run_checked(scene_3d(cloth(cells, 1.0, Vec3(0, 0.35, 0), 1e6), sphere(0.3), 40, dhat),
                                  "cloth " + std::to_string(cells) + " on a sphere", sphere_clearance(0.3));
    EXPECT_GT(o.min_clearance, 0.0);
    EXPECT_LT(o.final_clearance, dhat);  // resting on it, within the barrier's reach
  }
}

TEST(ObstacleSurfaceContact, CoarseClothsOnABoxFaceEdgeAndCorner) {
  // A 0.6 x 0.6 m cloth of 4 x 4 cells dropped on a 0.4 x 0.2 x 0.4 m box: centred (on its top
  // face), shifted so that a box edge runs under its cells (across an edge), and centred over a
  // corner; rotated by a few degrees so that no cloth edge is parallel to a box edge.
  const Vec3 half(0.2, 0.1, 0.2);
  const double dhat = 0.003;
  struct Case {
    std::string name;
    Vec3 centre;
  };
  for (const Case& c : {Case{"face", Vec3(0.0, 0.13, 0.0)}, Case{"edge", Vec3(0.17, 0.13, 0.0)},
                        Case{"corner", Vec3(0.2, 0.13, 0.2)}}) {
    nlohmann::json body = cloth(4, 0.6, c.centre);
    body["transform"]["rotate"] = {0, 7, 0};
    const Outcome o = run_checked(scene_3d(body, box(half), 40, dhat), "cloth 4 on a box " + c.name, box_clearance(half));
    EXPECT_GT(o.min_clearance, 0.0);
    EXPECT_LT(o.final_clearance, 2.0 * dhat);
  }
}

// A 0.2 m cube of 2 x 2 x 2 cells of tetrahedra (E = 1e5) dropped on an obstacle.
nlohmann::json cube(Vec3 centre, Vec3 rotate) {
  return {{"name", "cube"},
          {"kind", "solid"},
          {"generator", {{"type", "box"}, {"size", {0.2, 0.2, 0.2}}, {"resolution", {2, 2, 2}}}},
          {"transform", {{"translate", {centre.x(), centre.y(), centre.z()}}, {"rotate", {rotate.x(), rotate.y(), rotate.z()}}}},
          {"material", {{"model", "neo_hookean"}, {"E", 1e5}, {"nu", 0.3}, {"density", 500}}}};
}

TEST(ObstacleSurfaceContact, ASolidLandsOnASphereAndAcrossABoxEdge) {
  const double dhat = 0.002;
  {
    // Its bottom lands on the sphere's top in the middle of a cell, between vertices.
    const Outcome o = run_checked(scene_3d(cube(Vec3(0.05, 0.42, 0.05), Vec3(0, 0, 0)), sphere(0.3), 30, dhat),
                                  "cube on a sphere", sphere_clearance(0.3));
    EXPECT_GT(o.min_clearance, 0.0);
  }
  {
    // Turned 45 degrees about y, its bottom face's diagonal across the box's top edge.
    const Vec3 half(0.2, 0.1, 0.2);
    const Outcome o = run_checked(scene_3d(cube(Vec3(0.2, 0.22, 0.0), Vec3(0, 45, 0)), box(half), 30, dhat),
                                  "cube across a box edge", box_clearance(half));
    EXPECT_GT(o.min_clearance, 0.0);
  }
}

// Friction through face contacts: a coarse cloth (6 x 6 cells, 0.6 m) dropped 0.12 m off the
// top of a sphere of radius 0.3 m rests on it mostly through faces (its chords dip inside the
// vertices' circle). With mu = 0 it slides off to the side; with mu = 0.8 it stays where it landed.
TEST(ObstacleSurfaceContact, FrictionHoldsAClothThroughItsFaceContacts) {
  auto drift = [&](double mu) {
    nlohmann::json j = scene_3d(cloth(6, 0.6, Vec3(0.12, 0.31, 0.0), 1e5), sphere(0.3), 80, 0.003);
    j["contact"]["friction"] = {{"mu", mu}};
    const Scene scene = parse_scene(j, "cloth held by friction");
    Model model = build_model(scene);
    auto stepper = make_stepper(model, scene.integrator);
    State s{model.rest_positions, model.initial_velocity, 0.0};
    VecX landed;
    for (int n = 0; n < scene.steps; ++n) {
      EXPECT_TRUE(stepper->step(s, scene.dt).converged) << "mu " << mu << ", step " << n;
      if (n == 19) landed = s.x;  // 0.2 s
    }
    double moved = 0.0;  // mean displacement along x from 0.2 s to 0.8 s
    for (int i = 0; i < model.num_vertices(); ++i) moved += s.x[3 * i] - landed[3 * i];
    return moved / model.num_vertices();
  };
  const double held = drift(0.8), sliding = drift(0.0);
  std::printf("[ scene ] cloth off the sphere's top: moved %.3e m along x (mu 0.8), %.3e m (mu 0)\n", held, sliding);
  EXPECT_LT(std::abs(held), 0.1 * sliding);
  EXPECT_GT(sliding, 0.05);
}

TEST(ObstacleSurfaceContact, ASphereMovingUpIntoAHeldCloth) {
  // A 0.6 m cloth of 5 x 5 cells held along two opposite edges, a sphere of radius 0.2 m rising
  // into it from below at 0.5 m/s for 0.3 s.
  nlohmann::json body = cloth(5, 0.6, Vec3(0, 0.25, 0));
  body["fixed"] = nlohmann::json::array(
      {{{"box", {{-0.31, 0.2, -0.31}, {-0.29, 0.3, 0.31}}}}, {{"box", {{0.29, 0.2, -0.31}, {0.31, 0.3, 0.31}}}}});
  nlohmann::json obstacle = sphere(0.2);
  obstacle["velocity"] = {0.0, 0.5, 0.0};
  nlohmann::json j = scene_3d(body, obstacle, 30, 0.003);
  j["gravity"] = {0, 0, 0};
  const Scene scene = parse_scene(j, "moving sphere");
  Model model = build_model(scene);
  const CollisionMesh mesh = build_collision_mesh(model);
  auto stepper = make_stepper(model, scene.integrator);
  State s{model.rest_positions, model.initial_velocity, 0.0};
  const int pose = model.num_vertices() - 1;
  double smallest = HUGE_VAL;
  for (int n = 0; n < scene.steps; ++n) {
    ASSERT_TRUE(stepper->step(s, scene.dt).converged) << "step " << n;
    const MatX V = s.x.reshaped<Eigen::RowMajor>(model.num_vertices(), 3);
    const double c = test::sphere_clearance(V, mesh.faces, V.row(pose).transpose(), 0.2);
    smallest = std::min(smallest, c);
    ASSERT_GT(c, 0.0) << "the cloth meets the moving sphere at step " << n;
  }
  EXPECT_NEAR(s.x[3 * pose + 1], 0.15, 1e-9);  // it moved as told, 0.15 m up
  std::printf("[ scene ] sphere rising into a cloth: smallest clearance %.3e m\n", smallest);
  EXPECT_LT(smallest, 0.003);  // it did push the cloth
}

// Penalty contact with the sphere's centre against the faces: an 8 x 8 cloth on the sphere with
// `contact.type: "penalty"` (delta = 3 mm) keeps every face out of it (smallest clearance 0.38 mm;
// with vertex contact alone its faces were 1.3 mm inside at 0.1 s, run_checked's failure).
TEST(ObstacleSurfaceContact, PenaltyContactKeepsFacesWithinItsThickness) {
  const double delta = 0.003;
  nlohmann::json j = scene_3d(cloth(8, 1.0, Vec3(0, 0.35, 0), 1e6), sphere(0.3), 40, delta);
  j["contact"] = {{"type", "penalty"}, {"delta", delta}};
  const Outcome o = run_checked(j, "penalty: cloth 8 on a sphere", sphere_clearance(0.3));
  EXPECT_GT(o.min_clearance, -delta);
}

TEST(ObstacleSurfaceContact, TwoDimensionalBodiesOnADiskAndARectangleCorner) {
  // A 0.3 m square of 2 x 2 cells (2D triangles, E = 1e5) dropped on a disk of radius 0.2 (the
  // middle of a bottom edge on top of it) and onto the corner of a rectangle, turned so that an
  // edge of it lands on the corner.
  auto square = [](Vec2 centre, double rotate) {
    return nlohmann::json{
        {"name", "square"},
        {"kind", "solid"},
        {"generator", {{"type", "rectangle"}, {"size", {0.3, 0.3}}, {"resolution", {2, 2}}}},
        {"transform", {{"translate", {centre.x(), centre.y()}}, {"rotate", rotate}}},
        {"material", {{"model", "neo_hookean"}, {"E", 1e5}, {"nu", 0.3}, {"density", 500}}}};
  };
  auto scene_2d = [](const nlohmann::json& body, const nlohmann::json& obstacle) {
    return nlohmann::json{{"dim", 2},
                          {"time", {{"dt", 0.01}, {"steps", 30}}},
                          {"bodies", {body}},
                          {"obstacles", {obstacle}},
                          {"contact", {{"dhat", 0.002}}}};
  };
  {
    const Outcome o = run_checked(
        scene_2d(square(Vec2(0.07, 0.36), 0.0), {{"type", "sphere"}, {"center", {0, 0}}, {"radius", 0.2}}),
        "square on a disk", [](const MatX& V, const MatXi& E) { return test::disk_clearance(V, E, Vec2::Zero(), 0.2); });
    EXPECT_GT(o.min_clearance, 0.0);
  }
  {
    const Outcome o = run_checked(
        scene_2d(square(Vec2(0.25, 0.32), 20.0), {{"type", "box"}, {"center", {0, 0}}, {"size", {0.4, 0.2}}}),
        "square on a rectangle's corner",
        [](const MatX& V, const MatXi& E) { return test::rectangle_clearance(V, E, Vec2::Zero(), Vec2(0.2, 0.1)); });
    EXPECT_GT(o.min_clearance, 0.0);
  }
}

}  // namespace
}  // namespace obstacle_surface_contact
}  // namespace softsim
