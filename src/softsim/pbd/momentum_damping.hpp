#pragma once
// Damping that keeps a body's linear and angular momentum (Li & Jiang 2025, Method 32.5.1;
// Müller et al. 2007, "Position Based Dynamics", §3.5): each vertex's deviation from the body's
// rigid motion, dv_i = v_cm + omega x r_i - v_i, is reduced by the fraction k (1: the body moves
// rigidly). In 2D omega is a scalar about the out-of-plane axis.
#include <vector>

#include "softsim/core/types.hpp"

namespace softsim {

// Damps the velocities of the vertices [first, first + count) (dim-major rows of v and x);
// vertices of mass 0 (prescribed) are left alone and do not count.
void damp_relative_motion(VecX& v, const VecX& x, const std::vector<double>& mass, int dim, int first, int count,
                          double k);

}  // namespace softsim
