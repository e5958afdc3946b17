// Penalty contact (Larionov et al. 2022, sec. 3.2, 4.4): the pseudo-normal signs around a
// non-convex body, the energy's gradient and Hessian (point against face, edge and vertex of a
// closed surface, both sides; against plane, sphere and box obstacles; 2D) and the stiffness.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>

#include <cstdio>
#include <random>

#include "softsim/contact/penalty/penalty_contact.hpp"
#include "softsim/mesh/generators.hpp"
#include "softsim/mesh/surface.hpp"
#include "softsim/model/model.hpp"
#include "support/evaluation.hpp"
#include "support/finite_difference.hpp"

namespace softsim {
namespace {

Model model_of(const std::vector<Mesh>& meshes, int dim = 3) {
  Model model(dim);
  for (const Mesh& mesh : meshes) {
    Body body;
    body.mesh = mesh;
    body.surface = extract_surface(mesh);
    body.first_vertex = model.add_vertices(mesh.vertices);
    for (int i = 0; i < mesh.num_vertices(); ++i) model.add_lumped_mass(body.first_vertex + i, 1.0);
    model.bodies.push_back(std::move(body));
  }
  return model;
}

Mesh mesh_of(const MatX& V, const MatXi& cells) {
  Mesh m;
  m.vertices = V;
  m.cells = cells;
  return m;
}

// The unit tet (0,0,0), (1,0,0), (0,1,0), (0,0,1).
Mesh unit_tet() {
  MatX V(4, 3);
  V << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1;
  return mesh_of(V, (MatXi(1, 4) << 0, 1, 2, 3).finished());
}

// A thin needle tet with its tip at q, pointing away along -axis: only its tip comes close.
Mesh needle(const Vec3& q, const Vec3& away) {
  const Vec3 a = away.normalized();
  const Vec3 u = a.unitOrthogonal(), w = a.cross(u);
  MatX V(4, 3);
  V.row(0) = q.transpose();
  V.row(1) = (q + a + 0.05 * u).transpose();
  V.row(2) = (q + a + 0.05 * w).transpose();
  V.row(3) = (q + a - 0.05 * u - 0.05 * w).transpose();
  return mesh_of(V, (MatXi(1, 4) << 0, 1, 2, 3).finished());
}

struct Term {
  Model model;
  PenaltyContact* contact = nullptr;
};

std::unique_ptr<Term> penalty_term(const std::vector<Mesh>& meshes, std::vector<AnalyticObstacle> obstacles,
                                   double delta, double kappa, int dim = 3) {
  auto t = std::make_unique<Term>();
  t->model = model_of(meshes, dim);
  PenaltyOptions o;
  o.delta = delta;
  o.kappa = kappa;
  o.search_radius.assign(meshes.size(), 0.3);
  auto term = std::make_unique<PenaltyContact>(t->model, build_collision_mesh(t->model), std::move(obstacles), o);
  t->contact = term.get();
  t->model.add_energy(std::move(term));
  t->model.finalize();
  return t;
}

// Energy gradient and Hessian (dynamic triplets) against finite differences; with projection the
// Hessian is PSD. Returns the features of the contacts.
std::vector<PenaltyContactPoint> check_energy(const Term& t, const char* what) {
  const PenaltyContact& c = *t.contact;
  const VecX x = t.model.rest_positions;
  const test::Evaluation e(t.model);
  const std::vector<PenaltyContactPoint> points = c.contacts(e.ctx(), x);
  EXPECT_FALSE(points.empty()) << what;
  auto energy = [&](const VecX& y) { return c.evaluate(e.ctx(), y, AssemblyOutputs{}); };
  auto gradient = [&](const VecX& y) {
    VecX g = VecX::Zero(y.size());
    c.evaluate(e.ctx(), y, AssemblyOutputs{&g, nullptr, 1.0, false});
    return g;
  };
  auto hessian = [&](bool project) {
    std::vector<Triplet> triplets;
    c.evaluate(e.ctx(), x, AssemblyOutputs{nullptr, nullptr, 1.0, project, &triplets});
    SparseMat H(x.size(), x.size());
    H.setFromTriplets(triplets.begin(), triplets.end());
    return MatX(H);
  };
  const double eg = test::relative_error(gradient(x), test::fd_gradient(energy, x, 1e-7));
  const double eh = test::relative_error(hessian(false), test::fd_jacobian(gradient, x, 1e-7));
  const MatX P = hessian(true);
  const double min_eig = Eigen::SelfAdjointEigenSolver<MatX>(P).eigenvalues().minCoeff();
  std::printf("[ energy ] %s: %zu contacts, FD rel. error gradient %.1e, Hessian %.1e; projected min eigenvalue %.1e "
              "(max %.1e)\n",
              what, points.size(), eg, eh, min_eig, P.norm());
  EXPECT_LT(eg, 1e-6) << what;
  EXPECT_LT(eh, 1e-5) << what;
  EXPECT_GT(min_eig, -1e-10 * P.norm()) << what;
  return points;
}

bool has(const std::vector<PenaltyContactPoint>& points, StencilKind f, double sign_of_d) {
  for (const auto& p : points)
    if (p.stencil.kind == f && p.d * sign_of_d > 0) return true;
  return false;
}

// A probe whose tip should find the expected feature on the expected side (sign of d).
template <class V>
struct ProbeCase {
  const char* what;
  V tip, away;
  StencilKind expected;
  double sign;
};

TEST(PenaltyContactEnergy, PointAgainstFaceEdgeAndVertexOfAClosedSurface) {
  const ProbeCase<Vec3> cases[] = {
      {"face, outside", Vec3(0.2, 0.25, -0.03), -Vec3::UnitZ(), StencilKind::point_triangle, 1.0},
      {"face, inside", Vec3(0.2, 0.25, 0.02), -Vec3::UnitZ(), StencilKind::point_triangle, -1.0},
      {"edge, outside", Vec3(0.5, -0.02, -0.015), Vec3(0, -1, -1), StencilKind::point_edge, 1.0},
      {"vertex, outside", Vec3(-0.02, -0.015, -0.01), Vec3(-1, -1, -1), StencilKind::point_point, 1.0},
      {"slanted face, inside", Vec3(0.3, 0.3, 0.36), Vec3(1, 1, 1), StencilKind::point_triangle, -1.0},
  };
  for (const auto& k : cases) {
    const auto t = penalty_term({unit_tet(), needle(k.tip, k.away)}, {}, 0.05, 1e3);
    const auto points = check_energy(*t, k.what);
    EXPECT_TRUE(has(points, k.expected, k.sign)) << k.what;
  }
}

TEST(PenaltyContactEnergy, VerticesAgainstPlaneSphereAndBox) {
  // A tet whose vertices straddle each obstacle's surface.
  MatX V(4, 3);
  V << 0.0, -0.02, 0.0, 0.25, -0.005, 0.1, 0.1, 0.01, 0.35, 0.05, 0.6, 0.1;
  const Mesh tet = mesh_of(V, (MatXi(1, 4) << 0, 1, 2, 3).finished());
  std::vector<AnalyticObstacle> shapes(3);
  shapes[0] = {AnalyticObstacle::Shape::Plane, Vec3(0, 0, 0), Vec3::UnitY(), 0.0, {}};
  shapes[1] = {AnalyticObstacle::Shape::Sphere, Vec3(0.2, -0.5, 0.1), {}, 0.51, {}};
  shapes[2] = {AnalyticObstacle::Shape::Box, Vec3(0.2, -0.5, 0.1), {}, 0.0, Vec3(2.0, 0.5, 2.0)};
  const char* names[3] = {"plane", "sphere", "box"};
  for (int k = 0; k < 3; ++k) {
    const auto t = penalty_term({tet}, {shapes[k]}, 0.05, 1e3);
    const auto points = check_energy(*t, names[k]);
    EXPECT_TRUE(has(points, StencilKind::point_obstacle, -1.0)) << names[k];
    EXPECT_TRUE(has(points, StencilKind::point_obstacle, 1.0)) << names[k];
  }
}

// A wide tet whose bottom face (y = 0.02) has every vertex far from a sphere whose top pokes 0.01
// through the face between its vertices: the sphere's centre finds the face with gap -0.01; the
// derivatives match finite differences. A box in the same place adds no such point (boxes stay
// vertex-based under penalty contact).
TEST(PenaltyContactEnergy, SphereCentreAgainstAFace) {
  MatX V(4, 3);
  V << -1.0, 0.02, -1.0, 1.0, 0.02, -1.0, 0.0, 0.02, 1.2, 0.0, 1.0, 0.0;
  const Mesh tet = mesh_of(V, (MatXi(1, 4) << 0, 1, 2, 3).finished());
  const auto t = penalty_term({tet}, {{AnalyticObstacle::Shape::Sphere, Vec3(0.0, -0.5, 0.0), {}, 0.53, {}}}, 0.05, 1e3);
  const auto points = check_energy(*t, "sphere against a face");
  ASSERT_EQ(points.size(), 1u);
  EXPECT_EQ(points[0].feature_of_obstacle, 0);
  EXPECT_EQ(points[0].stencil.kind, StencilKind::point_triangle);
  EXPECT_NEAR(points[0].d, -0.01, 1e-12);
  const auto box = penalty_term(
      {tet}, {{AnalyticObstacle::Shape::Box, Vec3(-0.2, -0.45, -0.3), {}, 0.0, Vec3(0.5, 0.5, 0.5)}}, 0.05, 1e3);
  EXPECT_TRUE(box->contact->contacts(test::Evaluation(box->model).ctx(), box->model.rest_positions).empty());
}

// A moving obstacle: its pose is a model vertex (not a collision vertex) and every contact with
// it is the stencil (vertex, pose), the distance taken at the rest pose. The gradient and
// Hessian over both (the pose's rows are the negated sums of the vertices') against finite
// differences, and the gap equals the static obstacle's gap of the shifted vertex.
TEST(PenaltyContactEnergy, MovingObstacleCouplesEachVertexWithThePose) {
  MatX V(4, 3);
  V << 0.0, -0.02, 0.0, 0.25, -0.005, 0.1, 0.1, 0.01, 0.35, 0.05, 0.6, 0.1;
  const Mesh tet = mesh_of(V, (MatXi(1, 4) << 0, 1, 2, 3).finished());
  std::vector<AnalyticObstacle> shapes(3);
  shapes[0] = {AnalyticObstacle::Shape::Plane, Vec3(0, -0.03, 0), Vec3(0.1, 1, 0).normalized(), 0.0, {}};
  shapes[1] = {AnalyticObstacle::Shape::Sphere, Vec3(0.2, -0.53, 0.1), {}, 0.51, {}};
  shapes[2] = {AnalyticObstacle::Shape::Box, Vec3(0.2, -0.53, 0.1), {}, 0.0, Vec3(2.0, 0.5, 2.0)};
  const Vec3 moved(0.01, 0.03, -0.02);  // the pose's displacement from its rest point
  const char* names[3] = {"moving plane", "moving sphere", "moving box"};
  for (int k = 0; k < 3; ++k) {
    auto t = std::make_unique<Term>();
    t->model = model_of({tet});
    const int pose = t->model.add_vertices((shapes[k].point + moved).transpose());
    t->model.add_lumped_mass(pose, 1.0);
    AnalyticObstacle moving = shapes[k];
    moving.pose_vertex = pose;
    PenaltyOptions o;
    o.delta = 0.05;
    o.kappa = 1e3;
    o.search_radius.assign(1, 0.3);
    auto term = std::make_unique<PenaltyContact>(t->model, build_collision_mesh(t->model),
                                                 std::vector<AnalyticObstacle>{moving}, o);
    t->contact = term.get();
    t->model.add_energy(std::move(term));
    t->model.finalize();
    const auto points = check_energy(*t, names[k]);
    for (const PenaltyContactPoint& p : points) {
      if (p.feature_of_obstacle >= 0) continue;  // the sphere's centre against the tet's faces
      ASSERT_EQ(p.stencil.kind, StencilKind::point_obstacle) << names[k];
      ASSERT_EQ(p.stencil.num_vertices, 2) << names[k];
      EXPECT_EQ(p.stencil.ids[1], pose) << names[k];
      const Vec3 shifted = V.row(p.stencil.ids[0]).transpose() - moved;
      EXPECT_NEAR(p.d, (analytic_signed_distance<double, 3>(shapes[k], shifted)), 1e-15) << names[k];
    }
    EXPECT_TRUE(has(points, StencilKind::point_obstacle, -1.0)) << names[k];
    EXPECT_TRUE(has(points, StencilKind::point_obstacle, 1.0)) << names[k];
  }
}

TEST(PenaltyContactEnergy, TwoDimensionsEdgeAndVertex) {
  // The unit square (two triangles) and a thin triangle whose tip probes it.
  MatX S(4, 2);
  S << 0, 0, 1, 0, 1, 1, 0, 1;
  const Mesh square = mesh_of(S, (MatXi(2, 3) << 0, 1, 2, 0, 2, 3).finished());
  auto probe = [&](const Vec2& tip, const Vec2& away) {
    const Vec2 a = away.normalized(), u(-a.y(), a.x());
    MatX P(3, 2);
    P.row(0) = tip.transpose();
    P.row(1) = (tip + a + 0.05 * u).transpose();
    P.row(2) = (tip + a - 0.05 * u).transpose();
    const double area = (P(1, 0) - P(0, 0)) * (P(2, 1) - P(0, 1)) - (P(2, 0) - P(0, 0)) * (P(1, 1) - P(0, 1));
    return mesh_of(P, area > 0 ? (MatXi(1, 3) << 0, 1, 2).finished() : (MatXi(1, 3) << 0, 2, 1).finished());
  };
  const ProbeCase<Vec2> cases[] = {
      {"2D edge, outside", Vec2(0.4, -0.03), Vec2(0, -1), StencilKind::point_edge, 1.0},
      {"2D edge, inside", Vec2(0.4, 0.02), Vec2(0.3, -1), StencilKind::point_edge, -1.0},
      {"2D vertex, outside", Vec2(1.02, 1.03), Vec2(1, 1), StencilKind::point_point, 1.0},
  };
  for (const auto& k : cases) {
    const auto t = penalty_term({square, probe(k.tip, k.away)}, {}, 0.05, 1e3, 2);
    const auto points = check_energy(*t, k.what);
    EXPECT_TRUE(has(points, k.expected, k.sign)) << k.what;
  }
}

// An L-shaped body (a 2 x 2 x 1 block of cells minus one corner cell) has concave and convex
// edges and vertices: the sign of every contact found for random probe points must say whether
// the point is inside the L.
TEST(PenaltySurfaces, PseudoNormalSignsAroundANonConvexBody) {
  Mesh block = generate_box(Vec3(2, 2, 1), Eigen::Vector3i(2, 2, 1));
  // Drop the cells of the corner x > 0, y > 0 (5 tets per cell).
  std::vector<int> keep;
  for (int c = 0; c < block.num_cells(); ++c) {
    Vec3 centre = Vec3::Zero();
    for (int a = 0; a < 4; ++a) centre += block.vertices.row(block.cells(c, a)).transpose() / 4.0;
    if (!(centre.x() > 0 && centre.y() > 0)) keep.push_back(c);
  }
  MatXi cells(keep.size(), 4);
  for (std::size_t i = 0; i < keep.size(); ++i) cells.row(i) = block.cells.row(keep[i]);
  // Unused vertices are fine: they are isolated points of the collision mesh, away from the L.
  const Mesh L = mesh_of(block.vertices, cells);
  auto inside = [](const Vec3& p) {
    const bool in_box = std::abs(p.x()) < 1 && std::abs(p.y()) < 1 && std::abs(p.z()) < 0.5;
    return in_box && !(p.x() > 0 && p.y() > 0);
  };
  // Probe points as a body of isolated vertices (a mesh without cells).
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.3, 1.3), uz(-0.8, 0.8);
  MatX probes(400, 3);
  for (int i = 0; i < probes.rows(); ++i) probes.row(i) = Vec3(u(rng), u(rng), uz(rng)).transpose();
  Mesh points;
  points.vertices = probes;
  points.cells.resize(0, 4);
  Model model = model_of({L, points});
  CollisionMesh mesh = build_collision_mesh(model);
  PenaltySurfaces surfaces(mesh, {0.5, 0.5}, mesh.positions(model.rest_positions));
  EXPECT_TRUE(surfaces.is_surface(0));
  EXPECT_FALSE(surfaces.is_surface(1));
  const std::vector<PenaltyContactPoint> found = surfaces.find(mesh.positions(model.rest_positions), 10.0,
                                                               BroadPhaseMethod::SpatialHash);
  int checked = 0, wrong = 0, by_feature[4] = {0, 0, 0, 0};
  const int first_probe = model.bodies[1].first_vertex;
  for (const PenaltyContactPoint& c : found) {
    if (c.stencil.ids[0] < first_probe) continue;
    const Vec3 p = model.rest_positions.segment<3>(3 * c.stencil.ids[0]);
    ++checked;
    ++by_feature[static_cast<int>(c.stencil.kind)];
    if ((c.d < 0) != inside(p)) ++wrong;
  }
  std::printf("[ signs ] %d probes within 0.5 of the L: %d face, %d edge, %d vertex contacts, %d wrong signs\n",
              checked, by_feature[0], by_feature[1], by_feature[2], wrong);
  EXPECT_GT(checked, 150);
  EXPECT_GT(by_feature[1], 10);
  EXPECT_GT(by_feature[2], 3);
  EXPECT_EQ(wrong, 0);
}

TEST(PenaltyContactStiffness, BumpEqualsTheRatioOfPenaltySlopes) {
  // A tet with one vertex 0.02 below the plane y = 0 and one 0.004 below.
  MatX V(4, 3);
  V << 0.0, -0.02, 0.0, 0.3, -0.004, 0.0, 0.0, 0.3, 0.0, 0.0, 0.1, 0.3;
  const auto t = penalty_term({mesh_of(V, (MatXi(1, 4) << 0, 1, 2, 3).finished())},
                              {{AnalyticObstacle::Shape::Plane, Vec3::Zero(), Vec3::UnitY(), 0.0, {}}}, 0.01, 50.0);
  const PenaltyContact& c = *t->contact;
  const Model& model = t->model;
  test::Evaluation e(model);
  const VecX x = model.rest_positions;
  EXPECT_NEAR(c.min_contact_distance(x), -0.02, 1e-15);
  ASSERT_TRUE(model.after_solve(e.stage, e.data, x));
  const double expected = 50.0 * std::pow((0.01 + 0.02) / 0.005, 2);  // b'(-0.02) / b'(0.005) = 36
  EXPECT_NEAR(c.stiffness(e.data), expected, 1e-12 * expected);
  EXPECT_EQ(c.stiffness_bumps(e.data), 1);
  // Nothing below the surface: no bump.
  VecX up = x;
  for (int i = 0; i < 4; ++i) up[3 * i + 1] += 0.021;
  EXPECT_FALSE(model.after_solve(e.stage, e.data, up));
  EXPECT_EQ(c.stiffness(e.data), expected);
  // begin_step with contacts keeps kappa (never decreased while contacts are active) ...
  model.begin_step(e.stage, e.data, up);
  EXPECT_EQ(c.stiffness(e.data), expected);
  // ... and a step that starts without any contact resets it to the initial value.
  for (int i = 0; i < 4; ++i) up[3 * i + 1] += 1.0;
  model.begin_step(e.stage, e.data, up);
  EXPECT_EQ(c.stiffness(e.data), 50.0);
}

TEST(PenaltyContactStiffness, AutomaticInitialValueBalancesTheWeight) {
  // No kappa given: kappa_min = m_avg g / (0.75 delta^2) (1 kg per vertex, g = 9.81).
  const auto t = std::make_unique<Term>();
  MatX V(4, 3);
  V << 0.0, 0.002, 0.0, 0.3, 0.002, 0.0, 0.0, 0.002, 0.3, 0.1, 0.3, 0.1;
  t->model = model_of({mesh_of(V, (MatXi(1, 4) << 0, 1, 2, 3).finished())});
  t->model.gravity = Vec3(0, -9.81, 0);
  t->model.nodal_forces = VecX::Zero(12);
  t->model.nodal_forces[1] = -50.0;  // pressing vertex 0 (in contact) down with 50 N
  PenaltyOptions o;
  o.delta = 0.01;
  auto term = std::make_unique<PenaltyContact>(t->model, build_collision_mesh(t->model),
                                               std::vector<AnalyticObstacle>{{AnalyticObstacle::Shape::Plane,
                                                                              Vec3::Zero(), Vec3::UnitY(), 0.0, {}}},
                                               o);
  PenaltyContact& c = *term;
  t->model.add_energy(std::move(term));
  t->model.finalize();
  const double kappa_min = 9.81 / (0.75 * 1e-4);
  EXPECT_NEAR(c.initial_stiffness(), kappa_min, 1e-9 * kappa_min);
  // Three vertices touch (d = 0.002 < delta). Least-squares balance of the contact forces at
  // delta/2 against the other forces: G = the 3 contact normals, gE = weights and the load, of
  // which (3 x 9.81 + 50) N project on G: kappa = (3 x 9.81 + 50) / (0.75 delta^2 x 3).
  test::Evaluation e(t->model);
  t->model.begin_step(e.stage, e.data, t->model.rest_positions);
  const double balanced = (3 * 9.81 + 50.0) / (0.75 * 1e-4 * 3);
  EXPECT_NEAR(c.stiffness(e.data), balanced, 1e-9 * balanced);
}

}  // namespace
}  // namespace softsim
