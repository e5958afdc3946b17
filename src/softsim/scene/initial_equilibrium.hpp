#pragma once
// bodies[i].initial_equilibrium: start a body at rest in the equilibrium of its own forces
// (elasticity and volume penalties, under its fixed and slip conditions) instead of in its rest
// shape. A pressurised ball (an ideal gas above 1 atm in its cavity) is not in equilibrium in its
// stress-free shape; released from there it would ring in its breathing mode for the whole run.
#include "softsim/scene/scene.hpp"

namespace softsim {

// The body's positions (n x dim, rows = vertices of its mesh after transform and initial_scale)
// at the equilibrium of its internal forces: no gravity, loads, tractions, contact or obstacles.
// Found by proximal-point iterations x_{k+1} = argmin 1/2 |x - x_k|_M^2 + H^2 P(x), i.e.
// backward Euler steps of H = 1 s restarted from rest: the mass term fixes the rigid motions
// (internal forces have zero net force and torque, so the centre of mass does not move) and is
// negligible against the stiffness of every deformation mode. Throws InputError naming the key if
// the iterations do not settle (a body that buckles or collapses under its own forces).
Eigen::MatrixXd initial_equilibrium(const Scene& scene, const BodySpec& body);

}  // namespace softsim
