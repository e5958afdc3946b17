#pragma once
// Barrier stiffness kappa: initial value and adaptive increase (IPC, Li et al. 2020, supplement
// sec. 3; the same formulas as the IPC toolkit's initial_barrier_stiffness and
// update_barrier_stiffness). Formulas for the IPC barrier b(s) on squared distances s:
//
//   kappa_min = scale * m_avg / (4 s0 b''(s0)),  s0 = (1e-8 * bbox_diag)^2, scale = 1e11
//     (s0 is clamped below shat/2 if dhat is tiny), i.e. the stiffness at which the barrier's
//     curvature in the unsquared distance at 1e-8 bbox_diag, 4 s0 b''(s0), balances scale * m_avg;
//   kappa_max = 100 kappa_min;
//   kappa = clamp(-(gE . gB)/(gB . gB), kappa_min, kappa_max)   (1 if gB == 0, then clamped)
//     gE the gradient of the incremental potential without contact, gB the gradient of the
//     unscaled barrier sum: the kappa that best balances the two gradients (least squares).
//
// Adaptive increase: double kappa (capped at kappa_max) when the minimum distance of this
// iterate and of the previous one are both below a threshold and the distance decreased:
//   threshold = 1e-9 * bbox_diag in IPC; pass e.g. a fraction of dhat for the variant of Li & Jiang 2025.
#include <Eigen/Core>

namespace softsim {

struct BarrierStiffness {
  double kappa = 1, kappa_min = 1, kappa_max = 1;
};

BarrierStiffness initial_barrier_stiffness(double bbox_diagonal, double dhat, double average_mass,
                                           const Eigen::VectorXd& grad_energy, const Eigen::VectorXd& grad_barrier,
                                           double min_stiffness_scale = 1e11);

double update_barrier_stiffness(double prev_min_distance, double min_distance, double kappa, double kappa_max,
                                double threshold);

}  // namespace softsim
