#pragma once
// Small scenes that together hold every kind of energy term and force softsim builds (elasticity
// of several materials, springs, shells with bending, IPC contact with lagged and implicit
// friction, analytic obstacles, penalty contact, volume penalties, penalty-driven motion, timed
// loads, isometric bending, an affine body's orthogonality potential), each a
// few hundred DOFs, with its bodies placed inside each other's contact zones. The finite-difference
// harness (tests/model/energy_test.cpp, velocity_force_test.cpp) checks every term of them.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace softsim::test {

struct SmallScene {
  std::string name;
  nlohmann::json json;
  double perturbation;  // m: the random displacement of the evaluation point from the start state
};

nlohmann::json box(double size, int n, const nlohmann::json& at, const std::string& material = "neo_hookean");

// A 0.4 m square neo-Hookean shell (3 x 3 cells, 1 mm thick) with its corner at `at`.
nlohmann::json shell_sheet(const nlohmann::json& at);

std::vector<SmallScene> small_scenes();

}  // namespace softsim::test
