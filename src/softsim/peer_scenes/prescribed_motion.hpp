#pragma once
// A prescribed displacement u(X, t) of a vertex selection, given as a function (PolyFEM's
// boundary expressions), turned into the softsim motion that reproduces it at every step time:
// a constant velocity, keyframes, and/or a rotation at a constant rate about a fixed centre
// (docs/scene-format.md, bodies[i].fixed[j]). A displacement that is none of these (a
// deformation, a varying rotation rate) is refused by name.
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "softsim/core/types.hpp"

namespace softsim {

using DisplacementField = std::function<Vec3(const Vec3& rest_position, double t)>;

// The motion keys of a `fixed` entry ("velocity" or "path", "angular_velocity" and
// "rotation_center") for points at `rest` over steps of dt; empty object for no motion.
// Throws InputError starting with `where` when no such motion matches to 1e-9 of the points' size.
nlohmann::json fit_prescribed_motion(const DisplacementField& u, const std::vector<Vec3>& rest, double dt, int steps,
                                     const std::string& where);

// A 3-vector as a JSON array [x, y, z].
nlohmann::json vec_json(const Vec3& v);

// Keyframes [t, offset...] of a translation known at every step time, without the frames that
// lie on the line through their neighbours (to `tolerance`).
nlohmann::json keyframes(const std::vector<double>& times, const std::vector<Vec3>& offsets, double tolerance);

}  // namespace softsim
