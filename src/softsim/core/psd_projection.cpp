// The fixed-size PSD projections, instantiated once for every file that includes the header.
#include "softsim/core/psd_projection.hpp"

namespace softsim {

template void project_psd(Eigen::MatrixBase<Eigen::Matrix<double, 4, 4>>&);
template void project_psd(Eigen::MatrixBase<Eigen::Matrix<double, 6, 6>>&);
template void project_psd(Eigen::MatrixBase<Eigen::Matrix<double, 9, 9>>&);
template void project_psd(Eigen::MatrixBase<Eigen::Matrix<double, 12, 12>>&);
template void project_psd(Eigen::MatrixBase<PsdMatrixUpTo12>&);
template void project_psd(Eigen::MatrixBase<Eigen::MatrixXd>&);

}  // namespace softsim
