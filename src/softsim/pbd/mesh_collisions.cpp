#include "softsim/pbd/mesh_collisions.hpp"

#include <Eigen/Geometry>

#include <cmath>
#include <stdexcept>

#include "softsim/contact/barrier/ipc_contact.hpp"
#include "softsim/contact/broad_phase/candidates.hpp"

namespace softsim {

namespace {

// How far past a face's edges (in barycentric units) a vertex still counts as over the face: a
// vertex crossing near an edge shared by two faces is caught by both, not slipped between them.
constexpr double kOverhang = 0.2;

}  // namespace

MeshCollisions::MeshCollisions(const Model& model) {
  for (const auto& term : model.energies())
    if (const auto* ipc = dynamic_cast<const IpcContact*>(term.get())) {
      if (model.dim() != 3)
        throw std::invalid_argument("the position-based integrators collide bodies with each other in 3D only");
      mesh_ = &ipc->collision_mesh();
      thickness_ = ipc->options().thickness > 0.0 ? ipc->options().thickness : ipc->options().dhat;
    }
}

Vec3 MeshCollisions::position(const VecX& x, int global) const {
  if (mesh_->is_static_vertex(global)) return mesh_->obstacle_vertices.row(global - mesh_->num_dof_vertices).transpose();
  return x.segment<3>(3 * global);
}

void MeshCollisions::begin_substep(const VecX& x_start, const VecX& x_predicted) {
  pairs_.clear();
  if (!mesh_) return;
  // Boxes grown by the thickness on each side: pairs that can come within it during the substep
  // (the sweeps move vertices a little beyond the prediction; the margin covers that too).
  const Candidates c = ccd_candidates(*mesh_, x_start, x_predicted, 2.0 * thickness_);
  pairs_.reserve(c.vertex_face.size());
  for (const auto& [v, f] : c.vertex_face) {
    Pair p{mesh_->vertices[static_cast<std::size_t>(v)], {mesh_->faces(f, 0), mesh_->faces(f, 1), mesh_->faces(f, 2)},
           0.0};
    const Vec3 a = position(x_start, p.face[0]), b = position(x_start, p.face[1]), cc = position(x_start, p.face[2]);
    const Vec3 n = (b - a).cross(cc - a);
    const double side = n.dot(position(x_start, p.vertex) - a);
    if (side == 0.0 || !std::isfinite(side)) continue;  // on the face's plane: no side to keep
    p.side = side > 0.0 ? 1.0 : -1.0;
    pairs_.push_back(p);
  }
}

int MeshCollisions::project(VecX& x, const std::vector<double>& inverse_mass) const {
  int violated = 0;
  auto w = [&](int global) {
    return mesh_->is_static_vertex(global) ? 0.0 : inverse_mass[static_cast<std::size_t>(global)];
  };
  for (const Pair& pair : pairs_) {
    const Vec3 p = position(x, pair.vertex), a = position(x, pair.face[0]), b = position(x, pair.face[1]),
               c = position(x, pair.face[2]);
    Vec3 n = (b - a).cross(c - a);
    const double area2 = n.norm();
    if (!(area2 > 0.0)) continue;
    n /= area2;
    const double d = pair.side * n.dot(p - a);
    if (d >= thickness_) continue;
    // Barycentric coordinates of p's projection on the face's plane: only a vertex over the face
    // is pushed (past its edges the neighbouring faces take over).
    const Vec3 q = p - n.dot(p - a) * n;
    const double beta_b = n.dot((q - a).cross(c - a)) / area2, beta_c = n.dot((b - a).cross(q - a)) / area2;
    const double beta_a = 1.0 - beta_b - beta_c;
    if (beta_a < -kOverhang || beta_b < -kOverhang || beta_c < -kOverhang) continue;
    const double wp = w(pair.vertex), wa = w(pair.face[0]), wb = w(pair.face[1]), wc = w(pair.face[2]);
    const double denominator = wp + beta_a * beta_a * wa + beta_b * beta_b * wb + beta_c * beta_c * wc;
    if (denominator == 0.0) continue;
    ++violated;
    // C = d - thickness; grad_p C = s n, grad_a C = -s n beta_a, ... ; dlambda = -C / sum w |grad C|^2.
    const Vec3 step = (-(d - thickness_) / denominator * pair.side) * n;
    if (wp > 0.0) x.segment<3>(3 * pair.vertex) += wp * step;
    if (wa > 0.0) x.segment<3>(3 * pair.face[0]) -= wa * beta_a * step;
    if (wb > 0.0) x.segment<3>(3 * pair.face[1]) -= wb * beta_b * step;
    if (wc > 0.0) x.segment<3>(3 * pair.face[2]) -= wc * beta_c * step;
  }
  return violated;
}

}  // namespace softsim
