#pragma once
// The stepper a scene asks for (integrator section), with a stepper's refusal of the model (a
// modal integrator over too many coordinates, constraint contact with another integrator) turned
// into an InputError that names the scene file and its integrator.type.
#include <memory>

#include "softsim/integrate/stepper.hpp"
#include "softsim/scene/scene.hpp"

namespace softsim {

std::unique_ptr<Stepper> make_scene_stepper(const Scene& scene, const Model& model);

}  // namespace softsim
