#include <fmt/format.h>

#include "softsim/mesh/element_quality.hpp"
#include "softsim/scene/scene.hpp"

namespace softsim {

BuildMessages describe_build(const Model& model) {
  BuildMessages out;
  for (const Body& body : model.bodies) {
    for (const std::string& note : body.mesh.notes) out.notes.push_back(fmt::format("body \"{}\": {}", body.name, note));
    const QualitySummary q = summarize_quality(body.mesh);
    if (q.has_quality && q.worst_angle < kPoorElementAngleDegrees)
      out.warnings.push_back(fmt::format(
          "body \"{}\": element {} has a {} of {:.2g} degrees (below {:g}); such slivers make the Newton systems "
          "ill-conditioned and the steps slow. `softsim info` shows the mesh's quality; `softsim mesh` remeshes a "
          "closed surface with a bound on it",
          body.name, q.worst_angle_cell, q.angle_name, q.worst_angle, kPoorElementAngleDegrees));
  }
  return out;
}

}  // namespace softsim
