#pragma once
// The IPC edge-edge mollifier (Li et al. 2020, sec. 4.3, eqs. 16-17 of its mollified
// edge-edge barrier): with c = |ea x eb|^2 (ea = ea1 - ea0, eb = eb1 - eb0) and
//   eps_x = 1e-3 |ea_rest|^2 |eb_rest|^2,
//   m(c) = -c^2/eps_x^2 + 2 c/eps_x for c < eps_x, else 1,
// so m goes to 0 (C1) as the edges become parallel. The mollified edge-edge barrier term is
// m(c(x)) b(d(x)), which is C1 although the edge-edge distance is only C0 at parallel edges
// (Li & Jiang 2025, Remark 24.1.1).
#include "softsim/contact/barrier/barrier.hpp"
#include "softsim/contact/distance/derivatives.hpp"

namespace softsim {

double edge_edge_mollifier_threshold(const Eigen::Vector3d& ea0_rest, const Eigen::Vector3d& ea1_rest,
                                     const Eigen::Vector3d& eb0_rest, const Eigen::Vector3d& eb1_rest);

// m(c) and its derivatives in c.
double mollifier(double c, double eps_x);
// m(|ea x eb|^2) alone, for value-only evaluations (the same arithmetic as edge_edge_mollifier's value).
double edge_edge_mollifier_value(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1, const Eigen::Vector3d& eb0,
                                 const Eigen::Vector3d& eb1, double eps_x);
double mollifier_first_derivative(double c, double eps_x);
double mollifier_second_derivative(double c, double eps_x);

// c = |ea x eb|^2 with gradient and Hessian on the stencil (ea0, ea1, eb0, eb1).
DistanceDerivatives<12> edge_edge_cross_squared_norm(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1,
                                                     const Eigen::Vector3d& eb0, const Eigen::Vector3d& eb1);

// m(c(x)) with gradient and Hessian on the stencil.
DistanceDerivatives<12> edge_edge_mollifier(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1,
                                            const Eigen::Vector3d& eb0, const Eigen::Vector3d& eb1, double eps_x);

// E = m(c(x)) b(d^2(x)) on the stencil, d^2 the classified edge-edge squared distance:
// grad E = m grad b + b grad m, Hess E = m Hess b + grad m grad b^T + grad b grad m^T + b Hess m.
DistanceDerivatives<12> mollified_edge_edge_barrier(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1,
                                                    const Eigen::Vector3d& eb0, const Eigen::Vector3d& eb1,
                                                    double eps_x, BarrierForm form, double dhat, double kappa);

}  // namespace softsim
