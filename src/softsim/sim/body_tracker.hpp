#pragma once
// Per-body columns of stats.csv (scene key output.track): each tracked body's centre of mass and
// the extent of its vertices along each axis, so that a bounce height or a lifted object's height
// can be read off a run without parsing frames.
#include <string>
#include <vector>

#include "softsim/model/model.hpp"

namespace softsim {

class BodyTracker {
 public:
  // names: bodies of the model (moving mesh obstacles included); an unknown name throws
  // InputError naming output.track.
  BodyTracker(const Model& model, const std::vector<std::string>& names);

  // ",<name>_com_x,...,<name>_min_x,...,<name>_max_x,..." (empty when nothing is tracked).
  std::string header() const;
  // The matching values at positions x, each preceded by a comma.
  std::string row(const VecX& x) const;

 private:
  struct Tracked {
    std::string name;
    int first_vertex = 0, vertex_count = 0;
    std::vector<double> mass;  // per vertex
    double total_mass = 0.0;
  };
  int dim_;
  std::vector<Tracked> tracked_;
};

}  // namespace softsim
