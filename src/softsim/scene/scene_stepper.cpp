#include "softsim/scene/scene_stepper.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "softsim/core/errors.hpp"

namespace softsim {

std::unique_ptr<Stepper> make_scene_stepper(const Scene& scene, const Model& model) {
  try {
    return make_stepper(model, scene.integrator);
  } catch (const std::invalid_argument& e) {
    throw InputError(fmt::format("{}: integrator.type \"{}\": {}", scene.source(), name_of(scene.integrator.type), e.what()));
  }
}

}  // namespace softsim
