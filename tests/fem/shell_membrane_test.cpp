// Triangle shells: membrane, hinge and isometric bending energies against finite differences,
// zero energy at rest and under rigid motion, the dihedral angle of a known fold, the isometric
// energy equal to the hinge energy for small folds, and a curved rest shape refused by it.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <random>

#include "softsim/fem/hinge_bending.hpp"
#include "softsim/fem/isometric_bending.hpp"
#include "softsim/fem/shell_membrane.hpp"
#include "softsim/mesh/generators.hpp"
#include "softsim/model/model.hpp"
#include "support/evaluation.hpp"
#include "support/finite_difference.hpp"

namespace softsim {
namespace {

// A 2x2-cell sheet in the x-z plane (9 vertices, 8 triangles, 8 interior edges).
Mesh sheet() {
  const Mesh flat = generate_rectangle(Vec2(1.0, 1.0), Eigen::Vector2i(2, 2));
  Mesh m;
  m.cells = flat.cells;
  m.vertices = MatX::Zero(flat.num_vertices(), 3);
  m.vertices.col(0) = flat.vertices.col(0);
  m.vertices.col(2) = flat.vertices.col(1);
  return m;
}

struct ShellModel {
  Model model{3};
  const Energy* term = nullptr;
};

std::unique_ptr<ShellModel> make(const Mesh& mesh, std::unique_ptr<Energy> energy) {
  auto s = std::make_unique<ShellModel>();
  s->model.add_vertices(mesh.vertices);
  for (int i = 0; i < mesh.num_vertices(); ++i) s->model.add_lumped_mass(i, 1.0);
  s->term = energy.get();
  s->model.add_energy(std::move(energy));
  s->model.finalize();
  return s;
}

VecX perturbed(const VecX& x, double amount, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-amount, amount);
  VecX y = x;
  for (Eigen::Index i = 0; i < y.size(); ++i) y[i] += u(rng);
  return y;
}

void check_derivatives(const Model& model, const VecX& x) {
  auto energy = [&](const VecX& y) { return test::potential(model, y, AssemblyOutputs{}); };
  auto gradient = [&](const VecX& y) {
    VecX g = VecX::Zero(y.size());
    test::potential(model, y, AssemblyOutputs{&g, nullptr, 1.0, false});
    return g;
  };
  const VecX g = gradient(x);
  EXPECT_LT(test::relative_error(g, test::fd_gradient(energy, x)), 1e-6);
  SparseMat H = model.layout().pattern();
  test::potential(model, x, AssemblyOutputs{nullptr, &H, 1.0, false});
  const MatX fd = test::fd_jacobian(gradient, x);
  EXPECT_LT(test::relative_error(MatX(H), fd), 1e-6);
  // The projected Hessian is PSD.
  SparseMat P = model.layout().pattern();
  test::potential(model, x, AssemblyOutputs{nullptr, &P, 1.0, true});
  const double min_eig = Eigen::SelfAdjointEigenSolver<MatX>(MatX(P)).eigenvalues().minCoeff();
  EXPECT_GE(min_eig, -1e-9 * MatX(P).norm());
}

TEST(ShellMembrane, DerivativesMatchFiniteDifferences) {
  const Mesh m = sheet();
  for (const std::string model : {"stvk", "neo_hookean"}) {
    SCOPED_TRACE(model);
    auto s = make(m, std::make_unique<ShellMembrane>(m.cells, m.vertices, model,
                                                     LameParameters::from_young_poisson(1e4, 0.3), 0.01, "test"));
    check_derivatives(s->model, perturbed(s->model.rest_positions, 0.1, 7));
  }
}

TEST(ShellMembrane, ZeroAtRestAndUnderRigidMotion) {
  const Mesh m = sheet();
  for (const std::string model : {"stvk", "neo_hookean"}) {
    auto s = make(m, std::make_unique<ShellMembrane>(m.cells, m.vertices, model,
                                                     LameParameters::from_young_poisson(1e4, 0.3), 0.01, "test"));
    const VecX X = s->model.rest_positions;
    EXPECT_NEAR(test::potential(s->model, X, AssemblyOutputs{}), 0.0, 1e-12);
    const Mat3 R = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
    VecX Y = X;
    for (int i = 0; i < s->model.num_vertices(); ++i) Y.segment<3>(3 * i) = R * X.segment<3>(3 * i) + Vec3(1, -2, 3);
    EXPECT_NEAR(test::potential(s->model, Y, AssemblyOutputs{}), 0.0, 1e-10);
    // A 10% stretch along x costs energy.
    VecX S = X;
    for (int i = 0; i < s->model.num_vertices(); ++i) S[3 * i] *= 1.1;
    EXPECT_GT(test::potential(s->model, S, AssemblyOutputs{}), 1e-3);
  }
}

TEST(ShellMembrane, StvkUniaxialEnergyMatchesClosedForm) {
  // Stretch by s along x with no lateral contraction: E = (s^2 - 1)/2 in the xx entry only, so
  // Psi = mu E^2 + lambda_ps/2 E^2 with plane-stress lambda_ps.
  const Mesh m = sheet();
  const LameParameters lame = LameParameters::from_young_poisson(1e4, 0.3);
  auto s = make(m, std::make_unique<ShellMembrane>(m.cells, m.vertices, "stvk", lame, 0.01, "test"));
  VecX S = s->model.rest_positions;
  const double stretch = 1.2;
  for (int i = 0; i < s->model.num_vertices(); ++i) S[3 * i] *= stretch;
  const double e = 0.5 * (stretch * stretch - 1.0);
  const double lambda_ps = 2 * lame.mu * lame.lambda / (lame.lambda + 2 * lame.mu);
  const double expected = 0.01 * 1.0 * (lame.mu * e * e + 0.5 * lambda_ps * e * e);
  EXPECT_NEAR(test::potential(s->model, S, AssemblyOutputs{}), expected, 1e-12 * expected + 1e-15);
}

TEST(HingeBending, DerivativesMatchFiniteDifferences) {
  const Mesh m = sheet();
  auto s = make(m, std::make_unique<HingeBending>(m.cells, m.vertices, 0.5));
  EXPECT_EQ(static_cast<const HingeBending*>(s->term)->num_hinges(), 16 - 8);
  check_derivatives(s->model, perturbed(s->model.rest_positions, 0.15, 11));
}

TEST(HingeBending, ZeroWhenFlatOrRigidAndAngleOfAFold) {
  // Two triangles sharing the edge (0,0,0)-(1,0,0); folding the second wing by 90 degrees about
  // the edge gives a dihedral angle of magnitude pi/2.
  Mesh m;
  m.vertices.resize(4, 3);
  m.vertices << 0, 0, 0, 1, 0, 0, 0.5, 0, 1, 0.5, 0, -1;
  m.cells.resize(2, 3);
  m.cells << 0, 1, 2, 1, 0, 3;
  auto s = make(m, std::make_unique<HingeBending>(m.cells, m.vertices, 2.0));
  const auto* hinge = static_cast<const HingeBending*>(s->term);
  ASSERT_EQ(hinge->num_hinges(), 1);
  VecX X = s->model.rest_positions;
  EXPECT_NEAR(hinge->dihedral_angle(X, 0), 0.0, 1e-14);
  EXPECT_NEAR(test::potential(s->model, X, AssemblyOutputs{}), 0.0, 1e-14);
  VecX folded = X;
  folded.segment<3>(9) = Vec3(0.5, 1, 0);  // wing (0.5, 0, -1) rotated to (0.5, 1, 0)
  EXPECT_NEAR(std::abs(hinge->dihedral_angle(folded, 0)), M_PI / 2, 1e-12);
  // Energy k (theta)^2 3 |e|^2 / (A0 + A1) with |e| = 1, A0 = A1 = 0.5.
  EXPECT_NEAR(test::potential(s->model, folded, AssemblyOutputs{}), 2.0 * (M_PI / 2) * (M_PI / 2) * 3.0, 1e-10);
  const Mat3 R = Eigen::AngleAxisd(1.1, Vec3(0.3, -1, 2).normalized()).toRotationMatrix();
  VecX Y = X;
  for (int i = 0; i < 4; ++i) Y.segment<3>(3 * i) = R * X.segment<3>(3 * i);
  EXPECT_NEAR(test::potential(s->model, Y, AssemblyOutputs{}), 0.0, 1e-12);
}

TEST(IsometricBending, DerivativesMatchFiniteDifferencesAndTheHessianIsConstant) {
  const Mesh m = sheet();
  auto s = make(m, std::make_unique<IsometricBending>(m.cells, m.vertices, 0.5));
  EXPECT_EQ(static_cast<const IsometricBending*>(s->term)->num_hinges(), 8);
  check_derivatives(s->model, perturbed(s->model.rest_positions, 0.15, 11));
  check_derivatives(s->model, perturbed(s->model.rest_positions, 0.4, 12));
}

TEST(IsometricBending, MatchesTheHingeEnergyForSmallFoldsAndIsZeroUnderRigidMotion) {
  // An irregular pair of triangles sharing the edge (0,0,0)-(1,0,0), in the x-z plane.
  Mesh m;
  m.vertices.resize(4, 3);
  m.vertices << 0, 0, 0, 1, 0, 0, 0.3, 0, 0.8, 0.6, 0, -0.7;
  m.cells.resize(2, 3);
  m.cells << 0, 1, 2, 1, 0, 3;
  auto iso = make(m, std::make_unique<IsometricBending>(m.cells, m.vertices, 2.0));
  auto hinge = make(m, std::make_unique<HingeBending>(m.cells, m.vertices, 2.0));
  const VecX X = iso->model.rest_positions;
  EXPECT_NEAR(test::potential(iso->model, X, AssemblyOutputs{}), 0.0, 1e-14);
  for (double theta : {1e-3, 1e-2, 0.1}) {
    VecX folded = X;  // the wing x3 rotated about the edge (the x axis) by theta
    folded.segment<3>(9) = Eigen::AngleAxisd(theta, Vec3::UnitX()) * X.segment<3>(9);
    const double e_iso = test::potential(iso->model, folded, AssemblyOutputs{});
    const double e_hinge = test::potential(hinge->model, folded, AssemblyOutputs{});
    EXPECT_GT(e_hinge, 0.0);
    // |sum K x| = |e| sin-like in theta (1 - O(theta^2)): the ratio is 1 to O(theta^2).
    EXPECT_NEAR(e_iso / e_hinge, 1.0, theta * theta) << "theta = " << theta;
  }
  const Mat3 R = Eigen::AngleAxisd(0.7, Vec3(1, 2, -0.5).normalized()).toRotationMatrix();
  VecX Y = X;
  for (int i = 0; i < 4; ++i) Y.segment<3>(3 * i) = R * X.segment<3>(3 * i) + Vec3(0.3, -2, 1);
  EXPECT_NEAR(test::potential(iso->model, Y, AssemblyOutputs{}), 0.0, 1e-12);
}

TEST(IsometricBending, RefusesACurvedRestShape) {
  Mesh m;
  m.vertices.resize(4, 3);
  m.vertices << 0, 0, 0, 1, 0, 0, 0.5, 0, 1, 0.5, 0.3, -1;  // the second wing bent up at rest
  m.cells.resize(2, 3);
  m.cells << 0, 1, 2, 1, 0, 3;
  EXPECT_THROW(IsometricBending(m.cells, m.vertices, 1.0), std::invalid_argument);
}

}  // namespace
}  // namespace softsim
