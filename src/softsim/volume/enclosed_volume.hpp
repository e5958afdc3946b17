#pragma once
// Volume enclosed by a closed, consistently oriented triangle surface, by the divergence theorem
// (Larionov et al. 2022, §3.4, "the volume of a watertight triangle mesh"):
//   V = sum_f y0 . (y1 x y2) / 6,   y_i = x_i - c,
// positive for outward-oriented faces. On a closed surface the sum does not depend on the point
// c, nor do its derivatives; a c near the surface only keeps the sum well conditioned. The
// region occupied by a set of tetrahedra is the volume enclosed by their boundary faces.
// Per triangle, V_f is trilinear in (y0, y1, y2): its Hessian has zero diagonal blocks and
// skew off-diagonal blocks (d2V_f / dy0 dy1 = -[y2]_x / 6, cyclically), so it is indefinite.
#include "softsim/core/types.hpp"

namespace softsim {

using Vec9 = Eigen::Matrix<double, 9, 1>;
using Mat9 = Eigen::Matrix<double, 9, 9>;

double triangle_volume(const Vec3& y0, const Vec3& y1, const Vec3& y2);
// dV_f / d(y0, y1, y2), stacked.
Vec9 triangle_volume_gradient(const Vec3& y0, const Vec3& y1, const Vec3& y2);
Mat9 triangle_volume_hessian(const Vec3& y0, const Vec3& y1, const Vec3& y2);
// (d2V_f) p without forming the 9 x 9 matrix: the derivative of the gradient along p.
Vec9 triangle_volume_hessian_times(const Vec3& y0, const Vec3& y1, const Vec3& y2, const Vec9& p);

// V of the faces (rows of vertex ids into x, stacked 3D positions) about the point c.
double enclosed_volume(const Eigen::MatrixXi& faces, const VecX& x, const Vec3& c = Vec3::Zero());

}  // namespace softsim
