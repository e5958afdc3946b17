// The projections on the motions that are not a common translation, for every stencil shape
// (points of 2D and 3D contact pairs, an affine body's frame), instantiated once.
#include "softsim/core/psd_projection.hpp"

namespace softsim {

template void project_psd_translation_invariant<2, 2>(Eigen::Matrix<double, 4, 4>&);
template void project_psd_translation_invariant<3, 2>(Eigen::Matrix<double, 6, 6>&);
template void project_psd_translation_invariant<2, 3>(Eigen::Matrix<double, 6, 6>&);
template void project_psd_translation_invariant<3, 3>(Eigen::Matrix<double, 9, 9>&);
template void project_psd_translation_invariant<4, 3>(Eigen::Matrix<double, 12, 12>&);

}  // namespace softsim
