#include "softsim/contact/friction/friction_contact.hpp"

#include <algorithm>
#include <cmath>


namespace softsim {

FrictionFrame<double> FrictionContact::frame() const {
  FrictionFrame<double> f;
  f.num_vertices = stencil.num_vertices;
  f.weights = weights;
  f.basis = T;
  f.lambda = lambda;
  return f;
}

void FrictionContact::set_frame(const FrictionFrame<double>& f) {
  weights = f.weights;
  T = f.basis;
  lambda = f.lambda;
}

FrictionContact friction_contact(const ContactStencil& stencil, const VertexRows& V) {
  const int dim = static_cast<int>(V.cols());
  std::array<double, 12> x{};
  for (int a = 0; a < stencil.num_vertices; ++a)
    for (int r = 0; r < dim; ++r) x[a * dim + r] = V(stencil.ids[a], r);
  FrictionContact c;
  c.stencil = stencil;
  std::array<double, 2> coords{};
  const FrictionFrame<double> f = stencil_frame<double>(stencil.kind, x.data(), dim, &coords);
  c.set_frame(f);
  c.coords = {coords[0], coords[1]};
  c.distance_squared = closest_points_distance_squared(f, x.data(), dim);
  return c;
}

std::vector<FrictionContact> classify_friction_contacts(const CollisionMesh& mesh, const VertexRows& V,
                                                        const Candidates& candidates) {
  std::vector<FrictionContact> contacts;
  contacts.reserve(candidates.size());
  for (const ContactStencil& s : candidate_stencils(mesh, candidates))
    contacts.push_back(friction_contact(closest_features(s, V), V));
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
  const ContactStencil& st = c.stencil;
  for (int a = 0; a < st.num_vertices; ++a) u += c.weights[a] * (V.row(st.ids[a]) - V0.row(st.ids[a])).transpose();
  const Small z = c.T.transpose() * u;
  const double y = z.norm();
  const FrictionSmoothingValue f = friction_smoothing(smoothing, y, eps);
  if (grad) {
    grad->setZero();
    const Small g = c.lambda * f.f1_over_y * (c.T * z);  // d/du of lambda f0(|T^T u|)
    for (int a = 0; a < st.num_vertices; ++a) grad->segment(a * dim, dim) = c.weights[a] * g;
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
    for (int a = 0; a < st.num_vertices; ++a)
      for (int b = 0; b < st.num_vertices; ++b)
        hess->block(a * dim, b * dim, dim, dim) = c.weights[a] * c.weights[b] * H;
  }
  return c.lambda * f.f0;
}

}  // namespace softsim
