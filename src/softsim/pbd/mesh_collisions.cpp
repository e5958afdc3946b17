#include "softsim/pbd/mesh_collisions.hpp"

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "softsim/contact/barrier/ipc_contact.hpp"
#include "softsim/contact/broad_phase/candidates.hpp"

namespace softsim {

namespace {

// How far past a face's edges (in barycentric units) a vertex over it is still pushed: a vertex
// crossing near an edge shared by two faces is caught by both, not slipped between them. A pair
// is only made, though, where the vertex is over the face, or crosses it, within half the
// thickness of its edges (within_overhang): a vertex resting a thickness below the rim of a side
// face (on the top of a block another block slides on) is not held by that side face, which
// would stop the slide.
constexpr double kOverhang = 0.2;

// Whether barycentric coordinates beta of a point over (a, b, c) lie within the overhang, and
// within half the thickness of the edges.
bool within_overhang(const double (&beta)[3], const Vec3& a, const Vec3& b, const Vec3& c, double area2,
                     double thickness) {
  const Vec3* corners[3] = {&a, &b, &c};
  for (int k = 0; k < 3; ++k) {
    if (beta[k] >= 0.0) continue;
    const double height = area2 / (*corners[(k + 2) % 3] - *corners[(k + 1) % 3]).norm();  // from corner k
    if (beta[k] < -std::min(kOverhang, 0.5 * thickness / height)) return false;
  }
  return true;
}

// Barycentric coordinates of p's projection on the plane of (a, b, c), or false for a degenerate face.
bool projected_barycentrics(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, Vec3& n, double& area2,
                            double (&beta)[3]) {
  n = (b - a).cross(c - a);
  area2 = n.norm();
  if (!(area2 > 0.0)) return false;
  n /= area2;
  const Vec3 q = p - n.dot(p - a) * n;
  beta[1] = n.dot((q - a).cross(c - a)) / area2;
  beta[2] = n.dot((b - a).cross(q - a)) / area2;
  beta[0] = 1.0 - beta[1] - beta[2];
  return true;
}

// Parameters (s, t) of the closest points a0 + s (a1 - a0) and b0 + t (b1 - b0) of two lines, and
// whether both lie on their segments; false for (nearly) parallel lines. No overhang here: two
// edges of one flat sheet that do not share a vertex have lines that meet off at least one of the
// segments, and must not be pushed apart out of the sheet.
bool closest_on_segments(const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1, double& s, double& t) {
  const Vec3 u = a1 - a0, v = b1 - b0, r = a0 - b0;
  const double uu = u.dot(u), uv = u.dot(v), vv = v.dot(v), ur = u.dot(r), vr = v.dot(r);
  const double den = uu * vv - uv * uv;
  if (!(den > 1e-12 * uu * vv)) return false;
  s = (uv * vr - vv * ur) / den;
  t = (uu * vr - uv * ur) / den;
  return s >= 0.0 && s <= 1.0 && t >= 0.0 && t <= 1.0;
}

bool over_face(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, double thickness) {
  Vec3 n;
  double area2, beta[3];
  return projected_barycentrics(p, a, b, c, n, area2, beta) && within_overhang(beta, a, b, c, area2, thickness);
}

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
    const Vec3 x0 = position(x_start, p.vertex);
    const double side = (b - a).cross(cc - a).dot(x0 - a);
    if (side == 0.0 || !std::isfinite(side)) continue;  // on the face's plane: no side to keep
    // The side means something only where the vertex is over the face: at the substep's start,
    // or where its predicted path crosses the face's (predicted) plane. A vertex beside the face
    // (resting on the top of a box next to the rim of a side face) is not on the face's "inner
    // side" and must be free to slide over the rim.
    if (!over_face(x0, a, b, cc, thickness_)) {
      const Vec3 pa = position(x_predicted, p.face[0]), pb = position(x_predicted, p.face[1]),
                 pc = position(x_predicted, p.face[2]), x1 = position(x_predicted, p.vertex);
      const Vec3 n1 = (pb - pa).cross(pc - pa);
      const double s0 = n1.dot(x0 - pa), s1 = n1.dot(x1 - pa);
      if (!(s0 * s1 <= 0.0 && s0 != s1)) continue;  // no crossing of the plane
      const Vec3 crossing = x0 + s0 / (s0 - s1) * (x1 - x0);
      if (!over_face(crossing, pa, pb, pc, thickness_)) continue;
    }
    p.side = side > 0.0 ? 1.0 : -1.0;
    pairs_.push_back(p);
  }
  edge_pairs_.clear();
  edge_pairs_.reserve(c.edge_edge.size());
  for (const auto& [ea, eb] : c.edge_edge) {
    EdgePair p{{mesh_->edges(ea, 0), mesh_->edges(ea, 1)}, {mesh_->edges(eb, 0), mesh_->edges(eb, 1)}, 0.0};
    const Vec3 a0 = position(x_start, p.a[0]), a1 = position(x_start, p.a[1]), b0 = position(x_start, p.b[0]),
               b1 = position(x_start, p.b[1]);
    const double side = (a1 - a0).cross(b1 - b0).dot(a0 - b0);
    if (side == 0.0 || !std::isfinite(side)) continue;
    double s = 0.0, t = 0.0;
    if (!closest_on_segments(a0, a1, b0, b1, s, t)) {
      // Kept too when the edges' closest points come onto both segments by the prediction's end
      // with the lines passed through each other.
      const Vec3 pa0 = position(x_predicted, p.a[0]), pa1 = position(x_predicted, p.a[1]),
                 pb0 = position(x_predicted, p.b[0]), pb1 = position(x_predicted, p.b[1]);
      const double predicted_side = (pa1 - pa0).cross(pb1 - pb0).dot(pa0 - pb0);
      if (!(predicted_side * side <= 0.0) || !closest_on_segments(pa0, pa1, pb0, pb1, s, t)) continue;
    }
    p.side = side > 0.0 ? 1.0 : -1.0;
    edge_pairs_.push_back(p);
  }
}

double MeshCollisions::inverse_mass_of(int global, const std::vector<double>& inverse_mass) const {
  return mesh_->is_static_vertex(global) ? 0.0 : inverse_mass[static_cast<std::size_t>(global)];
}

void MeshCollisions::apply_friction(VecX& x, const VecX& x_start, const std::vector<double>& inverse_mass,
                                    const int (&ids)[4], const double (&weights)[4], const Vec3& normal,
                                    double pushed, Vec3& taken, double mu_static, double mu_kinetic) const {
  if (!(pushed > 0.0) || !(mu_kinetic > 0.0 || mu_static > 0.0)) return;
  // What earlier sweeps removed is added back (as if no friction had acted yet); only its
  // tangential part, should the normal have turned since.
  taken -= taken.dot(normal) * normal;
  double w[4], denominator = 0.0;
  Vec3 relative = taken;
  for (int k = 0; k < 4; ++k) {
    w[k] = inverse_mass_of(ids[k], inverse_mass);
    denominator += weights[k] * weights[k] * w[k];
    relative += weights[k] * (position(x, ids[k]) - position(x_start, ids[k]));
  }
  if (!(denominator > 0.0)) return;
  const Vec3 tangential = relative - relative.dot(normal) * normal;
  const double slide = tangential.norm();
  Vec3 take = Vec3::Zero();
  if (slide > 0.0)
    take = slide <= mu_static * pushed ? tangential : Vec3(tangential * std::min(mu_kinetic * pushed / slide, 1.0));
  // Remove (take - taken) from the relative displacement: vertex k moves by -w_k weights_k / denominator of it.
  const Vec3 change = (take - taken) / denominator;
  for (int k = 0; k < 4; ++k)
    if (w[k] > 0.0) x.segment<3>(3 * ids[k]) -= w[k] * weights[k] * change;
  taken = take;
}

int MeshCollisions::project(VecX& x, const VecX& x_start, const std::vector<double>& inverse_mass, double mu_static,
                            double mu_kinetic) {
  int violated = 0;
  // One pair at distance d = side n . (sum_k weights_k x_k): when d < thickness, projects
  // C = d - thickness >= 0 with n and the weights held (grad_k C = side weights_k n, dlambda =
  // -C / sum_k w_k |grad_k C|^2) and adds the correction to the pair's push; then, once the pair
  // has pushed in this substep, friction between the points the friction weights name.
  auto resolve = [&](const int (&ids)[4], const double (&weights)[4], const double (&friction_weights)[4],
                     const Vec3& n, double side, double d, double& pushed, Vec3& taken) {
    if (d < thickness_) {
      double denominator = 0.0;
      for (int k = 0; k < 4; ++k) denominator += weights[k] * weights[k] * inverse_mass_of(ids[k], inverse_mass);
      if (denominator == 0.0) return;  // no vertex can move
      const Vec3 step = (-(d - thickness_) / denominator * side) * n;
      for (int k = 0; k < 4; ++k)
        if (const double wk = inverse_mass_of(ids[k], inverse_mass); wk > 0.0)
          x.segment<3>(3 * ids[k]) += wk * weights[k] * step;
      ++violated;
      pushed += thickness_ - d;
    }
    apply_friction(x, x_start, inverse_mass, ids, friction_weights, n, pushed, taken, mu_static, mu_kinetic);
  };
  for (Pair& pair : pairs_) {
    const Vec3 p = position(x, pair.vertex), a = position(x, pair.face[0]), b = position(x, pair.face[1]),
               c = position(x, pair.face[2]);
    Vec3 n;
    double area2, beta[3];
    if (!projected_barycentrics(p, a, b, c, n, area2, beta)) continue;
    const double d = pair.side * n.dot(p - a);
    if (d >= thickness_ && pair.pushed == 0.0) continue;  // not in contact during this substep
    // Only a vertex over the face is pushed (past its edges the neighbouring faces take over).
    if (beta[0] < -kOverhang || beta[1] < -kOverhang || beta[2] < -kOverhang) continue;
    const int ids[4] = {pair.vertex, pair.face[0], pair.face[1], pair.face[2]};
    const double weights[4] = {1.0, -beta[0], -beta[1], -beta[2]};  // of p, a, b, c in p - (beta . face)
    // Friction acts between the vertex and the closest point of the face: in the overhang the
    // barycentric weights are clamped to the triangle (a negative one would drag that corner
    // along with the vertex).
    const double b0 = std::max(beta[0], 0.0), b1 = std::max(beta[1], 0.0), b2 = std::max(beta[2], 0.0);
    const double sum = b0 + b1 + b2;
    const double on_face[4] = {1.0, -b0 / sum, -b1 / sum, -b2 / sum};
    resolve(ids, weights, on_face, n, pair.side, d, pair.pushed, pair.taken);
  }
  for (EdgePair& pair : edge_pairs_) {
    const Vec3 a0 = position(x, pair.a[0]), a1 = position(x, pair.a[1]), b0 = position(x, pair.b[0]),
               b1 = position(x, pair.b[1]);
    double s = 0.0, t = 0.0;
    if (!closest_on_segments(a0, a1, b0, b1, s, t)) continue;
    const Vec3 n = (a1 - a0).cross(b1 - b0).normalized();
    const double d = pair.side * n.dot(a0 - b0);
    if (d >= thickness_ && pair.pushed == 0.0) continue;
    const double weights[4] = {1.0 - s, s, -(1.0 - t), -t};  // of a0, a1, b0, b1 in a(s) - b(t)
    const int ids[4] = {pair.a[0], pair.a[1], pair.b[0], pair.b[1]};
    resolve(ids, weights, weights, n, pair.side, d, pair.pushed, pair.taken);
  }
  return violated;
}

}  // namespace softsim
