// Tetrahedralizing a scanned surface from the shared reference data (ipc-toolkit's bunny, 5002
// triangles): the tets fill exactly the volume the surface encloses.
#include <gtest/gtest.h>

#include "softsim/io/read_mesh.hpp"
#include "softsim/mesh/element_quality.hpp"
#include "softsim/mesh/measure.hpp"
#include "softsim/meshing/surface_checks.hpp"
#include "softsim/meshing/tetrahedralize.hpp"
#include "support/data_dir.hpp"

namespace softsim {
namespace {

TEST(TetrahedralizeSharedData, TheBunnysTetsFillTheVolumeItsSurfaceEncloses) {
  SOFTSIM_REQUIRE_SHARED_DATA();
  if (!tetrahedralization_available()) GTEST_SKIP() << "built with SOFTSIM_WITH_TETGEN=OFF";
  const auto file = test::shared_data_dir() / "meshes" / "ipc-toolkit-tests-data" / "bunny.ply";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << file << " not found";
  Mesh surface = read_mesh(file);
  Mesh checked = surface;
  const double enclosed = check_closed_surface(checked, "bunny.ply").enclosed_volume;
  const Mesh tets = tetrahedralize(surface, {}, "bunny.ply");
  double volume = 0;
  int non_positive = 0;
  for (int t = 0; t < tets.num_cells(); ++t) {
    const double v = cell_measure(tets, t);
    volume += v;
    non_positive += !(v > 0);
  }
  EXPECT_EQ(non_positive, 0);
  // Points added on the surface lie on its triangles (within TetGen's tolerances), so the volume
  // is the same: measured 2.6e-8 relative (docs/meshing.md).
  EXPECT_NEAR(volume, enclosed, 1e-7 * enclosed);
  // Its surface has a needle triangle (smallest angle 1.5 degrees): the tets beside it inherit it,
  // and a scene would warn about them.
  EXPECT_LT(summarize_quality(tets).worst_angle, kPoorElementAngleDegrees);
}

}  // namespace
}  // namespace softsim
