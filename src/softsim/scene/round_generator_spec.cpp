#include "softsim/scene/round_generator_spec.hpp"

#include <fmt/format.h>

#include "softsim/mesh/round_generators.hpp"

namespace softsim {

bool is_round_generator(const std::string& type) {
  return type == "sphere" || type == "hollow_sphere" || type == "bowl";
}

void read_round_generator(const JsonReader& g, GeneratorSpec& gen) {
  gen.radius = g.positive("radius", 0.5);
  const bool shell = gen.type != "sphere";
  // Cells along the ball's diameter (sphere) or along each cube-face edge of the cubed sphere.
  gen.resolution = Eigen::Vector3i::Constant(g.integer("resolution", 8, shell && gen.type == "bowl" ? 2 : 1, 1000));
  if (!shell) return;
  gen.inner_radius = g.number("inner_radius", 0.8 * gen.radius, 0.0, HUGE_VAL, true);
  if (!(gen.inner_radius < gen.radius))
    g.fail("inner_radius", fmt::format("expected less than radius ({:g} m), got {:g}", gen.radius, gen.inner_radius));
  gen.layers = g.integer("layers", 2, 1, 1000);
  if (gen.type == "bowl" && gen.resolution.x() % 2 != 0)
    g.fail("resolution", fmt::format("a bowl needs an even resolution (its rim is the cubed sphere's equator), got {}",
                                     gen.resolution.x()));
}

Mesh generate_round(const GeneratorSpec& gen) {
  const int n = gen.resolution.x();
  if (gen.type == "sphere") return generate_sphere(gen.radius, n);
  if (gen.type == "hollow_sphere") return generate_hollow_sphere(gen.inner_radius, gen.radius, n, gen.layers);
  return generate_bowl(gen.inner_radius, gen.radius, n, gen.layers);
}

}  // namespace softsim
