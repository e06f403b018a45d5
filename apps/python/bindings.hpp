#pragma once
// The parts of the `heavyball` Python module (module.cpp puts them together).

#include <pybind11/pybind11.h>

#include <filesystem>

namespace hb::python {

void addQueryBindings(pybind11::module_& m);
void addWorldBindings(pybind11::module_& m);
/// World.add_joint and the joint setters (apps/python/joint_bindings.cpp), after
/// addWorldBindings; they call addJointStateBindings: world.joints, World.set_joint_targets
/// (apps/python/joint_states.cpp).
void addJointBindings(pybind11::module_& m);
void addJointStateBindings(pybind11::module_& m);
void addSolverSettingsBindings(pybind11::module_& m);
/// heavyball.data_dir() and heavyball.assets() (apps/python/shipped_data.cpp).
void addShippedDataBindings(pybind11::module_& m);

}  // namespace hb::python

namespace hb {
class World;
}

namespace hb::python {

/// The shipped data folder found from the module's own file (empty when none).
std::filesystem::path moduleDataDir();
/// The hb::World of a heavyball.World (TypeError for anything else).
World& worldOf(pybind11::handle world);
/// heavyball.Renderer, when the build has offscreen rendering (apps/python/renderer_bindings.cpp).
void addRendererBindings(pybind11::module_& m);

/// world.solver: a SolverSettings view of the world's settings (apps/python/solver_settings.cpp).
pybind11::object solverSettingsOf(World& world);

}  // namespace hb::python
