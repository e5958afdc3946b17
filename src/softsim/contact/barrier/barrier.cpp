#include "softsim/contact/barrier/barrier.hpp"

#include <cmath>

namespace softsim {

double ipc_barrier(double s, double shat) {
  if (s >= shat) return 0;
  const double r = s - shat;
  return -r * r * std::log(s / shat);
}
double ipc_barrier_first_derivative(double s, double shat) {
  if (s >= shat) return 0;
  const double r = s - shat;
  return -2 * r * std::log(s / shat) - r * r / s;
}
double ipc_barrier_second_derivative(double s, double shat) {
  if (s >= shat) return 0;
  const double r = s - shat;
  return -2 * std::log(s / shat) - 4 * r / s + r * r / (s * s);
}

double book_barrier(double d, double dhat, double kappa) {
  if (d >= dhat) return 0;
  return 0.5 * kappa * (d / dhat - 1) * std::log(d / dhat);
}
double book_barrier_first_derivative(double d, double dhat, double kappa) {
  if (d >= dhat) return 0;
  return 0.5 * kappa * (std::log(d / dhat) / dhat + (d / dhat - 1) / d);
}
double book_barrier_second_derivative(double d, double dhat, double kappa) {
  if (d >= dhat) return 0;
  return kappa * (d + dhat) / (2 * d * d * dhat);
}

BarrierValue barrier_of_squared_distance(BarrierForm form, double s, double dhat, double kappa) {
  BarrierValue b;
  if (form == BarrierForm::ipc_squared) {
    const double shat = dhat * dhat;
    b.value = kappa * ipc_barrier(s, shat);
    b.first = kappa * ipc_barrier_first_derivative(s, shat);
    b.second = kappa * ipc_barrier_second_derivative(s, shat);
  } else if (form == BarrierForm::book_squared) {
    const double shat = dhat * dhat;
    if (s >= shat) return b;
    const double r = s / shat;
    b.value = kappa / 8 * (r - 1) * std::log(r);
    b.first = kappa / 8 * (std::log(r) / shat + (r - 1) / s);
    b.second = kappa / 8 * (s + shat) / (s * s * shat);
  } else {
    // B(d) with d = sqrt(s): dB/ds = B'/(2d), d2B/ds2 = B''/(4 d^2) - B'/(4 d^3).
    const double d = std::sqrt(s);
    const double B1 = book_barrier_first_derivative(d, dhat, kappa);
    b.value = book_barrier(d, dhat, kappa);
    b.first = B1 / (2 * d);
    b.second = book_barrier_second_derivative(d, dhat, kappa) / (4 * s) - B1 / (4 * s * d);
  }
  return b;
}

}  // namespace softsim
