#pragma once
// Optimized cubature (An, Kim & James 2008; Li & Jiang 2025, ch. 26): a few elements T with
// non-negative weights such that sum_{e in T} w_e f_e(q) approximates the reduced force
// sum_e f_e(q) = U^T f(x0 + U q) over training poses q. Elements are chosen greedily (the one
// whose contribution best matches the residual, among a sample of candidates), and after each
// choice the weights of all chosen ones are refitted by non-negative least squares.
#include <functional>
#include <vector>

#include "softsim/core/types.hpp"

namespace softsim {

struct Cubature {
  std::vector<int> elements;  // chosen element ids, in the order chosen
  std::vector<double> weights;  // one per chosen element, > 0
  double relative_error = 1.0;  // ||sum w_e f_e - f|| / ||f|| over the training rows
  int num_elements = 0;       // of the mesh it was fitted on (element ids are below it)
};

struct CubatureOptions {
  int max_elements = 60;        // T at most
  double tolerance = 0.01;      // stop when the relative training error is below this
  int candidates = 1000;        // elements scored per choice (all when there are fewer)
  unsigned seed = 1;            // of the candidate samples: the fit is deterministic
};

// column(e, out): element e's contribution over every training row (out has target.size()
// entries); target: the sum of all elements' columns.
Cubature fit_cubature(int num_elements, const std::function<void(int, VecX&)>& column, const VecX& target,
                      const CubatureOptions& options = {});

}  // namespace softsim
