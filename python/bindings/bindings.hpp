#pragma once
// The parts of the extension module `softsim._softsim` (docs/python.md), one per file.
#include <pybind11/pybind11.h>

namespace softsim::python {

void bind_scene(pybind11::module_& m);
void bind_simulation(pybind11::module_& m);

}  // namespace softsim::python
