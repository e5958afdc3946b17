#include "softsim/pbd/obstacle_collisions.hpp"

#include <tbb/parallel_reduce.h>
#include <tbb/blocked_range.h>

#include <algorithm>
#include <cmath>

#include "softsim/contact/barrier/obstacle_barrier.hpp"

namespace softsim {

ObstacleCollisions::ObstacleCollisions(const Model& model) : dim_(model.dim()) {
  for (const auto& term : model.energies())
    if (const auto* b = dynamic_cast<const ObstacleBarrier*>(term.get())) {
      AnalyticObstacle o = b->obstacle();
      o.pose_vertex = b->pose_vertex();
      obstacles_.push_back(o);
    }
}

int ObstacleCollisions::project(VecX& x, const VecX& x_prev, const std::vector<double>& inverse_mass, double margin,
                                double mu_static, double mu_kinetic, std::vector<double>& pushed, VecX& removed) const {
  if (obstacles_.empty()) return 0;
  return dim_ == 2 ? project_in<2>(x, x_prev, inverse_mass, margin, mu_static, mu_kinetic, pushed, removed)
                   : project_in<3>(x, x_prev, inverse_mass, margin, mu_static, mu_kinetic, pushed, removed);
}

template <int D>
int ObstacleCollisions::project_in(VecX& x, const VecX& x_prev, const std::vector<double>& inverse_mass, double margin,
                                   double mu_static, double mu_kinetic, std::vector<double>& pushed,
                                   VecX& removed) const {
  const int n = static_cast<int>(inverse_mass.size());
  return tbb::parallel_reduce(
      tbb::blocked_range<int>(0, n, 256), 0,
      [&](const tbb::blocked_range<int>& r, int contacts) {
        for (int i = r.begin(); i != r.end(); ++i) {
          if (!(inverse_mass[static_cast<std::size_t>(i)] > 0.0)) continue;
          for (std::size_t k = 0; k < obstacles_.size(); ++k) {
            const AnalyticObstacle& o = obstacles_[k];
            const std::size_t pair = static_cast<std::size_t>(i) * obstacles_.size() + k;
            VecD<D> pose = VecD<D>::Zero(), pose_motion = VecD<D>::Zero();
            if (o.pose_vertex >= 0) {
              pose = x.segment<D>(o.pose_vertex * D);
              pose_motion = pose - x_prev.segment<D>(o.pose_vertex * D);
            }
            VecD<D> p = x.segment<D>(i * D);
            Eigen::Matrix<Jet<D>, D, 1> q;
            const VecD<D> rel = relative_to_rest_pose<double, D>(o, p, pose);
            for (int k = 0; k < D; ++k) q[k] = Jet<D>::variable(rel[k], k);
            const Jet<D> d = analytic_signed_distance<Jet<D>, D>(o, q);
            const double depth = margin - d.v;
            double& total = pushed[pair];
            if (!(depth > 0.0) && total == 0.0) continue;  // not in contact during this substep
            const VecD<D> normal = d.g.normalized();
            if (depth > 0.0) {
              p += depth * normal;  // onto the surface (the obstacle does not move: w_obstacle = 0)
              total += depth;
            }
            // Friction on the whole substep's displacement relative to the obstacle, as if no
            // friction had acted yet (what earlier sweeps removed is added back).
            auto taken = removed.segment<D>(static_cast<Eigen::Index>(pair) * D);
            const VecD<D> dp = p + taken - x_prev.segment<D>(i * D) - pose_motion;
            const VecD<D> tangential = dp - dp.dot(normal) * normal;
            const double slide = tangential.norm();
            VecD<D> take = VecD<D>::Zero();
            if (slide > 0.0)
              take = slide <= mu_static * total ? tangential : VecD<D>(tangential * std::min(mu_kinetic * total / slide, 1.0));
            p -= take - taken;
            taken = take;
            if (o.shape != AnalyticObstacle::Shape::Plane) {
              // A tangential move leaves a curved surface: back onto it, along its normal there.
              const VecD<D> moved = relative_to_rest_pose<double, D>(o, p, pose);
              for (int k = 0; k < D; ++k) q[k] = Jet<D>::variable(moved[k], k);
              const Jet<D> again = analytic_signed_distance<Jet<D>, D>(o, q);
              if (again.v < margin) p += (margin - again.v) * again.g.normalized();
            }
            x.segment<D>(i * D) = p;
            ++contacts;
          }
        }
        return contacts;
      },
      [](int a, int b) { return a + b; });
}

template int ObstacleCollisions::project_in<2>(VecX&, const VecX&, const std::vector<double>&, double, double, double,
                                               std::vector<double>&, VecX&) const;
template int ObstacleCollisions::project_in<3>(VecX&, const VecX&, const std::vector<double>&, double, double, double,
                                               std::vector<double>&, VecX&) const;

}  // namespace softsim
