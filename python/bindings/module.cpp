// The extension module: softsim's errors as Python's (bad input is ValueError with the CLI's
// message, a failure during a run RuntimeError), the thread count, and the parts in
// scene_bindings.cpp and simulation_bindings.cpp.
#include <tbb/global_control.h>

#include <memory>

#include "bindings.hpp"
#include "softsim/core/errors.hpp"

namespace py = pybind11;

namespace {

std::unique_ptr<tbb::global_control> g_thread_limit;

void set_threads(int threads) {
  if (threads < 0) throw py::value_error("set_threads: the thread count must be 0 (all cores) or positive");
  g_thread_limit.reset();
  if (threads > 0)
    g_thread_limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, threads);
}

int threads() {
  return static_cast<int>(tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism));
}

}  // namespace

PYBIND11_MODULE(_softsim, m) {
  m.doc() = "softsim's C++ core (use the package softsim, which wraps it).";
  m.attr("__version__") = SOFTSIM_VERSION;
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const softsim::InputError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const softsim::RunError& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });
  m.def("set_threads", &set_threads, py::arg("threads"),
        "Limits the threads softsim uses (0: all cores, the default), as `softsim run --threads`.");
  m.def("threads", &threads, "The number of threads softsim uses.");
  softsim::python::bind_scene(m);
  softsim::python::bind_simulation(m);
}
