// The PSD projections of contact stencil Hessians, in one place for every contact term (their
// fixed-size eigensolvers are compiled once, in core/psd_projection*.cpp).
#include <type_traits>

#include "softsim/contact/stencil/stencil_assembly.hpp"
#include "softsim/core/psd_projection.hpp"

namespace softsim {

// Projects the used block of the term's Hessian to positive semi-definite.
void project_stencil_hessian(ContactStencilTerm& t, int num_coordinates) {
  // Fixed sizes for the stencils there are (2D: 4, 6; 3D: 6, 9, 12): no allocation per term.
  auto project_block = [&](auto size) {
    constexpr int n = decltype(size)::value;
    Eigen::Matrix<double, n, n> h = t.hess.template topLeftCorner<n, n>();
    project_psd(h);
    t.hess.template topLeftCorner<n, n>() = h;
  };
  switch (num_coordinates) {
    case 12: project_psd(t.hess); break;
    case 9: project_block(std::integral_constant<int, 9>()); break;
    case 6: project_block(std::integral_constant<int, 6>()); break;
    case 4: project_block(std::integral_constant<int, 4>()); break;
    default: {
      PsdMatrixUpTo12 h = t.hess.topLeftCorner(num_coordinates, num_coordinates);
      project_psd(h);
      t.hess.topLeftCorner(num_coordinates, num_coordinates) = h;
    }
  }
}

// project_stencil_hessian for a term that depends only on the differences of its vertices'
// positions (IPC's barrier of a distance between primitives): the projection on the motions
// that are not a common translation (project_psd_translation_invariant), a smaller eigenproblem.
void project_relative_stencil_hessian(ContactStencilTerm& t, int num_vertices, int dim) {
  auto project_block = [&](auto vertices, auto space_dim) {
    constexpr int k = decltype(vertices)::value, d = decltype(space_dim)::value, n = k * d;
    Eigen::Matrix<double, n, n> h = t.hess.template topLeftCorner<n, n>();
    project_psd_translation_invariant<k, d>(h);
    t.hess.template topLeftCorner<n, n>() = h;
  };
  using I2 = std::integral_constant<int, 2>;
  using I3 = std::integral_constant<int, 3>;
  using I4 = std::integral_constant<int, 4>;
  if (dim == 3 && num_vertices == 4) project_block(I4(), I3());
  else if (dim == 3 && num_vertices == 3) project_block(I3(), I3());
  else if (dim == 3 && num_vertices == 2) project_block(I2(), I3());
  else if (dim == 2 && num_vertices == 3) project_block(I3(), I2());
  else if (dim == 2 && num_vertices == 2) project_block(I2(), I2());
  else project_stencil_hessian(t, num_vertices * dim);
}

}  // namespace softsim
