// Model lookup by the names used in scene files.
#include <stdexcept>

#include "softsim/material/models.hpp"

namespace softsim {

const std::vector<std::string>& material_model_names() {
  static const std::vector<std::string> names = {"linear", "corotated_linear", "fixed_corotated", "stvk",
                                                 "neo_hookean", "stable_neo_hookean", "arap"};
  return names;
}

template <int D>
std::unique_ptr<Material<D>> make_material(const std::string& model, const LameParameters& lame) {
  if (model == "linear") return std::make_unique<LinearMaterial<D>>(lame);
  if (model == "corotated_linear") return std::make_unique<CorotatedLinearMaterial<D>>(lame);
  if (model == "fixed_corotated") return std::make_unique<FixedCorotatedMaterial<D>>(lame);
  if (model == "stvk") return std::make_unique<StvkMaterial<D>>(lame);
  if (model == "neo_hookean") return std::make_unique<NeoHookeanMaterial<D>>(lame);
  if (model == "stable_neo_hookean") return std::make_unique<StableNeoHookeanMaterial<D>>(lame);
  if (model == "arap") return std::make_unique<ArapMaterial<D>>(lame);
  std::string known;
  for (const auto& n : material_model_names()) known += (known.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown material model '" + model + "' (known: " + known + ")");
}

template std::unique_ptr<Material<2>> make_material<2>(const std::string&, const LameParameters&);
template std::unique_ptr<Material<3>> make_material<3>(const std::string&, const LameParameters&);

}  // namespace softsim
