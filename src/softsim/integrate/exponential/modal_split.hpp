#pragma once
// The additive split F = H + G of the exponential methods (Ascher et al. 2022, eqs. 19 and 24-26):
// G is F's M-orthogonal projection onto the modal subspace X (n x s, X^T M X = I),
//   G(u) = (X X^T M v, X X^T f),  H = F - G,
// so that J_G = diag(P, P) J and J_H = diag(Q, Q) J with P = X X^T M and Q = I - P. This holds
// for any M-orthonormal X, fresh or stale modes alike; J_G maps the subspace into itself, with
// the reduced matrix J_G^r = [[0, I], [-X^T K X, -X^T D X]] (eq. 25b).
//
// Two operations:
//  - subspace_ere: tau phi_1(tau J_G) G(u) = diag(X, X) tau phi_1(tau J_G^r) G^r(u) (eq. 25a, the
//    2s x 2s matrix function evaluated densely);
//  - solve: (I - c J_H) du = r. In the (q, v) structure (so that the system stays of size n):
//      dq = r_q + c Q dv,  (M + c Q^T D + c^2 Q^T K Q) dv = M r_v - c Q^T K r_q,
//    and M + c Q^T D + c^2 Q^T K Q = A + Y Z^T with the sparse A = M + c D + c^2 K and a rank-2s
//    correction (eq. 26): U = M X, W = K X, S = X^T K X,
//      Y = [U, W],  Z = [-c D X - c^2 W + c^2 U S, -c^2 U],
//    solved by Sherman-Morrison-Woodbury on A's factorization with the direct solvers: 2s extra
//    solves per factorization and a 2s x 2s dense system. With the iterative solvers the
//    corrected operator is applied matrix-free, (A + Y Z^T) x = A x + Y (Z^T x) (Ascher et al.
//    2022, sec. 3.5.2), by Jacobi-scaled BiCGSTAB (it is not symmetric) started from the
//    preconditioned solve with A. With s = 0 this is the semi-implicit (SI) step of eq. 6.
#include <Eigen/LU>
#include <chrono>
#include <memory>

#include "softsim/integrate/exponential/second_order_system.hpp"
#include "softsim/solve/linear_solver.hpp"

namespace softsim {

// Time spent in the parts of a split solve (ms), for the cost table of docs/integrators.md.
struct SplitCosts {
  double factorization_ms = 0.0;  // A = M + c D + c^2 K assembled and factorized
  double smw_ms = 0.0;            // A^-1 Y and the 2s x 2s capacitance matrix, and their use per solve
                                  // (iterative solvers: the matrix-free BiCGSTAB correction)
  int correction_iterations = 0;  // iterative solvers: BiCGSTAB iterations on the corrected operator
  double solve_ms = 0.0;          // the sparse solves with A of the right-hand sides
  double subspace_ms = 0.0;       // the reduced ERE product
};

class ModalSplit {
 public:
  ModalSplit(const SecondOrderSystem& system, const std::string& linear_solver);

  // Linearises at K (PSD-projected stiffness at the current point) in the basis X (may have 0
  // columns) for systems with the coefficient c; factorizes A. Returns false when A cannot be
  // factorized.
  bool prepare(const SparseMat& K, const MatX& X, double c);

  // G(u)'s reduced coordinates (X^T M v, X^T f) and the lifted tau phi_1(tau J_G^r) G^r.
  void subspace_ere(double tau, const VecX& v, const VecX& f, VecX& e_q, VecX& e_v);
  // H(u) = F(u) - G(u) given v and f (masked) and a = M^-1 f.
  void h_part(const VecX& v, const VecX& f, const VecX& a, VecX& h_q, VecX& h_v) const;
  // (w_q, w_v) <- (Q w_q, Q w_v): the part outside the subspace (masked vectors).
  void complement(VecX& w_q, VecX& w_v) const;
  // (I - c J_H) (dq, dv) = (r_q, r_v) for the prepared K, X, c.
  bool solve(const VecX& r_q, const VecX& r_v, VecX& dq, VecX& dv);

  SplitCosts costs;  // accumulated since construction

 private:
  const SecondOrderSystem& system_;
  std::unique_ptr<LinearSolver> solver_;
  const SparseMat* K_ = nullptr;
  MatX X_, U_, Y_, AY_, Z_;
  MatX reduced_jacobian_;  // J_G^r = [[0, I], [-X^T K X, -X^T D X]] (eq. 25b)
  SparseMat A_;            // the reduced M + c D + c^2 K (also for the matrix-free products)
  VecX inverse_diagonal_;  // iterative solvers: the Jacobi scaling of the corrected operator
  Eigen::PartialPivLU<MatX> capacitance_;
  double c_ = 0.0;
};

}  // namespace softsim
