#include "softsim/sim/body_tracker.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "softsim/core/errors.hpp"

namespace softsim {

namespace {

constexpr const char* kAxes = "xyz";

std::string csv_value(double x) { return std::isfinite(x) ? fmt::format(",{:.10g}", x) : std::string(","); }

}  // namespace

BodyTracker::BodyTracker(const Model& model, const std::vector<std::string>& names) : dim_(model.dim()) {
  const std::vector<double> masses = model.vertex_masses();
  for (const std::string& name : names) {
    const auto body = std::find_if(model.bodies.begin(), model.bodies.end(), [&](const Body& b) { return b.name == name; });
    if (body == model.bodies.end())
      throw InputError(fmt::format("output.track: no body or moving mesh obstacle is named \"{}\"", name));
    Tracked t;
    t.name = name;
    t.first_vertex = body->first_vertex;
    t.vertex_count = body->mesh.num_vertices();
    t.mass.assign(masses.begin() + t.first_vertex, masses.begin() + t.first_vertex + t.vertex_count);
    for (double m : t.mass) t.total_mass += m;
    // A body without mass (a static mesh) is tracked by its plain vertex average.
    if (t.total_mass <= 0.0) {
      std::fill(t.mass.begin(), t.mass.end(), 1.0);
      t.total_mass = t.vertex_count;
    }
    tracked_.push_back(std::move(t));
  }
}

std::string BodyTracker::header() const {
  std::string h;
  for (const Tracked& t : tracked_)
    for (const char* what : {"com", "min", "max"})
      for (int a = 0; a < dim_; ++a) h += fmt::format(",{}_{}_{}", t.name, what, kAxes[a]);
  return h;
}

std::string BodyTracker::row(const VecX& x) const {
  std::string r;
  for (const Tracked& t : tracked_) {
    std::vector<double> com(dim_, 0.0), lo(dim_, HUGE_VAL), hi(dim_, -HUGE_VAL);
    for (int i = 0; i < t.vertex_count; ++i)
      for (int a = 0; a < dim_; ++a) {
        const double c = x[(t.first_vertex + i) * dim_ + a];
        com[a] += t.mass[i] * c;
        lo[a] = std::min(lo[a], c);
        hi[a] = std::max(hi[a], c);
      }
    for (int a = 0; a < dim_; ++a) r += csv_value(com[a] / t.total_mass);
    for (int a = 0; a < dim_; ++a) r += csv_value(lo[a]);
    for (int a = 0; a < dim_; ++a) r += csv_value(hi[a]);
  }
  return r;
}

}  // namespace softsim
