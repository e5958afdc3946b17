#include "support/small_scenes.hpp"

namespace softsim::test {

nlohmann::json box(double size, int n, const nlohmann::json& at, const std::string& material) {
  return {{"generator", {{"type", "box"}, {"size", {size, size, size}}, {"resolution", {n, n, n}}}},
          {"transform", {{"translate", at}}},
          {"material", {{"model", material}, {"E", 1e5}, {"nu", 0.3}, {"density", 1000}}}};
}

nlohmann::json shell_sheet(const nlohmann::json& at) {
  return {{"kind", "shell"},
          {"generator", {{"type", "sheet"}, {"size", {0.4, 0, 0.4}}, {"resolution", {3, 1, 3}}}},
          {"transform", {{"translate", at}}},
          {"material", {{"model", "neo_hookean"}, {"E", 1e6}, {"nu", 0.3}, {"density", 200}, {"thickness", 1e-3}}}};
}

std::vector<SmallScene> small_scenes() {
  using nlohmann::json;
  std::vector<SmallScene> scenes;
  const json time = {{"dt", 0.01}, {"steps", 1}};
  // Two boxes 0.4 mm apart (dhat 1 mm), one yawed so that point-triangle and edge-edge pairs of
  // every type are active; IPC with friction.
  for (const std::string mode : {"lagged", "implicit"}) {
    json upper = box(0.2, 2, {0.013, 0.2004, 0.007}, "stable_neo_hookean");
    upper["transform"]["rotate"] = {0, 17, 0};
    scenes.push_back({"ipc_" + mode,
                      {{"dim", 3},
                       {"time", time},
                       {"bodies", {box(0.2, 2, {0, 0, 0}, "fixed_corotated"), upper}},
                       {"contact", {{"dhat", 1e-3}, {"friction", {{"mu", 0.4}, {"mode", mode}, {"eps_v", 0.01}}}}}},
                      2e-5});
  }
  // A corotated box resting 0.4 mm above a plane and against a sphere, with friction; its top
  // driven by penalty.
  for (const std::string mode : {"lagged", "implicit"}) {
    json b = box(0.2, 2, {0, 0.1004, 0}, "corotated_linear");
    b["fixed"] = {{{"box", {{-1, 0.19, -1}, {1, 1, 1}}}, {"method", "penalty"}, {"velocity", {0.1, 0, 0}}}};
    scenes.push_back({"obstacles_" + mode,
                      {{"dim", 3},
                       {"time", time},
                       {"bodies", {b}},
                       {"obstacles",
                        {{{"type", "plane"}, {"point", {0, 0, 0}}, {"normal", {0, 1, 0}}},
                         {{"type", "sphere"}, {"center", {0.4004, 0.1, 0}}, {"radius", 0.3}}}},
                       {"contact", {{"dhat", 1e-3}, {"friction", {{"mu", 0.3}, {"mode", mode}, {"eps_v", 0.01}}}}}},
                      2e-5});
  }
  // Penalty contact: a box 2 mm into the ground and into another box, with friction.
  for (const std::string mode : {"lagged", "implicit"}) {
    scenes.push_back({"penalty_" + mode,
                      {{"dim", 3},
                       {"time", time},
                       {"bodies", {box(0.2, 2, {0, 0.098, 0}), box(0.1, 2, {0.01, 0.246, 0.0})}},
                       {"obstacles", {{{"type", "plane"}, {"point", {0, 0, 0}}, {"normal", {0, 1, 0}}}}},
                       {"contact", {{"type", "penalty"}, {"delta", 5e-3},
                                    {"friction", {{"mu", 0.3}, {"mode", mode}, {"eps_v", 0.01}}}}}},
                      1e-4});
  }
  // A gas-filled hollow ball and a water-filled solid ball (volume penalties).
  scenes.push_back(
      {"volume",
       {{"dim", 3},
        {"time", time},
        {"bodies",
         {{{"generator", {{"type", "hollow_sphere"}, {"radius", 0.1}, {"inner_radius", 0.08}, {"resolution", 2}, {"layers", 1}}},
           {"material", {{"E", 1e5}, {"nu", 0.3}, {"density", 1000}}},
           {"volume_penalty", {{"model", "ideal_gas"}, {"region", "cavity"}, {"pressure", 2.0}}}},
          {{"generator", {{"type", "sphere"}, {"radius", 0.1}, {"resolution", 2}}},
           {"transform", {{"translate", {0.5, 0, 0}}}},
           {"material", {{"E", 1e5}, {"nu", 0.3}, {"density", 1000}}},
           {"volume_penalty", {{"model", "nearly_incompressible"}, {"kappa_v", 0.5}}}}}},
        {"contact", {{"enabled", false}}}},
       5e-3});
  // A shell (membrane and hinge bending) 0.9 mm above a box, IPC with a 0.5 mm thickness.
  scenes.push_back({"shell",
                    {{"dim", 3},
                     {"time", time},
                     {"bodies", {shell_sheet({0.01, 0.3008, 0.02}), box(0.2, 2, {0, 0.1999, 0})}},
                     {"contact", {{"dhat", 1e-3}, {"thickness", 5e-4}}}},
                    2e-5});
  // A shell with the isometric (quadratic) bending, pressed by a timed load, 0.9 mm above a rigid
  // affine box (its orthogonality potential; the box's slight shear makes it active).
  json pressed = shell_sheet({0.01, 0.2009, 0.02});
  pressed["material"]["bending"] = "isometric";
  pressed["loads"] = {{{"box", {{-1, -1, -1}, {1, 1, 1}}}, {"force", {0, -0.1, 0}}, {"until", 1.0}}};
  scenes.push_back({"isometric_affine",
                    {{"dim", 3},
                     {"time", time},
                     {"bodies",
                      {pressed,
                       {{"name", "crate"},
                        {"kind", "affine"},
                        {"affine", {{"rigid", true}}},
                        {"generator", {{"type", "box"}, {"size", {0.2, 0.2, 0.2}}, {"resolution", {1, 1, 1}}}},
                        {"transform", {{"translate", {0, 0.1, 0}}}},
                        {"material", {{"density", 600}}}}}},
                     {"contact", {{"dhat", 1e-3}, {"thickness", 5e-4}}}},
                    2e-5});
  // 2D: a mass-spring grid and a plane-strain square 0.4 mm apart (IPC point-edge pairs).
  scenes.push_back({"two_d",
                    {{"dim", 2},
                     {"time", time},
                     {"bodies",
                      {{{"kind", "mass_spring"},
                        {"generator", {{"type", "spring_grid"}, {"size", {0.2, 0.2}}, {"resolution", {2, 2}}}},
                        {"material", {{"stiffness", 1e3}, {"density", 100}}}},
                       {{"generator", {{"type", "rectangle"}, {"size", {0.2, 0.2}}, {"resolution", {2, 2}}}},
                        {"transform", {{"translate", {0.01, 0.2004}}}},
                        {"material", {{"model", "stvk"}, {"E", 1e5}, {"nu", 0.3}, {"density", 1000}}}}}},
                     {"contact", {{"dhat", 1e-3}}}},
                    2e-5});
  return scenes;
}

}  // namespace softsim::test
