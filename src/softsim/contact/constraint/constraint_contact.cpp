#include "softsim/contact/constraint/constraint_contact.hpp"

#include "softsim/model/model.hpp"

namespace softsim {

ConstraintContact::ConstraintContact(const Model& model, CollisionMesh mesh, std::vector<AnalyticObstacle> obstacles,
                                     ConstraintContactOptions options)
    : model_(model),
      mesh_(std::move(mesh)),
      surfaces_(mesh_, options.search_radius, mesh_.positions(model.rest_positions)),
      obstacles_(std::move(obstacles)),
      options_(std::move(options)) {}

const std::vector<char>& ConstraintContact::fixed_dofs() const { return model_.boundary.fixed_dofs(); }

std::vector<ContactConstraint> ConstraintContact::detect(const VecX& x) const {
  const VertexRows V = mesh_.positions(x);
  std::vector<PenaltyContactPoint> points;
  if (options_.between_bodies) points = surfaces_.find(V, options_.detection_distance, options_.broad_phase);
  add_obstacle_contact_points(mesh_, V, obstacles_, options_.detection_distance, points);
  const std::vector<char>& fixed = model_.boundary.fixed_dofs();
  const int dim = mesh_.dim;
  auto movable = [&](int vertex) {
    if (mesh_.is_static_vertex(vertex)) return false;
    if (fixed.empty()) return true;
    for (int i = 0; i < dim; ++i)
      if (!fixed[static_cast<std::size_t>(vertex * dim + i)]) return true;
    return false;
  };
  std::vector<ContactConstraint> contacts;
  contacts.reserve(points.size());
  for (const PenaltyContactPoint& point : points) {
    const ContactStencil& s = point.stencil;
    bool any_movable = false;
    for (int a = 0; a < s.num_vertices; ++a) any_movable = any_movable || movable(s.ids[a]);
    if (!any_movable) continue;
    const double mu = options_.friction.mu_of_contact(s.num_vertices, s.ids, s.obstacle);
    if (auto c = make_contact_constraint(point, V, obstacles_, mu)) contacts.push_back(*c);
  }
  return contacts;
}

}  // namespace softsim
