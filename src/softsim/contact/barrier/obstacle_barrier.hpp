#pragma once
// IPC barrier between every vertex and an analytic obstacle (Li & Jiang 2025, §7.2 and ch. 8): a
// half-space, a sphere or an axis-aligned box, each given by a signed distance d(x) with gradient
// and Hessian (the ball's as in Li & Jiang 2025, Example 7.1.1; the box's distance is that to its
// nearest face, edge or corner). P_b = sum_i w_i b(d_i), b(d) = (kappa/2)(d/dhat - 1) ln(d/dhat)
// for d < dhat, with w_i = A_i dhat (A_i the vertex's contact area). Step filter: the slope CCD
// of Li & Jiang 2025 (Implementation 10.1.3) for planes, alpha <= 0.9 d_i / (-n . p_i); for
// spheres and boxes, whose distance is 1-Lipschitz, alpha <= 0.9 d_i / |p_i| (a point cannot
// close a gap faster than it moves).
// A moving obstacle has a pose vertex a among the model's DOFs (the book's moving ceiling,
// Li & Jiang 2025, §11.2): the obstacle is translated to x_a, so d_i depends on x_i - x_a, each
// contact is a two-vertex stencil (i, a) and the step filter uses the relative motion p_i - p_a.
// Vertices of weight 0 (the pose vertices, vertices with no contact area) are ignored.
// Faces and edges (set_surface): a sphere's centre and a box's corners and edges are kept away
// from the body's faces and edges as well (obstacle_features.hpp), by the same barrier on the
// distance between those features less the sphere's radius, each pair weighted by dhat times
// the mean contact area of its body vertices; the box's edge-edge pairs are mollified as in IPC
// (Li et al. 2020, sec. 4.3). The step filter stops these pairs by additive CCD (Li, Kaufman & Jiang 2021,
// Alg. 1) with the radius as the minimum separation, so no face passes through the obstacle
// either.
#include <vector>

#include "softsim/contact/geometry/analytic_obstacle.hpp"
#include "softsim/contact/geometry/obstacle_features.hpp"
#include "softsim/contact/stencil/contact_stencil.hpp"
#include "softsim/model/energy.hpp"

namespace softsim {

class ObstacleBarrier : public Energy {
 public:
  // pose_vertex: the moving obstacle's pose vertex, whose rest position is obstacle.point; -1: static.
  ObstacleBarrier(int dim, AnalyticObstacle obstacle, std::vector<double> vertex_weights, double dhat, double kappa,
                  int pose_vertex = -1);
  std::string name() const override { return "obstacle_barrier"; }
  double evaluate(const EvalContext& ctx, const VecX& x, const AssemblyOutputs& out) const override;
  bool hessian_psd_when_projected() const override { return true; }  // b'' grad d grad d^T, b' Hess d dropped
  double max_step_fraction(const EvalContext& ctx, const VecX& x, const VecX& p) const override;
  double min_contact_distance(const VecX& x, const ModelData* data = nullptr) const override;
  // The vertices it weighs, and the pose vertex of a moving obstacle; no step hooks.
  bool vertex_support(std::vector<int>& vertices) const override;
  bool hooks_read_all_positions() const override { return false; }

  // The body's surface: faces (f x 3, 3D) and edges (e x 2), model vertex ids, whose features
  // the obstacle's are kept away from, and the rest positions (the edge-edge mollifier's
  // threshold). Without it (or for a plane) only vertices are.
  void set_surface(const MatXi& faces, const MatXi& edges, const VecX& rest_positions);

  // The vertices within the barrier's reach (d < dhat) at x with their distances (m).
  std::vector<std::pair<int, double>> active_contacts(const VecX& x) const;

  // Signed distance of a point with its gradient and Hessian (when non-null), the obstacle at its
  // rest pose; a moving obstacle's distance at x is that of relative_position(x, i).
  double signed_distance(const VecUpTo3& p, VecUpTo3* grad, MatUpTo3* hess) const;
  // x_i, or for a moving obstacle x_i - (x_a - x_a at rest): vertex i seen from the rest pose.
  // Written into `out` (sized to dim), whose storage a loop over vertices reuses.
  void relative_position(const VecX& x, int i, VecUpTo3& out) const;
  int pose_vertex() const { return pose_; }
  // The features the body's faces and edges are kept from (empty for a plane or without a surface).
  const ObstacleFeatures& features() const { return features_; }
  bool has_surface_pairs() const { return !features_.empty() && (faces_.rows() > 0 || edges_.rows() > 0); }

  // A pair of an obstacle feature and a body face or edge: its stencil on the rows of
  // feature_positions (model vertices, then the features), the weight of its barrier, and
  // whether it is a feature point's (at the separation) or an edge-edge pair (at 0, mollified).
  struct FeaturePair {
    ContactStencil stencil;
    double weight = 0.0;
    double separation = 0.0;
    double mollifier_threshold = 0.0;  // edge-edge: eps_x of IPC's mollifier (Li et al. 2020, eq. 17)
  };
  // Model vertex rows of x then the feature rows at the obstacle's pose in x (num_vertices + m rows).
  void feature_positions(const VecX& x, VertexRows& V) const;
  // The pairs whose distance may be below `reach` at V: those of primitives whose vertices'
  // distances, less the primitive's extent and `motion` (a bound on how far any of its points
  // moves towards the obstacle), are below it, and whose box comes within reach of the feature's.
  void feature_pairs(const VertexRows& V, const std::vector<double>& motion, double reach,
                     std::vector<FeaturePair>& out) const;
  // The distance of a pair at V (m, less its separation).
  double pair_distance(const FeaturePair& pair, const VertexRows& V) const;

  const AnalyticObstacle& obstacle() const { return obstacle_; }

 private:
  void declare_stencils(HessianLayout& layout) override;
  template <int D>
  double evaluate_in(const VecX& x, const AssemblyOutputs& out) const;
  template <int D>
  double max_step_in(const VecX& x, const VecX& p) const;
  // v_i, or v_i - v_a for a moving obstacle (positions or steps seen from the pose).
  template <int D>
  VecD<D> relative_motion(const VecX& v, int i) const;
  template <int D>
  VecD<D> relative_point(const VecX& x, int i) const;  // relative_position, fixed size
  template <int D>
  double distance_of(const VecX& x, int i) const;
  double distance_of_vertex(const VecX& x, int i) const;  // relative_position's signed distance

  double feature_barrier(const VecX& x, const AssemblyOutputs& out) const;
  double feature_step(const VecX& x, const VecX& p) const;
  double feature_min_distance(const VecX& x, double below) const;
  // A pair's stencil as the gradient and Hessian are scattered: feature rows become the pose
  // vertex of a moving obstacle, and rows without DOFs (>= num_vertices) for a static one.
  ContactStencil scatter_stencil(const ContactStencil& s, int num_vertices) const;
  int dim_;
  AnalyticObstacle obstacle_;
  std::vector<double> weights_;
  // The vertices of positive weight, ascending: every loop runs over these alone (the collision
  // surface, not the whole mesh). A moving obstacle's stencil k in set_ is (weighted_[k], a).
  std::vector<int> weighted_;
  double dhat_, kappa_;
  int pose_ = -1;
  const HessianLayout* layout_ = nullptr;
  int set_ = -1;  // moving obstacle: stencils (i, a) of the weighted vertices
  ObstacleFeatures features_;
  MatXi faces_, edges_;  // the body's surface primitives with positive weight
  std::vector<double> face_weight_, edge_weight_;
  std::vector<char> edge_in_face_;  // 3D: an edge of some face (its point pairs go through the face)
  std::vector<double> edge_rest_length2_;  // squared rest length per body edge (the mollifier's threshold)
};

}  // namespace softsim
