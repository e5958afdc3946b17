#pragma once
// A 2-DOF nonlinear spring pendulum as a tiny Model: vertex 0 fixed at the origin, vertex 1
// (mass 1) on a MassSpring<2> edge of rest length 1, under gravity, released horizontally. Plus
// an RK4 reference for it (lumped mass, so M^-1 is exact).
#include <gtest/gtest.h>

#include <memory>

#include "softsim/fem/mass_spring.hpp"
#include "softsim/integrate/stepper.hpp"
#include "softsim/model/model.hpp"
#include "softsim/model/state.hpp"

namespace softsim::test {

// rayleigh_alpha: mass-proportional damping force -alpha M v.
inline std::unique_ptr<Model> make_pendulum(double stiffness = 50.0, double rayleigh_alpha = 0.0) {
  auto model = std::make_unique<Model>(2);
  MatX vertices(2, 2);
  vertices << 0.0, 0.0, 1.0, 0.0;
  model->add_vertices(vertices);
  model->add_lumped_mass(0, 1.0);
  model->add_lumped_mass(1, 1.0);
  MatXi edges(1, 2);
  edges << 0, 1;
  model->add_energy(std::make_unique<MassSpring<2>>(edges, vertices, stiffness));
  model->gravity = Vec3(0.0, -9.81, 0.0);
  model->rayleigh_alpha = rayleigh_alpha;
  model->boundary.set_dimensions(2, 2);
  PrescribedMotion fixed;
  fixed.vertices = {0};
  fixed.offset = [](double) { return VecX(VecX::Zero(2)); };
  fixed.label = "pivot";
  model->boundary.add_motion(std::move(fixed));
  model->finalize();
  return model;
}

inline State initial_state(const Model& model) {
  State s;
  s.x = model.rest_positions;
  s.v = VecX::Zero(model.num_dofs());
  s.v[3] = 0.5;  // a little initial upward velocity of the bob
  return s;
}

// Acceleration with the lumped mass; the pivot's DOFs stay at rest.
inline VecX pendulum_acceleration(const Model& model, const VecX& x, const VecX& v) {
  VecX g = VecX::Zero(x.size());
  AssemblyOutputs out{&g, nullptr, 1.0, false};
  const Stage stage;
  const ModelData data(model);
  model.potential(EvalContext{stage, data}, x, out);
  VecX a = -model.mass_times(VecX::Ones(x.size())).cwiseInverse().cwiseProduct(g) - model.rayleigh_alpha * v;
  a.head(2).setZero();
  return a;
}

// Classical RK4 reference.
inline State rk4_reference(const Model& model, State s, double end, int steps) {
  const double h = end / steps;
  for (int i = 0; i < steps; ++i) {
    const VecX k1x = s.v, k1v = pendulum_acceleration(model, s.x, k1x);
    const VecX k2x = s.v + 0.5 * h * k1v, k2v = pendulum_acceleration(model, s.x + 0.5 * h * k1x, k2x);
    const VecX k3x = s.v + 0.5 * h * k2v, k3v = pendulum_acceleration(model, s.x + 0.5 * h * k2x, k3x);
    const VecX k4x = s.v + h * k3v, k4v = pendulum_acceleration(model, s.x + h * k3x, k4x);
    s.x += h / 6.0 * (k1x + 2 * k2x + 2 * k3x + k4x);
    s.v += h / 6.0 * (k1v + 2 * k2v + 2 * k3v + k4v);
  }
  s.t = end;
  return s;
}

// Error (max norm over x and v) at t = end of `steps` equal steps of the stepper made by options
// from the pendulum's initial state, against a reference state; every step must converge.
inline double pendulum_error(const Model& model, const StepperOptions& options, double end, int steps,
                             const State& reference) {
  auto stepper = make_stepper(model, options);
  State s = initial_state(model);
  const double h = end / steps;
  for (int i = 0; i < steps; ++i) {
    const StepResult r = stepper->step(s, h);
    EXPECT_TRUE(r.converged) << stepper->name() << ": " << r.failure << " step " << i << " its "
                             << r.newton_iterations << " residual " << r.residual;
    if (!r.converged) break;
  }
  return std::max((s.x - reference.x).lpNorm<Eigen::Infinity>(), (s.v - reference.v).lpNorm<Eigen::Infinity>());
}

}  // namespace softsim::test
