#include "softsim/peer_scenes/ipc_scene.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "softsim/core/errors.hpp"
#include "softsim/io/write_mesh.hpp"
#include "softsim/mesh/generators.hpp"
#include "softsim/peer_scenes/rigid_transform.hpp"
#include "softsim/scene/scene.hpp"
#include "support/contact_scene.hpp"
#include "support/temp_dir.hpp"

namespace softsim {
namespace {

using nlohmann::json;

// IPC's cube.msh ([0, 1]^3, 2 x 2 x 2 cells here) and plane.obj, under root/input/.
struct IpcRoot {
  test::TempDir dir{"ipc_scene"};
  IpcRoot() {
    std::filesystem::create_directories(dir.path() / "input" / "tetMeshes");
    std::filesystem::create_directories(dir.path() / "input" / "triMeshes");
    Mesh cube = generate_box(Vec3::Ones(), Eigen::Vector3i::Constant(2));
    cube.vertices.rowwise() += Eigen::RowVector3d::Constant(0.5);
    write_msh41_ascii(dir.path() / "input" / "tetMeshes" / "cube.msh", cube);
    std::ofstream(dir.path() / "input" / "triMeshes" / "plane.obj") << "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1 3 2\nf 1 4 3\n";
  }
  json convert(const std::string& text, std::vector<std::string>* notes = nullptr) const {
    const std::filesystem::path file = dir.path() / "input" / "scene.txt";
    std::ofstream(file) << text;
    std::vector<std::string> n;
    json s = ipc_scene_to_softsim(file, notes ? *notes : n);
    return s;
  }
  Model build(const json& s) const { return build_model(parse_scene(s, dir.path() / "input" / "scene.txt")); }
};

TEST(IpcScene, ShapeTransformIsScaleThenRzRyRxThenTranslate) {
  IpcRoot root;
  const json s = root.convert("shapes input 1\ninput/tetMeshes/cube.msh 1 2 3  90 0 90  2 1 1\nturnOffGravity\n");
  EXPECT_EQ(s["bodies"][0]["mesh"], "../input/tetMeshes/cube.msh");  // found from the scene's folder upwards
  const Model model = root.build(s);
  const auto x = as_rows(model.rest_positions, 3);
  // Vertex (1, 0, 0) of the raw mesh: scaled to (2, 0, 0), turned by Rx(90) Rz(90) (z first).
  const Mat3 R = axis_rotation(0, 90) * axis_rotation(2, 90);
  const Mesh cube = [] {
    Mesh c = generate_box(Vec3::Ones(), Eigen::Vector3i::Constant(2));
    c.vertices.rowwise() += Eigen::RowVector3d::Constant(0.5);
    return c;
  }();
  for (int v = 0; v < cube.num_vertices(); ++v) {
    const Vec3 expected = R * Vec3(cube.vertices.row(v).transpose()).cwiseProduct(Vec3(2, 1, 1)) + Vec3(1, 2, 3);
    EXPECT_LT((x.row(v).transpose() - expected).norm(), 1e-12);
  }
  EXPECT_EQ(s["gravity"], json({0.0, 0.0, 0.0}));
}

TEST(IpcScene, SizeFallAndTheRelativeAccuracyParameters) {
  IpcRoot root;
  // Two cubes 1 apart in y; size 1 scales the set (3 tall) by 1/3 with its corner at the origin,
  // fall lifts it by half the set's diagonal; dHat, epsv, tol are fractions of the tets' diagonal.
  const json s = root.convert(
      "size 1\nscript fall\ntime 1 0.05\nselfFric 0.2\nshapes input 2\ninput/tetMeshes/cube.msh 0 0 0 0 0 0 1 1 1\n"
      "input/tetMeshes/cube.msh 0 2 0 0 0 0 1 1 1\nground 0.4 -0.1\nmeshCO input/triMeshes/plane.obj 0 -0.2 0 4 50 1\n"
      "dHat 2e-3\nepsv 1e-2\n");
  const double k = 1.0 / 3.0, l = std::sqrt(k * k * 2 + 1.0);  // the set's diagonal after size
  const double lift = 0.5 * l;
  EXPECT_NEAR(s["bodies"][1]["transform"]["translate"][1].get<double>(), 2 * k + lift, 1e-12);
  EXPECT_NEAR(s["bodies"][0]["transform"]["scale"].get<double>(), k, 1e-15);
  EXPECT_NEAR(s["contact"]["dhat"].get<double>(), 2e-3 * l, 1e-15);
  EXPECT_NEAR(s["contact"]["friction"]["eps_v"].get<double>(), 1e-2 * l * 0.025 / 0.05, 1e-15);  // IPC's 0.025 s
  EXPECT_NEAR(s["solver"]["tolerance"].get<double>(), 1e-2 * l, 1e-15);
  EXPECT_EQ(s["solver"]["max_iterations"], 10000);  // IPC's Newton cap
  EXPECT_EQ(s["time"]["steps"], 20);
  EXPECT_EQ(s["gravity"], json({0.0, -9.80665, 0.0}));
  // ground mu y: a plane at y with its own friction; the meshCO: centred, longest side 4, no friction.
  const json& ground = s["obstacles"][1];
  EXPECT_EQ(ground["point"], json({0.0, -0.1, 0.0}));
  bool ground_pair = false, meshco_pair = false;
  for (const json& p : s["contact"]["friction"]["pairs"]) {
    if (p["bodies"][1] == "ground") ground_pair = ground_pair || p["mu"] == 0.4;
    if (p["bodies"][1] == "meshCO0") meshco_pair = meshco_pair || p["mu"] == 0.0;
  }
  EXPECT_TRUE(ground_pair);
  EXPECT_TRUE(meshco_pair);
  const Model model = root.build(s);
  EXPECT_EQ(model.bodies.size(), 2u);
}

TEST(IpcScene, DbcPiecesBecomeOneMotionAndNbcAForcePerVertex) {
  IpcRoot root;
  const json s = root.convert(
      "time 0.2 0.05\nshapes input 1\ninput/tetMeshes/cube.msh 0 1 0 0 0 0 1 1 1 \\\n"
      "  DBC -0.1 -0.1 -0.1 0.1 1.1 1.1 0.2 0 0 0 0 0 0 0.1 \\\n"
      "  DBC -0.1 -0.1 -0.1 0.1 1.1 1.1 0 0 0 0 0 0 0.1 \\\n"
      "  NBC 0.9 -0.1 -0.1 1.1 1.1 1.1 0 -3 0\n");
  const json& fixed = s["bodies"][0]["fixed"];
  ASSERT_EQ(fixed.size(), 1u);
  EXPECT_EQ(fixed[0]["ids"].size(), 9u);  // the x = 0 face's surface vertices
  // 0.2 m/s for the first 0.1 s, then held: keyframes (0, 0), (0.1, 0.02), (0.2, 0.02).
  const json& path = fixed[0]["path"];
  ASSERT_EQ(path.size(), 3u);
  EXPECT_NEAR(path[1][0].get<double>(), 0.1, 1e-12);
  EXPECT_NEAR(path[1][1].get<double>(), 0.02, 1e-12);
  EXPECT_NEAR(path[2][1].get<double>(), 0.02, 1e-12);
  // NBC: a force m_i a on each of the x = 1 face's 9 vertices; they add up to (face mass) x a.
  double fy = 0.0;
  for (const json& load : s["bodies"][0]["loads"]) fy += load["force"][1].get<double>();
  EXPECT_EQ(s["bodies"][0]["loads"].size(), 9u);
  // Lumped masses: each cell gives half its mass to each of its two x faces, so the x = 1 layer
  // of a 2-cell-thick cube carries a quarter of its 1000 kg.
  EXPECT_NEAR(fy, -3.0 * 1000 / 4.0, 1e-9);
}

TEST(IpcScene, NbcActsUnderAScriptAndOverlappingDbcPiecesAdd) {
  IpcRoot root;
  // IPC applies NBC whatever the script (Optimizer.cpp), and ignores DBC under one.
  json s = root.convert("script fall\nshapes input 1\ninput/tetMeshes/cube.msh 0 1 0 0 0 0 1 1 1 NBC 0 0 0 1 1 1 0 -3 0\n");
  EXPECT_EQ(s["bodies"][0]["loads"].size(), 26u);  // every surface vertex of the 3 x 3 x 3 grid
  // Pieces [0, inf) and [0, 0.1) of one box: both act until 0.1 s (their velocities add), then the first.
  s = root.convert("time 0.2 0.05\nshapes input 1\ninput/tetMeshes/cube.msh 0 1 0 0 0 0 1 1 1 \\\n"
                   "  DBC -0.1 -0.1 -0.1 0.1 1.1 1.1 0.1 0 0 0 0 0 \\\n"
                   "  DBC -0.1 -0.1 -0.1 0.1 1.1 1.1 0.1 0 0 0 0 0 0 0.1\n");
  const json& path = s["bodies"][0]["fixed"][0]["path"];
  ASSERT_EQ(path.size(), 3u);
  EXPECT_NEAR(path[1][1].get<double>(), 0.02, 1e-12);   // 0.2 m/s for 0.1 s
  EXPECT_NEAR(path[2][1].get<double>(), 0.03, 1e-12);   // then 0.1 m/s for the last 0.1 s
}

TEST(IpcScene, NbcWithATimeRangeIsALoadSwitchedOnAndOff) {
  IpcRoot root;
  // IPC applies a load in the steps whose start time is in [t0, t1): softsim's from / until.
  json s = root.convert("time 1 0.05\nshapes input 1\ninput/tetMeshes/cube.msh 0 1 0 0 0 0 1 1 1 \\\n"
                        "  NBC 0.9 -0.1 -0.1 1.1 1.1 1.1 0 -3 0 0.2 0.5 \\\n"
                        "  NBC -0.1 -0.1 -0.1 0.1 1.1 1.1 0 3 0 0.4\n");
  const json& loads = s["bodies"][0]["loads"];
  ASSERT_EQ(loads.size(), 18u);
  EXPECT_EQ(loads[0]["from"], 0.2);
  EXPECT_EQ(loads[0]["until"], 0.5);
  EXPECT_EQ(loads[9]["from"], 0.4);
  EXPECT_FALSE(loads[9].contains("until"));  // open-ended, as IPC's default end (infinity)
  const Scene scene = parse_scene(s, root.dir.path() / "input" / "scene.txt");
  EXPECT_EQ(scene.bodies[0].loads[0].from, 0.2);
  EXPECT_EQ(scene.bodies[0].loads[0].until, 0.5);
  // An empty range is refused by line.
  try {
    root.convert("shapes input 1\ninput/tetMeshes/cube.msh 0 1 0 0 0 0 1 1 1 NBC 0 0 0 1 1 1 0 -3 0 0.5 0.5\n");
    FAIL() << "accepted an empty range";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("line 2: NBC: the time range [0.5, 0.5) s is empty"), std::string::npos)
        << e.what();
  }
}

// IPC's DCOSquash6 (the trash compactor, Li et al. 2020, Fig. 15): six 3 x 3 walls that cross along
// their edges move in at 1 m/s and turn back at the first step whose start finds walls 0 and 1
// closer than 0.1 (here 2.01 - 2 t < 0.1: after 96 steps of 0.01 s, t = 0.96). Converted to
// penalty-driven paths on kinematic shells, which contact lets cross; the cube between them is
// squeezed from its six sides and nothing intersects it.
TEST(IpcScene, Squash6WallsTurnBackAtTheGapAndSqueezeTheBody) {
  IpcRoot root;
  const std::string walls =
      "input/triMeshes/plane.obj -1.005 1.5 -1.5  0 0 -90  3 3 3\n"
      "input/triMeshes/plane.obj 1.005 1.5 -1.5  0 0 -90  3 3 3\n"
      "input/triMeshes/plane.obj -1.5 -1 -1.5  0 0 0  3 3 3\n"
      "input/triMeshes/plane.obj -1.5 1 -1.5  0 0 0  3 3 3\n"
      "input/triMeshes/plane.obj -1.5 1.5 -1  90 0 0  3 3 3\n"
      "input/triMeshes/plane.obj -1.5 1.5 1  90 0 0  3 3 3\n";
  const json s = root.convert("energy NH\ntime 2.5 0.01\nstiffness 10000 0.4\nscript DCOSquash6\nturnOffGravity\n"
                              "shapes input 7\n" + walls + "input/tetMeshes/cube.msh -0.4 -0.4 -0.4  0 0 0  0.8 0.8 0.8\n"
                              "selfCollisionOn\n");
  ASSERT_EQ(s["bodies"].size(), 7u);
  for (int i = 0; i < 6; ++i) {
    const json& fixed = s["bodies"][i]["fixed"][0];
    EXPECT_EQ(s["bodies"][i]["kind"], "shell");
    EXPECT_EQ(fixed["method"], "penalty");
    const json& path = fixed["path"];
    ASSERT_EQ(path.size(), 3u) << i;
    const double sign = i % 2 == 0 ? 1.0 : -1.0;
    EXPECT_NEAR(path[1][0].get<double>(), 0.96, 1e-12);
    EXPECT_NEAR(path[1][1 + i / 2].get<double>(), sign * 0.96, 1e-9);  // in for 96 steps
    EXPECT_NEAR(path[2][0].get<double>(), 2.5, 1e-12);
    EXPECT_NEAR(path[2][1 + i / 2].get<double>(), sign * (0.96 - 1.54), 1e-9);  // then out for 154
  }
  Scene scene = parse_scene(s, root.dir.path() / "input" / "scene.txt");
  Model model = build_model(scene);  // the walls cross at their edges: accepted, they are kinematic
  for (int i = 0; i < 6; ++i) EXPECT_TRUE(model.bodies[i].kinematic);
  EXPECT_FALSE(model.bodies[6].kinematic);
  // 63 steps: the walls close to 0.74 m apart (0.75 for the x pair), past the cube's 0.8 m.
  State state{model.rest_positions, model.initial_velocity, 0.0};
  const test::RunStats stats = test::run_scene(scene, model, state, 63);
  EXPECT_EQ(stats.failed_steps, 0);
  EXPECT_EQ(stats.max_intersections, 0u);
  const Eigen::MatrixXd cube = test::body_rows(model, state.x, 6);
  for (int axis = 0; axis < 3; ++axis) {
    const double width = cube.col(axis).maxCoeff() - cube.col(axis).minCoeff();
    EXPECT_LT(width, 0.76) << axis;  // squeezed from 0.8 on every axis
    EXPECT_GT(width, 0.6) << axis;
  }
}

// A DBC over part of the run (late, or released): free outside its range, so each piece is a
// penalty-driven motion acting in the steps that start in [t0, t1), from wherever the vertices
// are. A cube's top held in the steps starting in [0.105, 0.205) s (steps 11-20 of 0.01 s) while
// it falls: it falls freely, hangs, then falls again.
TEST(IpcScene, DbcOverPartOfTheRunHoldsTheVerticesOnlyThen) {
  IpcRoot root;
  const json s = root.convert(
      "time 0.3 0.01\nshapes input 1\ninput/tetMeshes/cube.msh 0 1 0 0 0 0 1 1 1 \\\n"
      "  DBC -0.1 0.9 -0.1 1.1 1.1 1.1 0 0 0 0 0 0 0.105 0.205\n");
  const json& fixed = s["bodies"][0]["fixed"];
  ASSERT_EQ(fixed.size(), 1u);
  EXPECT_EQ(fixed[0]["method"], "penalty");
  EXPECT_EQ(fixed[0]["from"], 0.105);
  EXPECT_EQ(fixed[0]["until"], 0.205);
  EXPECT_EQ(fixed[0]["ids"].size(), 9u);  // the top face's vertices
  Scene scene = parse_scene(s, root.dir.path() / "input" / "scene.txt");
  Model model = build_model(scene);
  EXPECT_FALSE(model.bodies[0].kinematic);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  const int top = fixed[0]["ids"][0].get<int>();
  std::vector<double> y;  // the top vertex's height after each step
  auto stepper = make_stepper(model, scene.integrator);
  for (int n = 0; n < 30; ++n) {
    ASSERT_TRUE(stepper->step(state, scene.dt).converged) << n;
    y.push_back(state.x[3 * top + 1]);
  }
  const double g = 9.80665, h = 0.01;
  EXPECT_NEAR(y[10], 2.0 - g * h * h * 66, 1e-6);  // 11 free steps (backward Euler: g h^2 n (n + 1) / 2)
  EXPECT_LT(std::abs(y[20] - y[10]), 1e-3);        // held in steps 11-20
  EXPECT_LT(y[29], y[20] - 0.02);                  // falling again after
}

// dampingRatio r: IPC's stiffness damping, dampingStiff = 3/4 r h^3 on K(x^n) (x - x^n) / h, is
// Rayleigh beta = 3/4 r h under backward Euler, divided by Newmark's beta under Newmark; IPC clamps
// r to [0, 1]; the converted scene builds with that beta.
TEST(IpcScene, DampingRatioIsRayleighStiffnessDamping) {
  IpcRoot root;
  const std::string cube = "shapes input 1\ninput/tetMeshes/cube.msh 0 1 0 0 0 0 1 1 1\nstiffness 1e5 0.4\n";
  json s = root.convert("time 1 0.01\ndampingRatio 0.1\n" + cube);
  EXPECT_NEAR(s["damping"]["beta"].get<double>(), 0.75 * 0.1 * 0.01, 1e-18);
  s = root.convert("time 1 0.01\ntimeIntegration NM\ndampingRatio 3\n" + cube);
  EXPECT_NEAR(s["damping"]["beta"].get<double>(), 0.75 * 1.0 * 0.01 / 0.25, 1e-15);
  EXPECT_FALSE(root.convert("time 1 0.01\ndampingRatio 0\n" + cube).contains("damping"));
  const Model model = root.build(s);
  EXPECT_NEAR(model.rayleigh_beta, 0.03, 1e-15);
}

// IPC guards only NH against inversion (FixedCoRotEnergy builds its Energy without the guard):
// a converted FCR body lets a Newton step flatten and invert an element, an NH body does not.
TEST(IpcScene, OnlyNeoHookeanBodiesKeepTheInversionFilter) {
  IpcRoot root;
  const std::string cube = "turnOffGravity\nshapes input 1\ninput/tetMeshes/cube.msh 0 0 0 0 0 0 1 1 1\n";
  for (const std::string energy : {"FCR", "NH"}) {
    SCOPED_TRACE(energy);
    const json s = root.convert("energy " + energy + "\n" + cube);
    const Model model = root.build(s);
    ModelData data(model);
    const Stage stage = Stage::step(0.0, 0.01);
    const VecX x = model.rest_positions;
    model.begin_step(stage, data, x);
    // The full step mirrors the unit cube about y = 1/2: every tet's det F = 1 - 2 alpha.
    VecX p = VecX::Zero(x.size());
    for (Eigen::Index v = 0; v < x.size() / 3; ++v) p[3 * v + 1] = -2.0 * x[3 * v + 1] + 1.0;
    // The elasticity's filter alone (the surface's CCD bounds the mirroring too).
    double alpha = -1.0;
    for (const auto& term : model.energies())
      if (term->name().rfind("elasticity", 0) == 0) alpha = term->max_step_fraction(EvalContext{stage, data}, x, p);
    if (energy == "FCR") {
      EXPECT_FALSE(s["solver"]["inversion_filter"].get<bool>());
      EXPECT_EQ(alpha, 1.0);
    } else {
      EXPECT_FALSE(s["solver"].contains("inversion_filter"));
      EXPECT_NEAR(alpha, 0.45, 1e-12);  // det F = 1 - 2 alpha reaches 0.1 of its start
    }
  }
}

TEST(IpcScene, RefusesWhatItCannotTakeByLine) {
  IpcRoot root;
  const auto message = [&](const std::string& text) {
    try {
      root.convert(text);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  const std::string shape = "shapes input 1\ninput/tetMeshes/cube.msh 0 1 0 0 0 0 1 1 1";
  EXPECT_NE(message(shape + "\nenergy StVK\n").find("line 3: energy: \"StVK\""), std::string::npos);
  EXPECT_NE(message(shape + "\ntimeIntegration RK4\n").find("line 3: timeIntegration"), std::string::npos);
  EXPECT_NE(message(shape + " DBC 0 0 0 1 1 1 0 0 0 0 0 90 0.5\n").find("line 2: DBC: a turning Dirichlet condition over part"),
            std::string::npos);
  EXPECT_NE(message(shape + " DBC 0 0 0 1 1 1 0 0 0 0 0 0 0.5 0.5\n").find("line 2: DBC: the time range [0.5, 0.5) s is empty"),
            std::string::npos);
  EXPECT_NE(message("script spin\n" + shape + "\n").find("line 1: script spin"), std::string::npos);
  EXPECT_NE(message("density\n" + shape + "\n").find("line 1: density: expected 1 value"), std::string::npos);
  EXPECT_NE(message("view perspective\n").find("no shapes"), std::string::npos);
}

}  // namespace
}  // namespace softsim
