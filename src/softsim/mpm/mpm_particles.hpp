#pragma once
// MPM particles (Li & Jiang 2025, ch. 27): each carries position, velocity, mass, rest volume,
// deformation gradient (the elastic part when the material is plastic), the APIC affine
// velocity C, and what plasticity keeps (Drucker-Prager's volume correction, the accumulated
// plastic strain). Structure of arrays, so transfers stream through memory.
#include <vector>

#include "softsim/core/types.hpp"

namespace softsim {

template <int D>
struct MpmParticles {
  std::vector<VecD<D>> x, v;
  std::vector<MatD<D>> F, C;
  std::vector<double> mass, volume;  // volume: at rest (V0); mass: set by MpmSolver from the material's density
  std::vector<double> log_volume_correction, plastic_strain;
  std::vector<int> material;  // index into the solver's materials

  std::size_t size() const { return x.size(); }
  void add(const VecD<D>& position, const VecD<D>& velocity, double rest_volume, int material_id) {
    x.push_back(position);
    v.push_back(velocity);
    F.push_back(MatD<D>::Identity());
    C.push_back(MatD<D>::Zero());
    mass.push_back(0.0);
    volume.push_back(rest_volume);
    log_volume_correction.push_back(0.0);
    plastic_strain.push_back(0.0);
    material.push_back(material_id);
  }
};

// Positions filling the box [lo, hi] on a regular lattice with about `per_cell` particles per
// grid cell of size dx (spacing dx / per_cell^(1/D), lattice centred in the box). Give each the
// box's volume over their number as its rest volume.
template <int D>
std::vector<VecD<D>> sample_box_regular(const VecD<D>& lo, const VecD<D>& hi, double dx, double per_cell);

// Poisson-disk sampling of the box (Bridson 2007): no two particles closer than r, where r is
// chosen so that about `per_cell` particles fall in a cell; deterministic for a seed (with one
// standard library: its distributions are implementation-defined).
template <int D>
std::vector<VecD<D>> sample_box_poisson(const VecD<D>& lo, const VecD<D>& hi, double dx, double per_cell,
                                        unsigned seed);

}  // namespace softsim
