#pragma once
// The work W(V) needed to change an enclosed volume from its rest value V0 to V
// (Larionov et al. 2022, §3.4 and Appendix B). dW = (P0 - P) dV: the gas (or fluid) pressure P
// pushes outwards, the ambient pressure P0 = 1 atm inwards, so W' = -(P - P0) is minus the
// gauge pressure.
//  - quadratic (eq. 20):   W = (V - V0)^2 / (2 V0 kappa_v)
//  - ideal gas (eq. 18):   W = P0 (V - V0) - Pr V0 ln(V / V0)  (Boyle: P V = Pr V0), which is
//                          P0 (V - V0 (1 + ln V/V0)) for Pr = P0 (gas at 1 atm, as in Larionov et al. 2022)
//  - nearly incompressible (eq. 19): W = (V0 - V (1 - ln V/V0)) / kappa_v
// All three are convex with W(V0) = 0; with Pr = P0 their minimum is at V0 and they grow under
// compression and expansion (Figure 3). The logarithmic models are undefined for V <= 0:
// energy() is +infinity there. Units: V in m^3, pressures in Pa, kappa_v in 1/Pa, W in J.
#include <string>

#include "softsim/core/enum_names.hpp"

namespace softsim {

inline constexpr double kAtmosphere = 101325.0;  // Pa: P0 = 1 atm (Larionov et al. 2022, §3.4)

enum class VolumeModel { Quadratic, IdealGas, NearlyIncompressible };

template <>
struct EnumNames<VolumeModel> {
  static constexpr std::pair<VolumeModel, const char*> table[] = {{VolumeModel::Quadratic, "quadratic"},
                                                                  {VolumeModel::IdealGas, "ideal_gas"},
                                                                  {VolumeModel::NearlyIncompressible, "nearly_incompressible"}};
};
inline std::string to_string(VolumeModel model) { return name_of(model); }

struct VolumeLaw {
  VolumeModel model = VolumeModel::Quadratic;
  double rest_volume = 1.0;                   // V0 (m^3), > 0
  double compressibility = 1.0 / kAtmosphere;  // kappa_v (1/Pa): quadratic, nearly incompressible
  double ambient_pressure = kAtmosphere;      // P0 (Pa)
  double rest_pressure = kAtmosphere;         // Pr (Pa): ideal gas at V0 (absolute)

  double energy(double V) const;      // W(V) (J)
  double derivative(double V) const;  // W'(V) = P0 - P(V) (Pa)
  double second_derivative(double V) const;  // W''(V) = -P'(V) (Pa/m^3), > 0
  // Gauge pressure P(V) - P0 = -W'(V) (Pa).
  double gauge_pressure(double V) const { return -derivative(V); }
};

}  // namespace softsim
