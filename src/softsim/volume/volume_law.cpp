#include "softsim/volume/volume_law.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace softsim {

// The logarithmic laws are written in e = V/V0 - 1 with log1p: near V0 the textbook forms
// subtract numbers of size V0 to get a value of size e^2 V0.
double VolumeLaw::energy(double V) const {
  const double V0 = rest_volume;
  const double e = V / V0 - 1.0;
  switch (model) {
    case VolumeModel::Quadratic: return (V - V0) * (V - V0) / (2.0 * V0 * compressibility);
    case VolumeModel::IdealGas:
      if (!(V > 0.0)) return std::numeric_limits<double>::infinity();
      return V0 * (ambient_pressure * e - rest_pressure * std::log1p(e));
    case VolumeModel::NearlyIncompressible:
      if (!(V > 0.0)) return std::numeric_limits<double>::infinity();
      return V0 * ((1.0 + e) * std::log1p(e) - e) / compressibility;
  }
  return 0.0;
}

double VolumeLaw::derivative(double V) const {
  const double V0 = rest_volume;
  switch (model) {
    case VolumeModel::Quadratic: return (V - V0) / (V0 * compressibility);
    case VolumeModel::IdealGas: return ambient_pressure - rest_pressure * V0 / V;
    case VolumeModel::NearlyIncompressible: return std::log1p(V / V0 - 1.0) / compressibility;
  }
  return 0.0;
}

double VolumeLaw::second_derivative(double V) const {
  const double V0 = rest_volume;
  switch (model) {
    case VolumeModel::Quadratic: return 1.0 / (V0 * compressibility);
    case VolumeModel::IdealGas: return rest_pressure * V0 / (V * V);
    case VolumeModel::NearlyIncompressible: return 1.0 / (compressibility * V);
  }
  return 0.0;
}

}  // namespace softsim
