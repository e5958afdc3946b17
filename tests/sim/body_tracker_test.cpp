// output.track: stats.csv carries each tracked body's centre of mass and extent. A box falling
// freely under symplectic Euler (x_n = x_0 - g h^2 n (n + 1) / 2 exactly, a rigid translation
// has no strain) must show that trajectory in its columns.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "softsim/scene/scene.hpp"
#include "softsim/sim/simulation.hpp"

namespace softsim {
namespace {

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream s(line);
  for (std::string cell; std::getline(s, cell, ',');) cells.push_back(cell);
  return cells;
}

TEST(TrackOutput, FreeFallOfTheCentreOfMassAndTheExtent) {
  const nlohmann::json j = R"json({
    "dim": 3, "time": {"dt": 0.01, "steps": 20}, "gravity": [0, -10, 0],
    "integrator": {"type": "symplectic_euler"},
    "bodies": [{"name": "box", "generator": {"type": "box", "size": [0.2, 0.4, 0.2], "resolution": [1, 2, 1]},
                "transform": {"translate": [0, 3, 0]}},
               {"name": "other", "generator": {"type": "box", "size": [0.2, 0.2, 0.2], "resolution": [1, 1, 1]},
                "transform": {"translate": [5, 3, 0]}}],
    "contact": {"enabled": false},
    "output": {"every": 100, "formats": [], "track": ["box"]}
  })json"_json;
  const Scene scene = parse_scene(j, "track.json");
  Model model = build_model(scene);
  RunOptions options;
  options.out_dir = std::filesystem::path(SOFTSIM_BINARY_DIR) / "test_output" / "track_output";
  options.quiet = true;
  ASSERT_EQ(run_simulation(scene, model, options).status, RunStatus::Ok);

  std::ifstream stats(options.out_dir / "stats.csv");
  std::string line;
  ASSERT_TRUE(std::getline(stats, line));
  const std::vector<std::string> header = split(line);
  const auto column = [&](const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    EXPECT_NE(it, header.end()) << name << " missing from " << line;
    return static_cast<std::size_t>(it - header.begin());
  };
  const std::size_t com_y = column("box_com_y"), min_y = column("box_min_y"), max_x = column("box_max_x");
  EXPECT_EQ(std::count_if(header.begin(), header.end(), [](const std::string& h) { return h.rfind("other_", 0) == 0; }), 0)
      << "an untracked body has columns";
  int rows = 0;
  while (std::getline(stats, line)) {
    const std::vector<std::string> cells = split(line);
    ASSERT_EQ(cells.size(), header.size());
    const int n = std::stoi(cells[0]);
    const double drop = 10.0 * 0.01 * 0.01 * n * (n + 1) / 2.0;
    EXPECT_NEAR(std::stod(cells[com_y]), 3.0 - drop, 1e-9) << "step " << n;
    EXPECT_NEAR(std::stod(cells[min_y]), 2.8 - drop, 1e-9) << "step " << n;
    EXPECT_NEAR(std::stod(cells[max_x]), 0.1, 1e-9) << "step " << n;
    ++rows;
  }
  EXPECT_EQ(rows, 20);
}

}  // namespace
}  // namespace softsim
