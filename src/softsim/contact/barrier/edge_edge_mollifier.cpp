#include "softsim/contact/barrier/edge_edge_mollifier.hpp"

#include "softsim/contact/distance/cross_product_forms.hpp"
#include "softsim/contact/distance/edge_edge.hpp"
#include "softsim/contact/distance/generic_vector.hpp"

namespace softsim {

using namespace contact_detail;

double edge_edge_mollifier_threshold(const Eigen::Vector3d& ea0_rest, const Eigen::Vector3d& ea1_rest,
                                     const Eigen::Vector3d& eb0_rest, const Eigen::Vector3d& eb1_rest) {
  return 1e-3 * (ea1_rest - ea0_rest).squaredNorm() * (eb1_rest - eb0_rest).squaredNorm();
}

double mollifier(double c, double eps_x) {
  if (c >= eps_x) return 1;
  const double r = c / eps_x;
  return (2 - r) * r;
}
double mollifier_first_derivative(double c, double eps_x) {
  if (c >= eps_x) return 0;
  return 2 * (eps_x - c) / (eps_x * eps_x);
}
double mollifier_second_derivative(double c, double eps_x) {
  if (c >= eps_x) return 0;
  return -2 / (eps_x * eps_x);
}

DistanceDerivatives<12> edge_edge_cross_squared_norm(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1,
                                                     const Eigen::Vector3d& eb0, const Eigen::Vector3d& eb1) {
  // Stencil (ea0, ea1, eb0, eb1): u = ea1 - ea0, v = eb1 - eb0.
  return pull_back<4, 2>(cross_squared_norm(ea1 - ea0, eb1 - eb0), {1, 3}, {0, 2});
}

double edge_edge_mollifier_value(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1, const Eigen::Vector3d& eb0,
                                 const Eigen::Vector3d& eb1, double eps_x) {
  const Eigen::Vector3d n = cross<double>(ea1 - ea0, eb1 - eb0);
  return mollifier(dot<double, 3>(n, n), eps_x);
}

DistanceDerivatives<12> edge_edge_mollifier(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1,
                                            const Eigen::Vector3d& eb0, const Eigen::Vector3d& eb1, double eps_x) {
  const DistanceDerivatives<12> c = edge_edge_cross_squared_norm(ea0, ea1, eb0, eb1);
  DistanceDerivatives<12> m;
  m.value = mollifier(c.value, eps_x);
  if (c.value >= eps_x) return m;  // m = 1, derivatives 0
  const double m1 = mollifier_first_derivative(c.value, eps_x), m2 = mollifier_second_derivative(c.value, eps_x);
  m.grad = m1 * c.grad;
  m.hess = m2 * (c.grad * c.grad.transpose()) + m1 * c.hess;
  return m;
}

DistanceDerivatives<12> mollified_edge_edge_barrier(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1,
                                                    const Eigen::Vector3d& eb0, const Eigen::Vector3d& eb1,
                                                    double eps_x, BarrierForm form, double dhat, double kappa) {
  const DistanceDerivatives<12> d = edge_edge_distance(ea0, ea1, eb0, eb1);
  const DistanceDerivatives<12> b = compose_barrier(barrier_of_squared_distance(form, d.value, dhat, kappa), d);
  const DistanceDerivatives<12> m = edge_edge_mollifier(ea0, ea1, eb0, eb1, eps_x);
  DistanceDerivatives<12> r;
  r.value = m.value * b.value;
  r.grad = m.value * b.grad + b.value * m.grad;
  r.hess = m.value * b.hess + m.grad * b.grad.transpose() + b.grad * m.grad.transpose() + b.value * m.hess;
  return r;
}

}  // namespace softsim
