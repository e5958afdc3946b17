#include "softsim/subspace/mass_pca.hpp"

#include <Eigen/Eigenvalues>
#include <stdexcept>

namespace softsim {

MassPca mass_pca(const MatX& snapshots, const SparseMat& M, int size, double relative_cutoff) {
  if (snapshots.cols() == 0 || size < 1) throw std::invalid_argument("mass_pca: no snapshots or no size");
  const MatX MS = M * snapshots;
  MatX C = snapshots.transpose() * MS;
  C = 0.5 * (C + C.transpose());
  const Eigen::SelfAdjointEigenSolver<MatX> eig(C);
  const VecX& mu = eig.eigenvalues();  // ascending
  const Eigen::Index k = mu.size();
  if (!(mu[k - 1] > 0.0)) throw std::invalid_argument("mass_pca: the snapshots have no mass-weighted content");
  int r = 0;
  while (r < size && r < k && mu[k - 1 - r] > relative_cutoff * mu[k - 1]) ++r;
  MassPca out;
  out.basis.resize(snapshots.rows(), r);
  out.energy.resize(r);
  for (int j = 0; j < r; ++j) {
    const Eigen::Index c = k - 1 - j;
    out.energy[j] = mu[c];
    out.basis.col(j) = snapshots * eig.eigenvectors().col(c) / std::sqrt(mu[c]);
  }
  // One Gram-Schmidt pass in the M inner product: the eigenvectors of C are orthogonal to
  // round-off relative to mu_1, which is not enough for the weakest directions kept.
  for (int j = 0; j < r; ++j) {
    for (int i = 0; i < j; ++i) out.basis.col(j) -= out.basis.col(i).dot(M * out.basis.col(j)) * out.basis.col(i);
    out.basis.col(j) /= std::sqrt(out.basis.col(j).dot(M * out.basis.col(j)));
  }
  return out;
}

}  // namespace softsim
