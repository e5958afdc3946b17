#include "softsim/contact/barrier/barrier.hpp"
#include "softsim/contact/barrier/ipc_contact.hpp"
#include "softsim/contact/barrier/obstacle_barrier.hpp"
#include "softsim/contact/broad_phase/candidates.hpp"
#include "softsim/contact/friction/friction_source.hpp"
#include "softsim/contact/penalty/penalty_contact.hpp"

namespace softsim {

namespace {

class IpcFrictionSource : public FrictionSource {
 public:
  IpcFrictionSource(const IpcContact& contact, const FrictionOptions& options) : contact_(contact), options_(options) {}
  const Energy& contact_term() const override { return contact_; }
  VertexRows positions(const VecX& x) const override { return contact_.collision_mesh().positions(x); }
  int num_dof_vertices() const override { return contact_.collision_mesh().num_dof_vertices; }

  std::vector<FrictionContact> contacts(const EvalContext& ctx, const VecX& x) const override {
    const CollisionMesh& mesh = contact_.collision_mesh();
    const IpcOptions& o = contact_.options();
    const double kappa = contact_.stiffness(ctx.data);
    const double shat = o.dhat * o.dhat;
    const Candidates c = proximity_candidates(mesh, x, o.dhat, o.broad_phase);
    std::vector<FrictionContact> contacts;
    for (FrictionContact& f : classify_friction_contacts(mesh, mesh.positions(x), c)) {
      if (!(f.distance_squared < shat)) continue;
      f.lambda = normal_force_magnitude(o.form, f.distance_squared, o.dhat, kappa);
      if (!(f.lambda > 0.0)) continue;
      f.mu = options_.mu_of_contact(f.num_vertices, f.ids, f.obstacle);
      if (f.mu > 0.0) contacts.push_back(std::move(f));
    }
    return contacts;
  }

 private:
  const IpcContact& contact_;
  FrictionOptions options_;
};

class ObstacleFrictionSource : public FrictionSource {
 public:
  ObstacleFrictionSource(const ObstacleBarrier& barrier, int dim, std::vector<double> weights, double dhat,
                         double kappa, const FrictionOptions& options)
      : barrier_(barrier), dim_(dim), weights_(std::move(weights)), dhat_(dhat), kappa_(kappa), options_(options) {}
  const Energy& contact_term() const override { return barrier_; }
  VertexRows positions(const VecX& x) const override { return as_rows(x, dim_); }
  int num_dof_vertices() const override { return static_cast<int>(weights_.size()); }

  std::vector<FrictionContact> contacts(const EvalContext&, const VecX& x) const override {
    std::vector<FrictionContact> contacts;
    VecX grad;
    for (std::size_t i = 0; i < weights_.size(); ++i) {
      const double d = barrier_.signed_distance(x.segment(i * dim_, dim_), &grad, nullptr);
      if (!(d > 0.0) || d >= dhat_ || grad.norm() == 0.0) continue;
      FrictionContact c;
      c.kind = FrictionContactKind::point_plane;
      c.num_vertices = 1;
      c.ids = {static_cast<int>(i), -1, -1, -1};
      c.weights = {1.0, 0.0, 0.0, 0.0};
      const VecX n = grad.normalized();
      c.T = MatX::Identity(dim_, dim_) - n * n.transpose();
      c.distance_squared = d * d;
      c.lambda = -weights_[i] * book_barrier_first_derivative(d, dhat_, kappa_);
      c.mu = options_.mu_between_groups(options_.group_of(static_cast<int>(i)), options_.obstacle_group);
      if (c.lambda > 0.0 && c.mu > 0.0) contacts.push_back(c);
    }
    return contacts;
  }

 private:
  const ObstacleBarrier& barrier_;
  int dim_;
  std::vector<double> weights_;
  double dhat_, kappa_;
  FrictionOptions options_;
};

class PenaltyFrictionSource : public FrictionSource {
 public:
  PenaltyFrictionSource(const PenaltyContact& contact, const FrictionOptions& options)
      : contact_(contact), options_(options) {}
  const Energy& contact_term() const override { return contact_; }
  VertexRows positions(const VecX& x) const override { return contact_.collision_mesh().positions(x); }
  int num_dof_vertices() const override { return contact_.collision_mesh().num_dof_vertices; }

  std::vector<FrictionContact> contacts(const EvalContext& ctx, const VecX& x) const override {
    std::vector<FrictionContact> contacts;
    for (FrictionContact& f : contact_.friction_contacts(ctx, x)) {
      f.mu = options_.mu_of_contact(f.num_vertices, f.ids, f.obstacle);
      if (f.mu > 0.0) contacts.push_back(std::move(f));
    }
    return contacts;
  }

 private:
  const PenaltyContact& contact_;
  FrictionOptions options_;
};

}  // namespace

std::unique_ptr<FrictionSource> ipc_friction_source(const IpcContact& contact, const FrictionOptions& options) {
  return std::make_unique<IpcFrictionSource>(contact, options);
}

std::unique_ptr<FrictionSource> obstacle_friction_source(const ObstacleBarrier& barrier, int dim,
                                                         std::vector<double> vertex_weights, double dhat,
                                                         double kappa, const FrictionOptions& options) {
  return std::make_unique<ObstacleFrictionSource>(barrier, dim, std::move(vertex_weights), dhat, kappa, options);
}

std::unique_ptr<FrictionSource> penalty_friction_source(const PenaltyContact& contact, const FrictionOptions& options) {
  return std::make_unique<PenaltyFrictionSource>(contact, options);
}

}  // namespace softsim
