// softsim.Simulation: a run driven from Python, one step at a time or to the end, through the
// same loop as the CLI (sim/simulation.hpp), so its outputs are the CLI's bit for bit. The state
// is seen as numpy arrays that view the run's own buffers (writes go through); boundary motions
// and moving obstacles are steered between steps (sim/steering.hpp).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <cmath>
#include <map>

#include "bindings.hpp"
#include "softsim/contact/barrier/ipc_contact.hpp"
#include "softsim/contact/barrier/obstacle_barrier.hpp"
#include "softsim/contact/stencil/contact_stencil.hpp"
#include "softsim/core/enum_names.hpp"
#include "softsim/integrate/constraint/corrective_motion.hpp"
#include "softsim/integrate/stepper.hpp"
#include "softsim/scene/scene.hpp"
#include "softsim/sim/simulation.hpp"
#include "softsim/sim/steering.hpp"

namespace py = pybind11;

namespace softsim::python {

namespace {

// What a Python Simulation owns: its scene, the model built from it (in place: terms keep
// pointers into it) and the run.
struct PySimulation {
  PySimulation(const Scene& s, RunOptions options) : scene(s), model(build_model(scene)) {
    simulation = std::make_unique<Simulation>(scene, model, std::move(options));
  }
  Scene scene;
  Model model;
  std::unique_ptr<Simulation> simulation;
};

// A (vertices x dim) array viewing a DOF vector owned by `owner` (kept alive by the array).
py::array_t<double> view(VecX& v, int dim, py::handle owner) {
  const py::ssize_t n = v.size() / dim;
  return py::array_t<double>({n, static_cast<py::ssize_t>(dim)},
                             {static_cast<py::ssize_t>(dim * sizeof(double)), static_cast<py::ssize_t>(sizeof(double))},
                             v.data(), owner);
}

// Copies a (vertices x dim) array (or anything numpy turns into one) into a DOF vector.
void assign(VecX& v, int dim, const py::array_t<double, py::array::c_style | py::array::forcecast>& a, const char* what) {
  if (a.size() != v.size() || (a.ndim() == 2 && a.shape(1) != dim) || a.ndim() > 2)
    throw py::value_error(std::string(what) + ": expected an array of shape (" + std::to_string(v.size() / dim) + ", " +
                          std::to_string(dim) + ")");
  std::copy(a.data(), a.data() + a.size(), v.data());
}

VecX to_vector(const std::vector<double>& values) { return Eigen::Map<const VecX>(values.data(), values.size()); }

py::dict stats_dict(const StepStats& s) {
  py::dict d;
  d["step"] = s.step;
  d["t"] = s.t;
  d["newton_iterations"] = s.newton_iterations;
  d["linear_iterations"] = s.linear_iterations;
  d["residual"] = s.residual;
  d["kinetic"] = s.kinetic;
  d["potential"] = s.potential;
  d["total_energy"] = s.kinetic + s.potential;
  d["min_distance"] = s.min_distance;
  d["wall_ms"] = s.wall_ms;
  d["krylov_dimension"] = s.krylov_dimension;
  d["converged"] = s.converged;
  d["substeps"] = s.substeps;
  return d;
}

py::dict report_dict(const Simulation& sim) {
  const RunReport& r = sim.report();
  py::dict d;
  d["status"] = sim.running() ? "running" : run_status_name(r.status);
  d["steps_done"] = r.steps_done;
  d["steps_requested"] = sim.steps_requested();
  d["failed_steps"] = r.failed_steps;
  d["subdivided_steps"] = r.subdivided_steps;
  d["wall_seconds"] = r.wall_seconds;
  d["message"] = r.message;
  return d;
}

// The potential's terms at the current state, summed by name, as the stats' potential counts
// them (the step that ended here: its end time, its run data), plus kinetic energy and the work
// of the constant external forces.
std::map<std::string, double> energies(const PySimulation& p) {
  const State& state = p.simulation->state();
  const Stage stage = Stage::step(state.t - p.scene.dt, p.scene.dt);
  const EvalContext ctx{stage, p.simulation->stepper().data()};
  std::map<std::string, double> out;
  for (const auto& term : p.model.energies()) out[term->name()] += term->evaluate(ctx, state.x, AssemblyOutputs{});
  out["external_work"] = -state.x.dot(p.model.external_force());
  out["kinetic"] = kinetic_energy(p.model, state.v);
  return out;
}

// Constraint contact's forces of the last step, as columns.
py::dict contact_forces(const PySimulation& p) {
  const auto* forces = p.simulation->stepper().contact_forces();
  const std::size_t n = forces ? forces->size() : 0;
  py::array_t<int> vertices({static_cast<py::ssize_t>(n), py::ssize_t(4)});
  py::array_t<double> gap(n), normal(n), tangential(n), force({static_cast<py::ssize_t>(n), py::ssize_t(3)});
  py::list kinds;
  auto vv = vertices.mutable_unchecked<2>();
  auto fv = force.mutable_unchecked<2>();
  for (std::size_t k = 0; k < n; ++k) {
    const ContactForce& f = (*forces)[k];
    kinds.append(name_of(f.stencil.kind));
    for (int a = 0; a < 4; ++a) vv(k, a) = a < f.stencil.num_vertices ? f.stencil.ids[a] : -1;
    gap.mutable_at(k) = f.gap;
    normal.mutable_at(k) = f.normal_force;
    tangential.mutable_at(k) = f.tangential_force;
    for (int c = 0; c < 3; ++c) fv(k, c) = f.force[c];
  }
  py::dict d;
  d["kind"] = kinds;
  d["vertices"] = vertices;
  d["gap"] = gap;
  d["normal_force"] = normal;
  d["tangential_force"] = tangential;
  d["force"] = force;
  return d;
}

// The barrier contacts at the current state (IPC between and within bodies, and against analytic
// obstacles), as columns.
py::dict contacts(const PySimulation& p) {
  const VecX& x = p.simulation->state().x;
  std::vector<std::string> kinds, terms;
  std::vector<std::array<int, 4>> ids;
  std::vector<double> distances;
  for (const auto& term : p.model.energies()) {
    if (const auto* ipc = dynamic_cast<const IpcContact*>(term.get())) {
      for (const auto& [stencil, d] : ipc->active_contacts(x)) {
        kinds.push_back(name_of(stencil.kind));
        ids.push_back(stencil.ids);
        distances.push_back(d);
        terms.push_back(term->name());
      }
    } else if (const auto* obstacle = dynamic_cast<const ObstacleBarrier*>(term.get())) {
      for (const auto& [vertex, d] : obstacle->active_contacts(x)) {
        kinds.push_back(name_of(StencilKind::point_obstacle));
        ids.push_back({vertex, -1, -1, -1});
        distances.push_back(d);
        terms.push_back(term->name());
      }
    }
  }
  py::array_t<int> vertices({static_cast<py::ssize_t>(ids.size()), py::ssize_t(4)});
  auto vv = vertices.mutable_unchecked<2>();
  for (std::size_t k = 0; k < ids.size(); ++k)
    for (int a = 0; a < 4; ++a) vv(k, a) = ids[k][a];
  py::dict d;
  d["kind"] = kinds;
  d["vertices"] = vertices;
  d["distance"] = py::array_t<double>(distances.size(), distances.data());
  d["term"] = terms;
  return d;
}

const Body& body_named(const Model& model, const std::string& name) {
  for (const Body& b : model.bodies)
    if (b.name == name) return b;
  std::string known;
  for (const Body& b : model.bodies) known += (known.empty() ? "" : ", ") + b.name;
  throw py::value_error("no body \"" + name + "\" (the scene's are: " + known + ")");
}

// One step with the GIL released (other Python threads run meanwhile); then Ctrl-C, which
// Python only notes in a flag, ends the run as the CLI's would and raises KeyboardInterrupt.
bool step_once(PySimulation& p) {
  bool more;
  {
    py::gil_scoped_release release;
    more = p.simulation->step();
  }
  if (PyErr_CheckSignals() != 0) {
    p.simulation->interrupt();
    p.simulation->finish();
    throw py::error_already_set();
  }
  return more;
}

}  // namespace

// A state vector (State::x or State::v) as a read-write property: a (vertices, dim) view, and
// assignment copying into the same memory.
template <VecX State::*member>
void def_state_array(py::class_<PySimulation>& c, const char* name) {
  c.def_property(
      name,
      [](py::object self) {
        auto& p = self.cast<PySimulation&>();
        return view(p.simulation->state().*member, p.model.dim(), self);
      },
      [name](PySimulation& p, const py::array_t<double, py::array::c_style | py::array::forcecast>& a) {
        assign(p.simulation->state().*member, p.model.dim(), a, name);
      });
}

void bind_simulation(py::module_& m) {
  py::class_<PySimulation> c(m, "Simulation");
  def_state_array<&State::x>(c, "x");
  def_state_array<&State::v>(c, "v");
  c
      .def(py::init([](const Scene& scene, std::optional<std::filesystem::path> out_dir, std::optional<int> steps,
                       bool progress, bool resume) {
             RunOptions options;
             options.out_dir = out_dir.value_or(std::filesystem::path());
             options.steps = steps;
             options.quiet = !progress;
             options.resume = resume;
             // x and v are numpy views on the state: they must follow every step.
             options.defer_positions = false;
             if (resume && !out_dir) throw py::value_error("resume=True needs out_dir (the folder of the run to continue)");
             return std::make_unique<PySimulation>(scene, std::move(options));
           }),
           py::arg("scene"), py::arg("out_dir") = py::none(), py::arg("steps") = py::none(), py::arg("progress") = false,
           py::arg("resume") = false)
      .def("step", &step_once)
      .def("interrupt", [](PySimulation& p) { p.simulation->interrupt(); })
      .def("finish", [](PySimulation& p) {
        p.simulation->finish();
        return report_dict(*p.simulation);
      })
      .def("write_frame", [](PySimulation& p) { p.simulation->write_frame(); })
      .def_property_readonly("running", [](const PySimulation& p) { return p.simulation->running(); })
      .def_property_readonly("report", [](const PySimulation& p) { return report_dict(*p.simulation); })
      .def_property_readonly("last", [](const PySimulation& p) { return stats_dict(p.simulation->last()); })
      .def_property_readonly("steps_requested", [](const PySimulation& p) { return p.simulation->steps_requested(); })
      .def_property_readonly("dim", [](const PySimulation& p) { return p.model.dim(); })
      .def_property_readonly("dt", [](const PySimulation& p) { return p.scene.dt; })
      .def_property_readonly("t", [](const PySimulation& p) { return p.simulation->state().t; })
      .def_property_readonly("integrator", [](const PySimulation& p) { return p.simulation->stepper().name(); })
      .def_property_readonly("rest_positions",
                             [](const PySimulation& p) {
                               const VecX& x0 = p.model.rest_positions;
                               const py::ssize_t dim = p.model.dim();
                               return py::array_t<double>({x0.size() / dim, dim}, x0.data());  // a copy: no base
                             })
      .def_property_readonly("masses", [](const PySimulation& p) {
        const std::vector<double> m = p.model.vertex_masses();
        return py::array_t<double>(m.size(), m.data());
      })
      .def_property_readonly("bodies",
                             [](const PySimulation& p) {
                               py::list out;
                               for (const Body& b : p.model.bodies) {
                                 py::dict d;
                                 d["name"] = b.name;
                                 d["first_vertex"] = b.first_vertex;
                                 d["num_vertices"] = b.mesh.num_vertices();
                                 d["num_elements"] = b.mesh.num_cells();
                                 out.append(d);
                               }
                               return out;
                             })
      .def("body_vertices",
           [](const PySimulation& p, const std::string& name) {
             const Body& b = body_named(p.model, name);
             return py::slice(b.first_vertex, b.first_vertex + b.mesh.num_vertices(), 1);
           },
           py::arg("name"))
      .def("surface_triangles",
           [](const PySimulation& p, const std::string& name) {
             const Body& b = body_named(p.model, name);
             const MatXi& f = p.model.dim() == 3 ? b.surface.faces : b.surface.edges;
             py::array_t<int> a({static_cast<py::ssize_t>(f.rows()), static_cast<py::ssize_t>(f.cols())});
             auto av = a.mutable_unchecked<2>();
             for (Eigen::Index r = 0; r < f.rows(); ++r)
               for (Eigen::Index c = 0; c < f.cols(); ++c) av(r, c) = b.first_vertex + f(r, c);
             return a;
           },
           py::arg("name"))
      .def("energies", &energies)
      .def("contact_forces", &contact_forces)
      .def("contacts", &contacts)
      .def_property_readonly("motions", [](const PySimulation& p) { return motion_labels(p.model); })
      .def("motion_offset",
           [](const PySimulation& p, const std::string& label, std::optional<double> t) {
             const VecX o = motion_offset(p.model, label, t.value_or(p.simulation->state().t));
             return std::vector<double>(o.data(), o.data() + o.size());
           },
           py::arg("label"), py::arg("t") = py::none())
      .def("steer_motion",
           [](PySimulation& p, const std::string& label, const std::vector<double>& target, std::optional<double> duration) {
             const double t = p.simulation->state().t;
             const double span = duration.value_or(p.scene.dt);
             if (!(span > 0.0)) throw py::value_error("duration must be positive");
             steer_motion(p.model, label, t, t + span, to_vector(target));
           },
           py::arg("label"), py::arg("target"), py::arg("duration") = py::none())
      .def_property_readonly("moving_obstacles", [](const PySimulation& p) { return moving_obstacle_names(p.model); })
      .def("set_obstacle_velocity",
           [](PySimulation& p, const std::string& name, const std::vector<double>& velocity) {
             set_obstacle_velocity(p.model, name, to_vector(velocity));
           },
           py::arg("name"), py::arg("velocity"))
      .def("obstacle_velocity",
           [](const PySimulation& p, const std::string& name) {
             const VecX v = obstacle_velocity(p.model, name);
             return std::vector<double>(v.data(), v.data() + v.size());
           },
           py::arg("name"));
}

}  // namespace softsim::python
