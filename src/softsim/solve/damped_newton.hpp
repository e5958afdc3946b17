#pragma once
// Damped Newton for r(v) = 0 (Larionov et al. 2022, Alg. 1): p_k = -J(v_k)^{-1} r(v_k) with a sparse
// (non-symmetric) LU factorization, then a backtracking line search on the merit function
// 1/2 ||r||^2 (Armijo), started at the step filters' bound. Stops when ||p||_inf / step_scale <
// tolerance or ||r||_inf <= gradient_tolerance (NewtonOptions, same meaning as projected Newton).
#include <vector>

#include "softsim/solve/linear_solver.hpp"
#include "softsim/solve/newton_options.hpp"
#include "softsim/solve/residual_problem.hpp"

namespace softsim {

// solver: a non-symmetric direct solver, e.g. make_linear_solver("lu"|"umfpack", n).
// history (optional) receives ||r(v_k)||_2 for every evaluated iterate.
NewtonResult damped_newton(ResidualProblem& problem, VecX& v, LinearSolver& solver, const NewtonOptions& options,
                           std::vector<double>* history = nullptr);

}  // namespace softsim
