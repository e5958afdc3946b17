#include "softsim/scene/scene.hpp"

namespace softsim {

Scene::Scene() = default;
Scene::~Scene() = default;
Scene::Scene(const Scene&) = default;
Scene::Scene(Scene&&) noexcept = default;
Scene& Scene::operator=(const Scene&) = default;
Scene& Scene::operator=(Scene&&) noexcept = default;

}  // namespace softsim
