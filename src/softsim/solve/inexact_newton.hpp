#pragma once
// Inexact damped Newton for r(v) = 0 (Larionov et al. 2022, Alg. 2). The direction solves J_k p_k = -r_k
// with BiCGSTAB (van der Vorst 1992) only to ||r_k + J_k p_k|| <= sigma_k ||r_k||, with the
// Eisenstat-Walker forcing term sigma_k = min((||r_k|| / ||r_{k-1}||)^phi, sigma_max),
// phi = (1 + sqrt 5) / 2 (sigma_0 = sigma_max). The Jacobian is never assembled: J p comes from
// the problem's Jacobian operator, built once per iterate (forward mode: the terms' Hessian
// operators, the assembled Hessian of terms without one), or else from a forward directional
// finite difference of the residual, (r(v + eps p) - r(v)) / eps.
// Globalised by the same merit-function line search as damped_newton.
#include <functional>
#include <vector>

#include "softsim/solve/newton_options.hpp"
#include "softsim/solve/residual_problem.hpp"

namespace softsim {

struct InexactNewtonOptions {
  double sigma_max = 0.1;
  int max_linear_iterations = 1000;
};

NewtonResult inexact_newton(ResidualProblem& problem, VecX& v, const NewtonOptions& options,
                            const InexactNewtonOptions& inexact = {}, std::vector<double>* history = nullptr);

// Unpreconditioned BiCGSTAB for A x = b with A given as a product; x holds the initial guess.
// Returns the iterations used; *relative_residual receives ||b - A x|| / ||b||.
int bicgstab(const std::function<void(const VecX&, VecX&)>& apply, const VecX& b, VecX& x, double rel_tol,
             int max_iterations, double* relative_residual = nullptr);

}  // namespace softsim
