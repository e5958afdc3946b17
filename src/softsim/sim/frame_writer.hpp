#pragma once
// Writes one output frame: a .vtu of the volume meshes (per-vertex velocity, per-element energy
// density) listed in a .pvd collection, and an .obj of the boundary surfaces. Each file is
// written under a temporary name and renamed, so a killed run never leaves a partial frame.
#include <filesystem>
#include <vector>

#include "softsim/io/vtu.hpp"
#include "softsim/model/model.hpp"
#include "softsim/model/state.hpp"

namespace softsim {

class FrameWriter {
 public:
  FrameWriter(const Model& model, std::filesystem::path frames_dir, bool vtu, bool obj);
  // data: the run's data (corotated models report their energy density in the frozen frame).
  void write(const State& state, int frame, const ModelData& data);
  // The .pvd's entries so far; a resumed run starts from a checkpoint's.
  const std::vector<PvdEntry>& entries() const { return entries_; }
  void restore(std::vector<PvdEntry> entries) { entries_ = std::move(entries); }

 private:
  const Model& model_;
  std::filesystem::path dir_;
  bool vtu_, obj_;
  std::vector<PvdEntry> entries_;
};

}  // namespace softsim
