#include <fmt/format.h>

#include "softsim/scene/scene_sections.hpp"

namespace softsim {

namespace {

VolumePenaltySpec read_volume_penalty(const JsonReader& v, BodyKind body_kind) {
  VolumePenaltySpec s;
  s.path = v.path();
  s.model = v.choice("model", s.model);
  if (s.model == VolumeModel::IdealGas) {
    if (v.has("kappa_v"))
      v.fail("kappa_v", "an ideal gas's compressibility is 1 / pressure (Larionov et al. 2022, §3.4): "
                        "give \"pressure\" (atm) instead");
    s.pressure = v.positive("pressure", s.pressure);
  } else {
    if (v.has("pressure")) v.fail("pressure", "applies to \"model\": \"ideal_gas\" only (give \"kappa_v\")");
    s.kappa_v = v.positive("kappa_v", s.kappa_v);
  }
  s.region = v.choice("region", s.region);
  if (body_kind == BodyKind::shell && s.region != VolumeRegion::enclosed)
    v.fail("region", fmt::format("a shell has triangles only: \"enclosed\" applies, got \"{}\"", name_of(s.region)));
  if (v.has("box") || v.has("ids")) {
    if (s.region != VolumeRegion::tets) v.fail_here("\"box\" selects tets: it applies to \"region\": \"tets\" only");
    const SelectionSpec selection = read_selection(v, 3);
    if (!selection.box) v.fail("ids", "tets are selected by \"box\" (their centroids), not by vertex ids");
    s.box = selection.box;
  }
  s.exact_direct_jacobian = v.string("direct_jacobian", "exact", {"exact", "sparse"}) == "exact";
  v.finish();
  return s;
}

}  // namespace

std::vector<VolumePenaltySpec> read_volume_penalties(const JsonReader& r, int dim, BodyKind body_kind) {
  if (dim != 3) r.fail_here("a volume penalty needs a 3D scene (volumes of triangle surfaces)");
  if (body_kind == BodyKind::mass_spring) r.fail_here("a volume penalty applies to \"solid\" and \"shell\" bodies");
  std::vector<VolumePenaltySpec> out;
  if (!r.node().is_array()) {
    out.push_back(read_volume_penalty(r, body_kind));
    return out;
  }
  if (r.array_size() == 0) r.fail_here("expected an object or a non-empty array of objects");
  for (std::size_t i = 0; i < r.array_size(); ++i) out.push_back(read_volume_penalty(r.element(i), body_kind));
  return out;
}

}  // namespace softsim
