#include "softsim/contact/barrier/stiffness.hpp"

#include <algorithm>

#include "softsim/contact/barrier/barrier.hpp"

namespace softsim {

BarrierStiffness initial_barrier_stiffness(double bbox_diagonal, double dhat, double average_mass,
                                           const Eigen::VectorXd& grad_energy, const Eigen::VectorXd& grad_barrier,
                                           double min_stiffness_scale) {
  const double shat = dhat * dhat;
  double s0 = 1e-8 * bbox_diagonal;
  s0 *= s0;
  if (s0 >= shat) s0 = 0.5 * shat;  // the reference distance must lie inside the barrier's support
  BarrierStiffness k;
  k.kappa_min = min_stiffness_scale * average_mass / (4 * s0 * ipc_barrier_second_derivative(s0, shat));
  k.kappa_max = 100 * k.kappa_min;
  double kappa = 1;
  const double gb2 = grad_barrier.squaredNorm();
  if (gb2 > 0) kappa = -grad_barrier.dot(grad_energy) / gb2;
  k.kappa = std::clamp(kappa, k.kappa_min, k.kappa_max);
  return k;
}

double update_barrier_stiffness(double prev_min_distance, double min_distance, double kappa, double kappa_max,
                                double threshold) {
  if (prev_min_distance < threshold && min_distance < threshold && min_distance < prev_min_distance)
    return std::min(kappa_max, 2 * kappa);
  return kappa;
}

}  // namespace softsim
