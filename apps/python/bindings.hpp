#pragma once
// The parts of the `heavyball` Python module (module.cpp puts them together).

#include <pybind11/pybind11.h>

namespace hb::python {

void addQueryBindings(pybind11::module_& m);
void addWorldBindings(pybind11::module_& m);
void addSolverSettingsBindings(pybind11::module_& m);

}  // namespace hb::python

namespace hb {
class World;
}

namespace hb::python {

/// world.solver: a SolverSettings view of the world's settings (apps/python/solver_settings.cpp).
pybind11::object solverSettingsOf(World& world);

}  // namespace hb::python
