#pragma once
// The parts of the `heavyball` Python module (module.cpp puts them together).

#include <pybind11/pybind11.h>

namespace hb::python {

void addQueryBindings(pybind11::module_& m);
void addWorldBindings(pybind11::module_& m);

}  // namespace hb::python
