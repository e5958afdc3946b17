#pragma once
// Barrier functions of a squared distance (IPC, Li et al. 2020, eq. 6;
// Li & Jiang 2025, eqs. 7.2.3-7.2.5), with first and second derivatives.
//  - original IPC, on the squared distance s = d^2 and shat = dhat^2:
//      b(s) = -(s - shat)^2 ln(s / shat) for 0 < s < shat, else 0  (kappa multiplies it outside)
//      b'(s) = -2 (s - shat) ln(s/shat) - (s - shat)^2 / s
//      b''(s) = -2 ln(s/shat) - 4 (s - shat)/s + (s - shat)^2 / s^2
//    C2 at shat.
//  - the variant of Li & Jiang 2025 (eq. 7.2.3), on the unsquared distance d:
//      b(d) = (kappa/2)(d/dhat - 1) ln(d/dhat) for 0 < d < dhat, else 0
//      b'(d) = (kappa/2)[ln(d/dhat)/dhat + (d/dhat - 1)/d],  b''(d) = kappa (d + dhat)/(2 d^2 dhat)
//    only C1 at dhat.
//  - the 2D self-contact barrier of Li & Jiang 2025 (Implementation 21.3.1), on s with r = s/shat:
//      b(s) = (kappa/8)(r - 1) ln r for s < shat (the companion code also weights each
//      point-edge pair by A_p dhat / 2, A_p the point's contact area: IpcOptions::point_weights)
//      b'(s) = (kappa/8)(ln r / shat + (r - 1)/s),  b''(s) = (kappa/8)(s + shat)/(s^2 shat)
// barrier_of_squared_distance() gives either one as a function of s = d^2 (the contact distances
// are squared), by the chain rule with d = sqrt(s) for the form of Li & Jiang 2025.
#include "softsim/contact/distance/derivatives.hpp"
#include "softsim/core/enum_names.hpp"

namespace softsim {

enum class BarrierForm { ipc_squared, book_unsquared, book_squared };
template <>
struct EnumNames<BarrierForm> {  // the scene's contact.barrier
  static constexpr std::pair<BarrierForm, const char*> table[] = {{BarrierForm::ipc_squared, "ipc"},
                                                                  {BarrierForm::book_unsquared, "book"},
                                                                  {BarrierForm::book_squared, "book_squared"}};
};

double ipc_barrier(double s, double shat);
double ipc_barrier_first_derivative(double s, double shat);
double ipc_barrier_second_derivative(double s, double shat);

double book_barrier(double d, double dhat, double kappa);
double book_barrier_first_derivative(double d, double dhat, double kappa);
double book_barrier_second_derivative(double d, double dhat, double kappa);

// b, db/ds, d2b/ds2 of a barrier as a function of the squared distance s, including kappa
// (kappa * ipc_barrier(s, dhat^2), or book_barrier(sqrt(s), dhat, kappa)).
struct BarrierValue {
  double value = 0, first = 0, second = 0;
};
BarrierValue barrier_of_squared_distance(BarrierForm form, double s, double dhat, double kappa);

// Chain rule onto a stencil: E = b(s(x)), grad E = b' grad s, Hess E = b'' grad s grad s^T + b' Hess s
// (Li & Jiang 2025, eqs. 7.2.4-7.2.5). No PSD projection here.
template <int N>
DistanceDerivatives<N> compose_barrier(const BarrierValue& b, const DistanceDerivatives<N>& s) {
  DistanceDerivatives<N> r;
  r.value = b.value;
  r.grad = b.first * s.grad;
  r.hess = b.second * (s.grad * s.grad.transpose()) + b.first * s.hess;
  return r;
}

}  // namespace softsim
