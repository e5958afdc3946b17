#pragma once
// IPC barrier between every vertex and a half-space obstacle (the book, ch. 7-8):
//   P_b = sum_i w_i b(d_i),  b(d) = (kappa/2)(d/dhat - 1) ln(d/dhat) for d < dhat, else 0,
// with d_i = n . (x_i - o) and w_i = A_i dhat (A_i the vertex's contact area). Its step filter is
// the book's ground CCD: alpha <= 0.9 d_i / (-n . p_i) for vertices moving towards the plane.
#include "softsim/model/energy.hpp"

namespace softsim {

class PlaneBarrier : public Energy {
 public:
  PlaneBarrier(int dim, const VecX& point, const VecX& normal, std::vector<double> vertex_weights, double dhat,
               double kappa);
  std::string name() const override { return "plane_barrier"; }
  double evaluate(const VecX& x, const AssemblyOutputs& out) const override;
  double max_step_fraction(const VecX& x, const VecX& p) const override;
  // Smallest signed distance of any vertex to the plane.
  double min_distance(const VecX& x) const;

 private:
  int dim_;
  VecX point_, normal_;
  std::vector<double> weights_;
  double dhat_, kappa_;
  const HessianLayout* layout_ = nullptr;
  void declare_stencils(HessianLayout& layout) override { layout_ = &layout; }
};

}  // namespace softsim
