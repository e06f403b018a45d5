// The `heavyball` Python module: collision queries and simulated worlds on numpy arrays.
// Errors keep the command line's messages: bad JSON values, scenes and meshes raise ValueError,
// recordings that cannot be written OSError.

#include <pybind11/pybind11.h>

#include "apps/python/bindings.hpp"
#include "collision/convex_hull.hpp"
#include "engine/byte_archive.hpp"
#include "engine/json_read.hpp"
#include "engine/obj_mesh.hpp"
#include "engine/recording/recording_error.hpp"

namespace py = pybind11;

PYBIND11_MODULE(heavyball, m) {
  m.doc() = "heavyball: accelerated GJK collision queries and rigid-body simulation";
  m.attr("__version__") = HB_VERSION;
  py::register_exception_translator([](std::exception_ptr error) {
    try {
      if (error) std::rethrow_exception(error);
    } catch (const hb::JsonError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const hb::MeshLoadError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const hb::HullError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const hb::SnapshotError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const hb::RecordingError& e) {
      PyErr_SetString(PyExc_OSError, e.what());
    }
  });
  hb::python::addQueryBindings(m);
  hb::python::addShippedDataBindings(m);
  hb::python::addSolverSettingsBindings(m);
  hb::python::addWorldBindings(m);
  hb::python::addJointBindings(m);
#ifdef HB_PYTHON_RENDERER
  hb::python::addRendererBindings(m);
#endif
}
