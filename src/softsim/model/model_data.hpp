#pragma once
// Everything a run writes while its Model stays constant (the split of MuJoCo's mjModel and
// mjData): each term's adaptive parameters (barrier and penalty stiffness), what it freezes at
// the start of a step (lagged friction contacts, corotated rotations, moving penalty targets) and
// its caches (the contact candidates of the last CCD sweep, reused by the line search). The
// stepper owns one and hands it to every evaluation; each term creates its own part
// (Energy::make_data) and finds it again by its own address.
#include <memory>
#include <stdexcept>
#include <unordered_map>

#include "softsim/core/binary_archive.hpp"

namespace softsim {

class Energy;
class Model;

// One term's part of the ModelData (derive from it).
struct TermData {
  virtual ~TermData() = default;
  // Checkpoints: what the term carries from one step to the next (adaptive stiffnesses and the
  // like). What begin_step recomputes from the step's start positions (frozen rotations, lagged
  // friction contacts, moving targets) and caches need not be saved.
  virtual void save(ArchiveWriter& out) const {}
  virtual void load(ArchiveReader& in) {}
};

class ModelData {
 public:
  ModelData() = default;  // holds nothing: for models whose terms keep no data
  explicit ModelData(const Model& model);
  ModelData(ModelData&&) = default;
  ModelData& operator=(ModelData&&) = default;

  // The data of `term` (a term of the model this was made for), of the type the term made.
  template <class T>
  T& of(const void* term) {
    return as<T>(find(term));
  }
  template <class T>
  const T& of(const void* term) const {
    return as<T>(find(term));
  }
  bool has(const void* term) const { return data_.count(term) != 0; }
  // Creates the data of one more term (the constructor does this for every term of the model;
  // tests of a term outside a model call it directly).
  void add(const Energy& term);

  // Every term's saved data, in the model's term order, each framed by the term's name.
  void save(const Model& model, ArchiveWriter& out) const;
  // Reads what save() wrote for the same model; throws ArchiveError on a mismatch.
  void load(const Model& model, ArchiveReader& in);

 private:
  TermData* find(const void* term) const {
    const auto it = data_.find(term);
    if (it == data_.end()) throw std::logic_error("ModelData: no data for this term (made for another model?)");
    return it->second.get();
  }
  template <class T>
  static T& as(TermData* data) {
    T* typed = dynamic_cast<T*>(data);
    if (!typed) throw std::logic_error("ModelData: the term's data has another type");
    return *typed;
  }
  std::unordered_map<const void*, std::unique_ptr<TermData>> data_;
};

}  // namespace softsim
