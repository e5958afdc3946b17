#include "softsim/scene/scene_sections.hpp"

namespace softsim {

// The model's terms go in this order, which the step hooks follow (a term that reads another's
// data comes after it): each body's elasticity and volume penalties, the affine bodies'
// orthogonality potentials, the moving mesh obstacles'
// driving penalties, the prescribed motions by penalty, then contact and its friction.
Model build_model(const Scene& scene) {
  Model model(scene.dim);
  model.gravity = scene.gravity;
  model.rayleigh_alpha = scene.rayleigh_alpha;
  model.rayleigh_beta = scene.rayleigh_beta;
  add_bodies(model, scene);
  add_affine_potentials(model, scene);
  add_moving_mesh_obstacles(model, scene);
  add_obstacle_poses(model, scene);
  add_boundary_conditions(model, scene);
  add_contact(model, scene);
  model.finalize();
  // Last: a reduced body's modes are computed from the finished model.
  add_subspace_map(model, scene);
  return model;
}

}  // namespace softsim
