#include "softsim/contact/friction/friction_contact.hpp"

#include <algorithm>
#include <cmath>

#include "softsim/contact/distance/classification.hpp"
#include "softsim/contact/friction/basis.hpp"

namespace softsim {

namespace {

template <int D>
Eigen::Matrix<double, D, 1> at(const VertexRows& V, int id) {
  return V.row(id).transpose();
}

// Squared distance of the closest points sum_a w_a x_a (the weights sum to zero).
double weighted_distance_squared(const FrictionContact& c, const VertexRows& V) {
  Eigen::VectorXd r = Eigen::VectorXd::Zero(V.cols());
  for (int a = 0; a < c.num_vertices; ++a) r += c.weights[a] * V.row(c.ids[a]).transpose();
  return r.squaredNorm();
}

}  // namespace

FrictionContact point_point_friction_contact(const VertexRows& V, int p0, int p1) {
  FrictionContact c;
  c.kind = FrictionContactKind::point_point;
  c.num_vertices = 2;
  c.ids = {p0, p1, -1, -1};
  c.weights = {1.0, -1.0, 0.0, 0.0};
  if (V.cols() == 3) c.T = point_point_tangent_basis(at<3>(V, p0), at<3>(V, p1));
  else c.T = point_point_tangent_basis(at<2>(V, p0), at<2>(V, p1));
  c.distance_squared = weighted_distance_squared(c, V);
  return c;
}

FrictionContact point_edge_friction_contact(const VertexRows& V, int p, int e0, int e1) {
  FrictionContact c;
  c.kind = FrictionContactKind::point_edge;
  c.num_vertices = 3;
  c.ids = {p, e0, e1, -1};
  double alpha;
  if (V.cols() == 3) {
    c.T = point_edge_tangent_basis(at<3>(V, p), at<3>(V, e0), at<3>(V, e1));
    alpha = point_edge_closest_point<3>(at<3>(V, p), at<3>(V, e0), at<3>(V, e1));
  } else {
    c.T = point_edge_tangent_basis(at<2>(V, p), at<2>(V, e0), at<2>(V, e1));
    alpha = point_edge_closest_point<2>(at<2>(V, p), at<2>(V, e0), at<2>(V, e1));
  }
  c.coords = {alpha, 0.0};
  c.weights = {1.0, -(1.0 - alpha), -alpha, 0.0};  // p - (e0 + alpha (e1 - e0))
  c.distance_squared = weighted_distance_squared(c, V);
  return c;
}

FrictionContact point_triangle_friction_contact(const VertexRows& V, int p, int t0, int t1, int t2) {
  FrictionContact c;
  c.kind = FrictionContactKind::point_triangle;
  c.num_vertices = 4;
  c.ids = {p, t0, t1, t2};
  c.T = point_triangle_tangent_basis(at<3>(V, p), at<3>(V, t0), at<3>(V, t1), at<3>(V, t2));
  c.coords = point_triangle_closest_point(at<3>(V, p), at<3>(V, t0), at<3>(V, t1), at<3>(V, t2));
  // p - (t0 + beta1 (t1 - t0) + beta2 (t2 - t0))
  c.weights = {1.0, -(1.0 - c.coords[0] - c.coords[1]), -c.coords[0], -c.coords[1]};
  c.distance_squared = weighted_distance_squared(c, V);
  return c;
}

FrictionContact edge_edge_friction_contact(const VertexRows& V, int ea0, int ea1, int eb0, int eb1) {
  FrictionContact c;
  c.kind = FrictionContactKind::edge_edge;
  c.num_vertices = 4;
  c.ids = {ea0, ea1, eb0, eb1};
  c.T = edge_edge_tangent_basis(at<3>(V, ea0), at<3>(V, ea1), at<3>(V, eb0), at<3>(V, eb1));
  c.coords = edge_edge_closest_point(at<3>(V, ea0), at<3>(V, ea1), at<3>(V, eb0), at<3>(V, eb1));
  const double a = c.coords[0], b = c.coords[1];
  c.weights = {1.0 - a, a, -(1.0 - b), -b};  // (ea0 + a ea) - (eb0 + b eb)
  c.distance_squared = weighted_distance_squared(c, V);
  return c;
}

FrictionContact friction_contact_for_point_edge(const VertexRows& V, int p, int e0, int e1) {
  PointEdgeDistanceType t = V.cols() == 3 ? point_edge_distance_type(at<3>(V, p), at<3>(V, e0), at<3>(V, e1))
                                          : point_edge_distance_type(at<2>(V, p), at<2>(V, e0), at<2>(V, e1));
  switch (t) {
    case PointEdgeDistanceType::P_E0: return point_point_friction_contact(V, p, e0);
    case PointEdgeDistanceType::P_E1: return point_point_friction_contact(V, p, e1);
    default: return point_edge_friction_contact(V, p, e0, e1);
  }
}

FrictionContact friction_contact_for_point_triangle(const VertexRows& V, int p, int t0, int t1, int t2) {
  switch (point_triangle_distance_type(at<3>(V, p), at<3>(V, t0), at<3>(V, t1), at<3>(V, t2))) {
    case PointTriangleDistanceType::P_T0: return point_point_friction_contact(V, p, t0);
    case PointTriangleDistanceType::P_T1: return point_point_friction_contact(V, p, t1);
    case PointTriangleDistanceType::P_T2: return point_point_friction_contact(V, p, t2);
    case PointTriangleDistanceType::P_E0: return point_edge_friction_contact(V, p, t0, t1);
    case PointTriangleDistanceType::P_E1: return point_edge_friction_contact(V, p, t1, t2);
    case PointTriangleDistanceType::P_E2: return point_edge_friction_contact(V, p, t2, t0);
    default: return point_triangle_friction_contact(V, p, t0, t1, t2);
  }
}

FrictionContact friction_contact_for_edge_edge(const VertexRows& V, int ea0, int ea1, int eb0, int eb1) {
  switch (edge_edge_distance_type(at<3>(V, ea0), at<3>(V, ea1), at<3>(V, eb0), at<3>(V, eb1))) {
    case EdgeEdgeDistanceType::EA0_EB0: return point_point_friction_contact(V, ea0, eb0);
    case EdgeEdgeDistanceType::EA0_EB1: return point_point_friction_contact(V, ea0, eb1);
    case EdgeEdgeDistanceType::EA1_EB0: return point_point_friction_contact(V, ea1, eb0);
    case EdgeEdgeDistanceType::EA1_EB1: return point_point_friction_contact(V, ea1, eb1);
    case EdgeEdgeDistanceType::EA_EB0: return point_edge_friction_contact(V, eb0, ea0, ea1);
    case EdgeEdgeDistanceType::EA_EB1: return point_edge_friction_contact(V, eb1, ea0, ea1);
    case EdgeEdgeDistanceType::EA0_EB: return point_edge_friction_contact(V, ea0, eb0, eb1);
    case EdgeEdgeDistanceType::EA1_EB: return point_edge_friction_contact(V, ea1, eb0, eb1);
    default: return edge_edge_friction_contact(V, ea0, ea1, eb0, eb1);
  }
}

std::vector<FrictionContact> classify_friction_contacts(const CollisionMesh& mesh, const VertexRows& V,
                                                        const Candidates& c) {
  std::vector<FrictionContact> contacts;
  contacts.reserve(c.vertex_face.size() + c.edge_edge.size() + c.vertex_edge.size());
  for (const auto& [v, f] : c.vertex_face)
    contacts.push_back(
        friction_contact_for_point_triangle(V, mesh.vertices[v], mesh.faces(f, 0), mesh.faces(f, 1), mesh.faces(f, 2)));
  for (const auto& [a, b] : c.edge_edge)
    contacts.push_back(
        friction_contact_for_edge_edge(V, mesh.edges(a, 0), mesh.edges(a, 1), mesh.edges(b, 0), mesh.edges(b, 1)));
  for (const auto& [v, e] : c.vertex_edge)
    contacts.push_back(friction_contact_for_point_edge(V, mesh.vertices[v], mesh.edges(e, 0), mesh.edges(e, 1)));
  return contacts;
}

double normal_force_magnitude(BarrierForm form, double s, double dhat, double kappa) {
  if (!(s > 0.0) || s >= dhat * dhat) return 0.0;
  return -barrier_of_squared_distance(form, s, dhat, kappa).first * 2.0 * std::sqrt(s);
}

double friction_contact_potential(const FrictionContact& c, const VertexRows& V, const VertexRows& V0,
                                  FrictionSmoothing smoothing, double eps, FrictionStencilVec* grad,
                                  FrictionStencilMat* hess, bool project_psd) {
  using Small = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 3, 1>;
  using SmallMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 3, 3>;
  const int dim = static_cast<int>(V.cols());
  const int m = static_cast<int>(c.T.cols());
  Small u = Small::Zero(dim);
  for (int a = 0; a < c.num_vertices; ++a) u += c.weights[a] * (V.row(c.ids[a]) - V0.row(c.ids[a])).transpose();
  const Small z = c.T.transpose() * u;
  const double y = z.norm();
  const FrictionSmoothingValue f = friction_smoothing(smoothing, y, eps);
  const int n = c.num_vertices * dim;
  if (grad) {
    grad->setZero();
    const Small g = c.lambda * f.f1_over_y * (c.T * z);  // d/du of lambda f0(|T^T u|)
    for (int a = 0; a < c.num_vertices; ++a) grad->segment(a * dim, dim) = c.weights[a] * g;
  }
  if (hess) {
    hess->setZero();
    SmallMat Hz = f.f1_over_y * SmallMat::Identity(m, m) + f.c * z * z.transpose();
    if (project_psd) {
      // Eigen-pairs of H_z: f1/y on z's orthogonal complement, f1' along z (both >= 0 for the
      // c1 and rational smoothings); clamp negatives to zero.
      const double across = std::max(f.f1_over_y, 0.0);
      const double along = std::max(f.f1_prime, 0.0);
      if (y > 0) {
        const Small zh = z / y;
        Hz = across * SmallMat::Identity(m, m) + (along - across) * zh * zh.transpose();
      } else {
        Hz = across * SmallMat::Identity(m, m);
      }
    }
    const SmallMat H = c.lambda * (c.T * Hz * c.T.transpose());  // d2/du2
    for (int a = 0; a < c.num_vertices; ++a)
      for (int b = 0; b < c.num_vertices; ++b)
        hess->block(a * dim, b * dim, dim, dim) = c.weights[a] * c.weights[b] * H;
  }
  (void)n;
  return c.lambda * f.f0;
}

}  // namespace softsim
