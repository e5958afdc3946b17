#include "softsim/model/model_data.hpp"

#include "softsim/model/model.hpp"

namespace softsim {

ModelData::ModelData(const Model& model) {
  for (const auto& term : model.energies()) add(*term);
}

void ModelData::add(const Energy& term) {
  if (auto data = term.make_data()) data_[&term] = std::move(data);
}

}  // namespace softsim
