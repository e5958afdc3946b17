#pragma once
// One body's vertex positions (or velocities) out of the model's stacked vector.
#include "softsim/model/model.hpp"

namespace softsim::test {

// Vertex rows [first, first + n) of body b.
inline Eigen::MatrixXd body_rows(const Model& model, const VecX& x, int b) {
  const Body& body = model.bodies[b];
  return as_rows(x, model.dim()).middleRows(body.first_vertex, body.mesh.num_vertices());
}

}  // namespace softsim::test
