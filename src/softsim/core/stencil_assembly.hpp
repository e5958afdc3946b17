#pragma once
// Evaluates a per-stencil energy over one stencil set and scatters value, gradient and Hessian
// into global storage. The local function computes one stencil:
//   double local(int e, Eigen::Matrix<double, N, 1>* grad, Eigen::Matrix<double, N, N>* hess)
// (N = k * dim local DOFs, vertex-major). Stencils are processed colour by colour, in parallel
// within a colour, so writes never race and sums are deterministic.
#include <array>
#include <vector>

#include "softsim/core/hessian_layout.hpp"
#include "softsim/core/parallel.hpp"
#include "softsim/core/types.hpp"

namespace softsim {

struct AssemblyOutputs {
  VecX* gradient = nullptr;   // accumulated: gradient += weight * dE/dx
  SparseMat* hessian = nullptr;  // accumulated: values += weight * d2E/dx2 (pattern of the layout)
  double weight = 1.0;
  bool project_psd = false;   // per-stencil projection to positive semi-definite
  // Terms whose stencils change between evaluations (contact pairs) append weighted Hessian
  // entries here instead of writing into the fixed pattern; null when no Hessian is wanted.
  std::vector<Triplet>* dynamic_hessian = nullptr;
};

template <int K, int D, class LocalFn>
double assemble_stencils(const HessianLayout& layout, int set, const AssemblyOutputs& out, LocalFn&& local) {
  constexpr int N = K * D;
  using LocalVec = Eigen::Matrix<double, N, 1>;
  using LocalMat = Eigen::Matrix<double, N, N>;
  const MatXi& stencils = layout.stencils(set);
  // Each stencil's energy, summed in stencil order afterwards (the same bits for any colouring
  // and thread count). A small set keeps them on the stack: no allocation per evaluation.
  constexpr Eigen::Index kStackStencils = 512;
  std::array<double, kStackStencils> stack_energies;
  std::vector<double> heap_energies;
  if (stencils.rows() > kStackStencils) heap_energies.resize(stencils.rows());
  double* energies = stencils.rows() > kStackStencils ? heap_energies.data() : stack_energies.data();
  double* values = out.hessian ? out.hessian->valuePtr() : nullptr;
  for (const auto& color : layout.colors(set)) {
    parallel_for(color.size(), [&](std::size_t i) {
      const int e = color[i];
      LocalVec g;
      LocalMat H;
      g.setZero();
      H.setZero();
      energies[e] = local(e, out.gradient ? &g : nullptr, out.hessian ? &H : nullptr);
      if (out.gradient) {
        for (int a = 0; a < K; ++a)
          out.gradient->template segment<D>(stencils(e, a) * D) += out.weight * g.template segment<D>(a * D);
      }
      if (values) {
        const int* starts = layout.block_starts(set, e);
        for (int a = 0; a < K; ++a)
          for (int b = 0; b < K; ++b)
            for (int s = 0; s < D; ++s) {
              double* dst = values + starts[(a * K + b) * D + s];
              for (int r = 0; r < D; ++r) dst[r] += out.weight * H(a * D + r, b * D + s);
            }
      }
    });
  }
  double total = 0.0;
  for (Eigen::Index e = 0; e < stencils.rows(); ++e) total += energies[e];
  return out.weight * total;
}

}  // namespace softsim
