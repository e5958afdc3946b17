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
#include "softsim/core/sparsity_pattern.hpp"
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

// Outputs for one evaluation, in storage the caller keeps between evaluations: the gradient set
// to `size` zeros and the Hessian to `pattern` with zero values (its storage reused while the
// pattern is the same), each only when asked for (null otherwise); the contact entries cleared.
inline AssemblyOutputs zeroed_outputs(VecX* gradient, SparseMat* hessian, std::vector<Triplet>& dynamic,
                                      Eigen::Index size, const SparseMat& pattern, double weight, bool project_psd) {
  if (gradient) gradient->setZero(size);
  if (hessian) {
    if (!same_sparsity_pattern(*hessian, pattern)) *hessian = pattern;
    std::fill(hessian->valuePtr(), hessian->valuePtr() + hessian->nonZeros(), 0.0);
  }
  dynamic.clear();
  return {gradient, hessian, weight, project_psd, hessian ? &dynamic : nullptr};
}

// The loop every stencil assembly shares: one stencil set, colour by colour, in parallel within
// a colour; per_stencil(e) evaluates stencil e, scatters it (no two stencils of a colour share a
// vertex, so the scatters never race) and returns its energy. The energies are summed in stencil
// order afterwards (the same bits for any colouring and thread count). A small set keeps them on
// the stack: no allocation per evaluation.
template <class PerStencil>
double for_each_stencil_summed(const HessianLayout& layout, int set, PerStencil&& per_stencil) {
  const Eigen::Index count = layout.stencils(set).rows();
  constexpr Eigen::Index kStackStencils = 512;
  std::array<double, kStackStencils> stack_energies;
  std::vector<double> heap_energies;
  if (count > kStackStencils) heap_energies.resize(count);
  double* energies = count > kStackStencils ? heap_energies.data() : stack_energies.data();
  for (const auto& color : layout.colors(set))
    parallel_for(color.size(), [&](std::size_t i) {
      const int e = color[i];
      energies[e] = per_stencil(e);
    });
  double total = 0.0;
  for (Eigen::Index e = 0; e < count; ++e) total += energies[e];
  return total;
}

template <int K, int D, class LocalFn>
double assemble_stencils(const HessianLayout& layout, int set, const AssemblyOutputs& out, LocalFn&& local) {
  constexpr int N = K * D;
  using LocalVec = Eigen::Matrix<double, N, 1>;
  using LocalMat = Eigen::Matrix<double, N, N>;
  // The weight and the pointers in locals: read through `out`, they were loaded again after every
  // store into the gradient or the Hessian (see assemble_difference_stencils).
  const MatXi& stencils = layout.stencils(set);
  const int* const vertices = stencils.data();
  const Eigen::Index rows = stencils.rows();
  double* const values = out.hessian ? out.hessian->valuePtr() : nullptr;
  double* const gradient = out.gradient ? out.gradient->data() : nullptr;
  const int* const starts_base = layout.block_starts(set);
  const double w = out.weight;
  return w * for_each_stencil_summed(layout, set, [&, vertices, rows, values, gradient, starts_base, w](int e) {
    LocalVec g;
    LocalMat H;
    g.setZero();
    H.setZero();
    const double energy = local(e, gradient ? &g : nullptr, values ? &H : nullptr);
    if (gradient) {
      for (int a = 0; a < K; ++a) {
        double* const dst = gradient + vertices[a * rows + e] * D;
        for (int r = 0; r < D; ++r) dst[r] += w * g[a * D + r];
      }
    }
    if (values) {
      const int* const starts = starts_base + static_cast<std::size_t>(e) * K * K * D;
      for (int a = 0; a < K; ++a)
        for (int b = 0; b < K; ++b)
          for (int s = 0; s < D; ++s) {
            double* const dst = values + starts[(a * K + b) * D + s];
            for (int r = 0; r < D; ++r) dst[r] += w * H(a * D + r, b * D + s);
          }
    }
    return energy;
  });
}

// Two-vertex stencils whose energy depends on the difference d = x_a - x_b only (springs): the
// gradient is (g, -g) and the Hessian [[H, -H], [-H, H]] with g = dE/dd and H = d2E/dd2, so the
// local function computes the D-vector and the D x D block only,
//   double local(int e, VecD<D>* g, MatD<D>* H),
// and the scatter writes each entry of H four times with its sign: a quarter of the local work
// and no 2D x 2D matrix to clear and copy (a third of a spring's instructions, perf on the
// book's mass-spring square).
template <int D, class LocalFn>
double assemble_difference_stencils(const HessianLayout& layout, int set, const AssemblyOutputs& out,
                                    LocalFn&& local) {
  // What every stencil reads is copied into locals first: captured by reference, the weight and
  // the pointers were loaded again after every store into the Hessian (which the compiler could
  // not prove does not alias them).
  const MatXi& stencils = layout.stencils(set);
  const int* const first = stencils.data();
  const int* const second = stencils.data() + stencils.rows();
  double* const values = out.hessian ? out.hessian->valuePtr() : nullptr;
  double* const gradient = out.gradient ? out.gradient->data() : nullptr;
  const int* const starts_base = layout.block_starts(set);
  const double w = out.weight;
  return w * for_each_stencil_summed(layout, set, [&, first, second, values, gradient, starts_base, w](int e) {
    VecD<D> g;
    MatD<D> H;
    const double energy = local(e, gradient ? &g : nullptr, values ? &H : nullptr);
    if (gradient) {
      double* const ga = gradient + first[e] * D;
      double* const gb = gradient + second[e] * D;
      for (int r = 0; r < D; ++r) {
        const double wg = w * g[r];
        ga[r] += wg;
        gb[r] -= wg;
      }
    }
    if (values) {
      // block_starts: blocks (a, b) in the order (0, 0), (0, 1), (1, 0), (1, 1), D columns each.
      const int* const starts = starts_base + static_cast<std::size_t>(e) * 4 * D;
      for (int s = 0; s < D; ++s) {
        double* const d00 = values + starts[0 * D + s];
        double* const d01 = values + starts[1 * D + s];
        double* const d10 = values + starts[2 * D + s];
        double* const d11 = values + starts[3 * D + s];
        for (int r = 0; r < D; ++r) {
          const double h = w * H(r, s);
          d00[r] += h;
          d11[r] += h;
          d01[r] -= h;
          d10[r] -= h;
        }
      }
    }
    return energy;
  });
}

}  // namespace softsim
