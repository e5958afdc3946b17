#pragma once
// Writes one output frame: a .vtu of the volume meshes (per-vertex velocity, per-element energy
// density) listed in a .pvd collection, and an .obj of the boundary surfaces. Each file is
// written under a temporary name and renamed, so a killed run never leaves a partial frame.
// Analytic obstacles are parts of their own in the .pvd (part = number of bodies + index):
// obstacles/<name>_<frame>.vtu, their outline (contact/geometry/obstacle_outline.hpp) at the
// frame's pose with the pose's velocity, so viewers show where a moving obstacle is.
#include <filesystem>
#include <vector>

#include "softsim/contact/geometry/analytic_obstacle.hpp"
#include "softsim/io/vtu.hpp"
#include "softsim/model/model.hpp"
#include "softsim/model/state.hpp"

namespace softsim {

class FrameWriter {
 public:
  // obstacles: the analytic obstacles to draw (shape.pose_vertex moves one; -1: static).
  FrameWriter(const Model& model, std::filesystem::path frames_dir, bool vtu, bool obj,
              const std::vector<NamedObstacle>& obstacles = {});
  // data: the run's data (corotated models report their energy density in the frozen frame).
  void write(const State& state, int frame, const ModelData& data);
  // The .pvd's entries so far; a resumed run starts from a checkpoint's.
  const std::vector<PvdEntry>& entries() const { return entries_; }
  void restore(std::vector<PvdEntry> entries) { entries_ = std::move(entries); }

 private:
  const Model& model_;
  std::filesystem::path dir_;
  bool vtu_, obj_;
  struct Outline {
    std::string name;
    Mesh mesh;             // at the rest pose
    int pose_vertex = -1;
    VecX rest_point;       // the pose's position at rest
  };
  std::vector<Outline> obstacles_;
  std::vector<PvdEntry> entries_;
};

}  // namespace softsim
