// Lagged IPC friction against the 446 Newton iterates of ../shared/data/friction/ipc-cube-cube
// (computed by the original IPC code; README "friction/ipc-cube-cube"): contacts built from
// `mmcvids` with their multiplicities, lambda, closest-point coordinates and tangent planes at
// V_lagged, and energy, gradient and Hessian at V_end relative to V_start, to 1e-9 relative.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "softsim/contact/friction/friction_contact.hpp"
#include "softsim/contact/friction/lagged_friction.hpp"
#include "softsim/contact/stencil/stencil_assembly.hpp"
#include "support/data_dir.hpp"

namespace softsim {
namespace {

VertexRows read_rows(const nlohmann::json& j) {
  VertexRows V(j.size(), j[0].size());
  for (std::size_t i = 0; i < j.size(); ++i)
    for (std::size_t k = 0; k < j[i].size(); ++k) V(i, k) = j[i][k].get<double>();
  return V;
}

double rel(double a, double b) { return std::abs(a - b) / std::max(std::abs(b), 1e-300); }

TEST(FrictionData, IpcCubeCubeEnergyGradientHessian) {
  SOFTSIM_REQUIRE_SHARED_DATA();
  const auto dir = test::shared_data_dir() / "friction" / "ipc-cube-cube";
  double worst_energy = 0, worst_grad = 0, worst_hess = 0, worst_lambda = 0, worst_coords = 0, worst_basis = 0;
  int files = 0, sticking = 0, sliding = 0;
  for (int n = 0; n < 446; ++n) {
    std::ifstream in(dir / ("friction_data_" + std::to_string(n) + ".json"));
    ASSERT_TRUE(in) << "missing friction_data_" << n << ".json";
    const nlohmann::json j = nlohmann::json::parse(in);
    const VertexRows V0 = read_rows(j["V_start"]), Vl = read_rows(j["V_lagged"]), V1 = read_rows(j["V_end"]);
    const double dhat = std::sqrt(j["dhat_squared"].get<double>());
    const double kappa = j["barrier_stiffness"].get<double>();
    const double eps = std::sqrt(j["epsv_times_h_squared"].get<double>());
    const double mu = j["mu"].get<double>();
    std::vector<FrictionContact> contacts;
    const auto& ids = j["mmcvids"];
    for (std::size_t k = 0; k < ids.size(); ++k) {
      const int m0 = ids[k][0], m1 = ids[k][1], m2 = ids[k][2], m3 = ids[k][3];
      FrictionContact c;
      int multiplicity = 1;
      if (m0 >= 0) {
        c = friction_contact(ContactStencil::edge_edge(m0, m1, m2, m3), Vl);
      } else if (m2 < 0) {
        c = friction_contact(ContactStencil::point_point(-m0 - 1, m1), Vl);
        multiplicity = -m3;
      } else if (m3 < 0) {
        c = friction_contact(ContactStencil::point_edge(-m0 - 1, m1, m2), Vl);
        multiplicity = -m3;
      } else {
        c = friction_contact(ContactStencil::point_triangle(-m0 - 1, m1, m2, m3), Vl);
      }
      c.lambda = multiplicity * normal_force_magnitude(BarrierForm::ipc_squared, c.distance_squared, dhat, kappa);
      worst_lambda = std::max(worst_lambda, rel(c.lambda, j["normal_force_magnitudes"][k].get<double>()));
      const double coord_scale = 1.0;  // coordinates are O(1)
      for (int a = 0; a < 2; ++a)
        worst_coords = std::max(worst_coords, std::abs(c.coords[a] - j["closest_point_coordinates"][k][a].get<double>()) / coord_scale);
      // T enters only through T T^T (any orthonormal basis of the tangent plane).
      Eigen::Matrix<double, 3, 2> Tref;
      for (int r = 0; r < 3; ++r)
        for (int s = 0; s < 2; ++s) Tref(r, s) = j["tangent_bases"][3 * k + r][s].get<double>();
      const Eigen::Matrix3d P = c.T * c.T.transpose(), Pref = Tref * Tref.transpose();
      worst_basis = std::max(worst_basis, (P - Pref).norm());
      Eigen::Vector3d u = Eigen::Vector3d::Zero();
      for (int a = 0; a < c.stencil.num_vertices; ++a) u += c.weights[a] * (V1.row(c.stencil.ids[a]) - V0.row(c.stencil.ids[a])).transpose();
      ((c.T.transpose() * u).norm() < eps ? sticking : sliding)++;
      contacts.push_back(c);
    }
    VecX g = VecX::Zero(48);
    std::vector<Triplet> triplets;
    AssemblyOutputs out;
    out.gradient = &g;
    out.dynamic_hessian = &triplets;
    for (FrictionContact& c : contacts) c.mu = mu;
    std::vector<ContactStencilTerm> terms;
    const double E = assemble_friction(contacts, V1, V0, FrictionSmoothing::c1, eps, 16, out, terms);
    SparseMat H(48, 48), Href(48, 48);
    H.setFromTriplets(triplets.begin(), triplets.end());
    std::vector<Triplet> ref;
    for (const auto& t : j["hessian_triplets"]) ref.emplace_back(t[0].get<int>(), t[1].get<int>(), t[2].get<double>());
    Href.setFromTriplets(ref.begin(), ref.end());
    VecX gref(48);
    for (int i = 0; i < 48; ++i) gref[i] = j["gradient"][i].get<double>();
    const double Eref = j["energy"].get<double>();
    worst_energy = std::max(worst_energy, rel(E, Eref));
    const double ge = gref.norm() > 0 ? (g - gref).norm() / gref.norm() : g.norm();
    const double he = Href.norm() > 0 ? (H - Href).norm() / Href.norm() : H.norm();
    worst_grad = std::max(worst_grad, ge);
    worst_hess = std::max(worst_hess, he);
    EXPECT_LE(rel(E, Eref), 1e-9) << "file " << n;
    EXPECT_LE(ge, 1e-9) << "file " << n;
    EXPECT_LE(he, 1e-9) << "file " << n;
    ++files;
  }
  EXPECT_EQ(files, 446);
  EXPECT_LE(worst_lambda, 1e-9);
  EXPECT_LE(worst_coords, 1e-9);
  EXPECT_LE(worst_basis, 1e-9);
  EXPECT_EQ(sticking, 717);
  EXPECT_EQ(sliding, 1297);
  std::printf("friction data: %d files, %d sticking + %d sliding contacts; worst relative error: energy %.3g, "
              "gradient %.3g, Hessian %.3g, lambda %.3g; coordinates %.3g, tangent projector %.3g\n",
              files, sticking, sliding, worst_energy, worst_grad, worst_hess, worst_lambda, worst_coords, worst_basis);
}

}  // namespace
}  // namespace softsim
