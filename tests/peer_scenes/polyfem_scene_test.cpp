#include "softsim/peer_scenes/polyfem_scene.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "softsim/core/errors.hpp"
#include "softsim/io/write_mesh.hpp"
#include "softsim/mesh/generators.hpp"
#include "softsim/peer_scenes/rigid_transform.hpp"
#include "softsim/peer_scenes/scene_source.hpp"
#include "softsim/scene/scene.hpp"
#include "support/contact_scene.hpp"
#include "support/temp_dir.hpp"

namespace softsim {
namespace {

using nlohmann::json;

// A unit cube of 2 x 2 x 2 cells centred at the origin, as PolyFEM's cube.msh, and a common.json.
struct PolyfemFolder {
  test::TempDir dir{"polyfem"};
  PolyfemFolder() {
    write_msh41_ascii(dir.path() / "cube.msh", generate_box(Vec3::Ones(), Eigen::Vector3i::Constant(2)));
    std::ofstream(dir.path() / "common.json") << R"({"contact": {"enabled": true, "dhat": 0.002},
      "solver": {"advanced": {"lump_mass_matrix": true}, "nonlinear": {"solver": "Newton"}},
      "output": {"json": "sim.json"}})";
  }
  std::filesystem::path write(const std::string& name, const json& scene) const {
    std::ofstream(dir.path() / name) << scene.dump(2);
    return dir.path() / name;
  }
};

// Two cubes 0.05 apart, the lower one's bottom face clamped (PolyFEM's 2-cubes, coarser).
json two_cubes() {
  return R"({
    "common": "common.json",
    "geometry": [
      {"mesh": "cube.msh", "transformation": {"translation": [0, 1.05, 0]}, "volume_selection": 1},
      {"mesh": "cube.msh", "volume_selection": 2,
       "surface_selection": {"id": 1, "axis": "-y", "position": 1e-5, "relative": true}}],
    "contact": {"dhat": 0.001},
    "time": {"tend": 0.5, "time_steps": 25},
    "boundary_conditions": {"rhs": [0, 9.81, 0], "dirichlet_boundary": {"id": 1, "value": [0, 0, 0]}},
    "materials": [{"id": 1, "E": 1e5, "nu": 0.4, "rho": 1000, "type": "NeoHookean"},
                  {"id": 2, "E": 1e7, "nu": 0.3, "type": "NeoHookean"}]
  })"_json;
}

TEST(PolyfemScene, ConvertsGeometryMaterialsTimeContactAndBoundaryConditions) {
  PolyfemFolder folder;
  const SceneSource source = read_scene_source(folder.write("two.json", two_cubes()));
  EXPECT_EQ(source.format, SceneFormat::polyfem);
  const json& s = source.json;
  EXPECT_DOUBLE_EQ(s["time"]["dt"].get<double>(), 0.02);
  EXPECT_EQ(s["time"]["steps"], 25);
  EXPECT_EQ(s["gravity"], json({-0.0, -9.81, -0.0}));
  EXPECT_EQ(s["contact"]["dhat"], 0.001);  // the scene's value over common.json's
  EXPECT_TRUE(s["contact"]["enabled"].get<bool>());
  ASSERT_EQ(s["bodies"].size(), 2u);
  EXPECT_EQ(s["bodies"][0]["material"]["density"], 1000.0);
  EXPECT_EQ(s["bodies"][1]["material"]["density"], 1.0);  // PolyFEM's default rho
  EXPECT_EQ(s["bodies"][1]["material"]["E"], 1e7);
  EXPECT_EQ(s["bodies"][0]["material"]["mass"], "lumped");
  EXPECT_EQ(s["bodies"][0]["transform"]["translate"], json({0.0, 1.05, 0.0}));
  // The clamp holds exactly the 9 vertices of the lower cube's bottom face.
  ASSERT_TRUE(s["bodies"][1].contains("fixed"));
  const auto ids = s["bodies"][1]["fixed"][0]["ids"].get<std::vector<int>>();
  EXPECT_EQ(ids.size(), 9u);
  const Scene scene = parse_scene(s, folder.dir.path() / "two.json");
  const Model model = build_model(scene);
  const auto x = as_rows(model.rest_positions, 3);
  const int lower = model.bodies[1].first_vertex;
  for (int v : ids) EXPECT_DOUBLE_EQ(x(lower + v, 1), -0.5);
  // Ignored keys are noted, one line each.
  EXPECT_EQ(source.notes.size(), 2u);  // output, solver.nonlinear
  // PolyFEM's Newton cap (polysolve's default) becomes softsim's, so impact steps are not halved earlier.
  EXPECT_EQ(s["solver"]["max_iterations"], 500);
  EXPECT_EQ(scene.integrator.newton.max_iterations, 500);
}

TEST(PolyfemScene, KeepsTheNewtonIterationCapItIsGiven) {
  PolyfemFolder folder;
  json scene = two_cubes();
  scene["solver"] = {{"nonlinear", {{"max_iterations", 37}}}};
  const std::filesystem::path file = folder.write("cap.json", scene);
  EXPECT_EQ(parse_scene(read_scene_source(file).json, file).integrator.newton.max_iterations, 37);
  for (const json& bad : {json(0), json(2.5), json("many")}) {
    scene["solver"]["nonlinear"]["max_iterations"] = bad;
    try {
      read_scene_source(folder.write("bad_cap.json", scene));
      FAIL() << "accepted " << bad;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("bad_cap.json: solver.nonlinear.max_iterations: expected an integer"),
                std::string::npos)
          << e.what();
    }
  }
}

TEST(PolyfemScene, TheUpperCubeLandsOnTheClampedOneWithoutIntersecting) {
  PolyfemFolder folder;
  const std::filesystem::path file = folder.write("two.json", two_cubes());
  const Scene scene = parse_scene(read_scene_source(file).json, file);
  Model model = build_model(scene);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  const test::RunStats stats = test::run_scene(scene, model, state, scene.steps);
  EXPECT_EQ(stats.max_intersections, 0u);
  EXPECT_EQ(stats.failed_steps, 0);
  const auto x = as_rows(state.x, 3);
  const Body& upper = model.bodies[0];
  const double bottom = x.middleRows(upper.first_vertex, upper.mesh.num_vertices()).col(1).minCoeff();
  // Free fall would take it to 1.05 - 0.5 - g t^2 / 2 = -0.68 at t = 0.5 s; it rests on the lower cube's top, at
  // 0.5 less the lower cube's compression under its weight, ~ rho g / E = 1e-3 (x2 for the clamp's stiffening).
  EXPECT_GT(bottom, 0.5 - 2 * 1000 * 9.81 / 1e7);
  EXPECT_LT(bottom, 0.5 + 0.002);
}

TEST(PolyfemScene, PlacementFollowsPolyfemsRules) {
  // normalize_mesh (to [0, 1]^3), dimensions over scale, "zyx" rotation: z first.
  PolyfemFolder folder;
  json scene = R"({"geometry": [{"mesh": "cube.msh", "advanced": {"normalize_mesh": true},
     "transformation": {"dimensions": [2, 1, 1], "scale": 5, "rotation": [90, 0, 45], "rotation_mode": "zyx",
                        "translation": [1, 2, 3]}}],
     "materials": {"E": 1e4, "nu": 0.3, "type": "LinearElasticity"}, "time": {"dt": 0.1, "tend": 1}})"_json;
  const std::filesystem::path file = folder.write("placed.json", scene);
  const json s = read_scene_source(file).json;
  EXPECT_EQ(s["bodies"][0]["material"]["model"], "linear");
  EXPECT_EQ(s["gravity"], json({0.0, 0.0, 0.0}));  // no rhs: no gravity
  const Model model = build_model(parse_scene(s, file));
  const Mesh cube = generate_box(Vec3::Ones(), Eigen::Vector3i::Constant(2));
  const Mat3 R = axis_rotation(0, 90) * axis_rotation(2, 45);
  const auto x = as_rows(model.rest_positions, 3);
  for (int v = 0; v < cube.num_vertices(); ++v) {
    const Vec3 unit = cube.vertices.row(v).transpose() + Vec3::Constant(0.5);  // normalized
    const Vec3 expected = R * unit.cwiseProduct(Vec3(2, 1, 1)) + Vec3(1, 2, 3);
    EXPECT_LT((x.row(v).transpose() - expected).norm(), 1e-12);
  }
}

// n_refs: the body is refined at build time (`refine`, the same function the conversion selects
// on), so the clamp on the bottom face holds its refined vertices: the face's 2 x 2 squares (9
// vertices) become 4 x 4 (25). A non-integer n_refs is refused by key.
TEST(PolyfemScene, RefinedBodiesAreSelectedOnTheRefinedMesh) {
  PolyfemFolder folder;
  json scene = two_cubes();
  scene["geometry"][1]["n_refs"] = 1;
  const json s = read_scene_source(folder.write("refined.json", scene)).json;
  EXPECT_EQ(s["bodies"][1]["refine"], 1);
  EXPECT_FALSE(s["bodies"][0].contains("refine"));
  const auto ids = s["bodies"][1]["fixed"][0]["ids"].get<std::vector<int>>();
  EXPECT_EQ(ids.size(), 25u);
  const Model model = build_model(parse_scene(s, folder.dir.path() / "refined.json"));
  const Mesh& lower = model.bodies[1].mesh;
  EXPECT_EQ(lower.num_cells(), 8 * 40);  // 8 cubes of 5 tets, each tet into 8
  const auto x = as_rows(model.rest_positions, 3);
  for (int v : ids) EXPECT_DOUBLE_EQ(x(model.bodies[1].first_vertex + v, 1), -0.5);
  scene["geometry"][1]["n_refs"] = 1.5;
  EXPECT_THROW(read_scene_source(folder.write("bad6.json", scene)), InputError);
}

TEST(PolyfemScene, NamesEveryKeyItCannotTake) {
  PolyfemFolder folder;
  json scene = two_cubes();
  scene["boundary_conditions"]["neumann_boundary"] = json::array();
  scene["space"] = {{"discr_order", 2}};
  try {
    read_scene_source(folder.write("bad.json", scene));
    FAIL() << "accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("bad.json: PolyFEM keys softsim does not convert: "), std::string::npos) << what;
    EXPECT_NE(what.find("boundary_conditions.neumann_boundary"), std::string::npos) << what;
    EXPECT_NE(what.find("space"), std::string::npos) << what;
  }
  scene = two_cubes();
  scene["materials"][0]["type"] = "MooneyRivlin";
  EXPECT_THROW(read_scene_source(folder.write("bad2.json", scene)), InputError);
  scene = two_cubes();
  scene["boundary_conditions"]["dirichlet_boundary"]["value"] = {"x*t", 0, 0};  // a stretch
  EXPECT_THROW(read_scene_source(folder.write("bad3.json", scene)), InputError);
  scene = two_cubes();
  scene["contact"] = true;  // a value of the wrong JSON type: a message naming the file, not a crash
  try {
    read_scene_source(folder.write("bad5.json", scene));
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad5.json: a PolyFEM key has a value of the wrong type"), std::string::npos)
        << e.what();
  }
  scene = two_cubes();
  scene["common"] = "missing.json";
  EXPECT_THROW(read_scene_source(folder.write("bad4.json", scene)), InputError);
}

}  // namespace
}  // namespace softsim
