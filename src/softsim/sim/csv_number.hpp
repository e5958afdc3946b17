#pragma once
// A number in a stats.csv cell: 10 significant digits, an empty cell for a non-finite value
// (FEM and MPM runs alike).
#include <fmt/format.h>

#include <cmath>
#include <string>

namespace softsim {

inline std::string csv_number(double x) { return std::isfinite(x) ? fmt::format("{:.10g}", x) : std::string(); }

}  // namespace softsim
