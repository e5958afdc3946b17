#include "softsim/subspace/affine_body.hpp"

#include <Eigen/Dense>
#include <stdexcept>

namespace softsim {

MatX affine_weights(const MatX& rest, const VecX& centre) {
  MatX W(rest.rows(), rest.cols() + 1);
  W.col(0).setOnes();
  W.rightCols(rest.cols()) = rest.rowwise() - centre.transpose();
  return W;
}

std::vector<int> affine_frame_vertices(const MatX& rest) {
  const int n = static_cast<int>(rest.rows()), dim = static_cast<int>(rest.cols());
  if (n < dim + 1) throw std::invalid_argument("an affine body needs at least dim + 1 vertices");
  const Eigen::RowVectorXd centroid = rest.colwise().mean();
  std::vector<int> frame;
  // Distance of every vertex from the affine hull of the frame so far (from the centroid while
  // the frame is empty): the residual of its projection onto the frame's directions.
  for (int k = 0; k <= dim; ++k) {
    MatX directions(dim, 0);
    if (k > 1) {
      directions.resize(dim, k - 1);
      for (int j = 1; j < k; ++j) directions.col(j - 1) = (rest.row(frame[j]) - rest.row(frame[0])).transpose();
    }
    Eigen::HouseholderQR<MatX> qr(directions);
    const MatX Q = k > 1 ? MatX(qr.householderQ() * MatX::Identity(dim, k - 1)) : MatX(dim, 0);
    int best = -1;
    double best_distance = -1.0;
    for (int i = 0; i < n; ++i) {
      VecX r = (rest.row(i) - (k == 0 ? centroid : Eigen::RowVectorXd(rest.row(frame[0])))).transpose();
      if (Q.cols() > 0) r -= Q * (Q.transpose() * r);
      const double distance = r.norm();
      if (distance > best_distance) {
        best_distance = distance;
        best = i;
      }
    }
    frame.push_back(best);
  }
  MatX edges(dim, dim);
  for (int j = 1; j <= dim; ++j) edges.col(j - 1) = (rest.row(frame[j]) - rest.row(frame[0])).transpose();
  const Eigen::JacobiSVD<MatX> svd(edges);
  if (svd.singularValues()(dim - 1) <= 1e-12 * svd.singularValues()(0))
    throw std::invalid_argument("an affine body's vertices lie in a lower-dimensional set");
  return frame;
}

}  // namespace softsim
