#include "softsim/model/model_data.hpp"

#include "softsim/model/model.hpp"

namespace softsim {

ModelData::ModelData(const Model& model) {
  for (const auto& term : model.energies()) add(*term);
}

void ModelData::save(const Model& model, ArchiveWriter& out) const {
  out.tag("model_data");
  for (const auto& term : model.energies()) {
    out.tag(term->name());
    if (const auto it = data_.find(term.get()); it != data_.end()) it->second->save(out);
  }
}

void ModelData::load(const Model& model, ArchiveReader& in) {
  in.expect("model_data");
  for (const auto& term : model.energies()) {
    in.expect(term->name());
    if (const auto it = data_.find(term.get()); it != data_.end()) it->second->load(in);
  }
}

void ModelData::add(const Energy& term) {
  if (auto data = term.make_data()) data_[&term] = std::move(data);
}

}  // namespace softsim
