#pragma once
// Mass of linear simplex elements from density (Li & Jiang 2025, §19.2): consistent
// M_ab = rho V (1 + delta_ab) / ((D+1)(D+2)), lumped (row sums) rho V / (D+1) per vertex.
#include "softsim/model/model.hpp"

namespace softsim {

// elements: global vertex ids; volumes: rest measure per element.
void add_simplex_mass(Model& model, const MatXi& elements, const std::vector<double>& volumes, double density,
                      bool lumped);
// The elements' total mass rho sum V split evenly over the vertices they use (the companion code
// of Li & Jiang 2025 gives every node of its squares rho L^2 / (n + 1)^2, Implementation 4.5.1).
void add_uniform_mass(Model& model, const MatXi& elements, const std::vector<double>& volumes, double density);

}  // namespace softsim
