#include "softsim/scene/read_moving_shape.hpp"

#include "softsim/core/enum_names.hpp"
#include "softsim/scene/scene_sections.hpp"

namespace softsim {

template <>
struct EnumNames<MovingShape<3>::Shape> {
  static constexpr std::pair<MovingShape<3>::Shape, const char*> table[] = {
      {MovingShape<3>::Shape::plane, "plane"}, {MovingShape<3>::Shape::sphere, "sphere"}, {MovingShape<3>::Shape::box, "box"}};
};

MovingShape<3> read_moving_shape(const JsonReader& r, int dim) {
  MovingShape<3> c;
  if (!r.has("type")) r.fail("type", "missing; expected \"plane\", \"sphere\" or \"box\"");
  c.shape = r.choice("type", c.shape);
  switch (c.shape) {
    case MovingShape<3>::Shape::plane:
      c.point = required_vec(r, "point", dim);
      c.normal = required_vec(r, "normal", dim);
      if (c.normal.norm() < 1e-12) r.fail("normal", "expected a non-zero vector");
      c.normal.normalize();
      break;
    case MovingShape<3>::Shape::sphere:
      c.point = required_vec(r, "center", dim);
      if (!r.has("radius")) r.fail("radius", "missing; expected the sphere's radius (m)");
      c.radius = r.positive("radius", c.radius);
      break;
    case MovingShape<3>::Shape::box: {
      c.point = required_vec(r, "center", dim);
      const Vec3 size = required_vec(r, "size", dim);
      if ((size.head(dim).array() <= 0.0).any()) r.fail("size", "expected positive sizes");
      c.half_size = 0.5 * size;
      break;
    }
  }
  c.velocity = read_vec(r, "velocity", Vec3::Zero(), dim);
  return c;
}

}  // namespace softsim
