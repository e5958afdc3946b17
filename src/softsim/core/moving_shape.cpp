#include "softsim/core/moving_shape.hpp"

#include <cmath>

namespace softsim {

template <int D>
double MovingShape<D>::signed_distance(const VecD<D>& x, double t, VecD<D>& outward) const {
  const VecD<D> c = point + t * velocity;
  switch (shape) {
    case Shape::plane:
      outward = normal.normalized();
      return outward.dot(x - c);
    case Shape::sphere: {
      const VecD<D> r = x - c;
      const double len = r.norm();
      outward = len > 0.0 ? VecD<D>(r / len) : VecD<D>(VecD<D>::UnitY());
      return len - radius;
    }
    case Shape::box: {
      const VecD<D> q = (x - c).cwiseAbs() - half_size;
      if ((q.array() > 0.0).any()) {  // outside: distance to the nearest point of the box
        const VecD<D> out = q.cwiseMax(0.0);
        VecD<D> dir;
        for (int a = 0; a < D; ++a) dir[a] = (x[a] >= c[a] ? 1.0 : -1.0) * out[a];
        outward = dir.normalized();
        return out.norm();
      }
      int a = 0;  // inside: the nearest face
      q.maxCoeff(&a);
      outward.setZero();
      outward[a] = x[a] >= c[a] ? 1.0 : -1.0;
      return q[a];
    }
  }
  outward = VecD<D>::UnitY();
  return HUGE_VAL;
}

template struct MovingShape<2>;
template struct MovingShape<3>;

}  // namespace softsim
