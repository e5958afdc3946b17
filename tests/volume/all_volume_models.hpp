#pragma once
// Every volume law, for the tests that check a property of each.
#include "softsim/volume/volume_law.hpp"

namespace softsim::test {

inline constexpr VolumeModel kAllVolumeModels[] = {VolumeModel::Quadratic, VolumeModel::IdealGas,
                                                   VolumeModel::NearlyIncompressible};

}  // namespace softsim::test
