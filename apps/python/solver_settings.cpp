// heavyball.SolverSettings: a world's solver settings as a dict-like object, readable and
// writable between steps in the scene file's "solver" keys, with its checks and messages.

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <nlohmann/json.hpp>
#include <string>

#include "apps/python/bindings.hpp"
#include "apps/python/json_bridge.hpp"
#include "engine/scene.hpp"
#include "engine/world.hpp"

namespace py = pybind11;

namespace hb::python {
namespace {

/// A view of one world's settings; the Python world it came from is kept alive with it.
class SolverSettings {
 public:
  explicit SolverSettings(World& world) : world_(world) {}

  nlohmann::ordered_json current() const {
    return nlohmann::ordered_json::parse(solverText(world_.solverSettings()));
  }

  py::object get(const std::string& key) const {
    const nlohmann::ordered_json all = current();
    const auto it = all.find(key);
    if (it == all.end()) throw py::key_error(unknown(key));
    return toPython(*it);
  }

  void set(const std::string& key, const py::object& value) {
    update(py::dict(py::arg(key.c_str()) = value));
  }

  /// Several keys at once: all are checked before any takes effect.
  void update(const py::dict& values) {
    const nlohmann::json changes = toJson(values, "solver");
    for (const auto& [key, value] : changes.items()) {
      if (!current().contains(key)) throw py::key_error(unknown(key));
    }
    world_.solverSettings() = parseSolverText(changes.dump(), world_.solverSettings());
  }

  py::dict asDict() const { return toPython(current()).cast<py::dict>(); }
  py::list keys() const {
    py::list out;
    const nlohmann::ordered_json all = current();
    for (const auto& [key, value] : all.items()) out.append(key);
    return out;
  }

 private:
  std::string unknown(const std::string& key) const {
    std::string known;
    const nlohmann::ordered_json all = current();
    for (const auto& [k, v] : all.items()) known += (known.empty() ? "" : ", ") + k;
    return "solver." + key + ": no such setting (expected one of " + known + ")";
  }

  World& world_;
};

}  // namespace

void addSolverSettingsBindings(py::module_& m) {
  py::class_<SolverSettings>(m, "SolverSettings", R"(A world's solver settings (world.solver).

Keys and values as in a scene file's "solver" object (docs/scenes.md): settings["key"] reads one,
settings["key"] = value sets it with the scene file's checks (ValueError naming the key for a bad
value, KeyError for an unknown key); update(dict) sets several at once, all checked before any
takes effect. Changes apply from the next step.)")
      .def("__getitem__", &SolverSettings::get)
      .def("__setitem__", &SolverSettings::set)
      .def("update", &SolverSettings::update, py::arg("values"))
      .def("keys", &SolverSettings::keys)
      .def("to_dict", &SolverSettings::asDict, "every setting as a plain dict")
      .def("__iter__", [](const SolverSettings& s) { return py::iter(s.keys()); })
      .def("__len__", [](const SolverSettings& s) { return py::len(s.keys()); })
      .def("__contains__", [](const SolverSettings& s,
                              const std::string& key) { return s.current().contains(key); })
      .def("__repr__", [](const SolverSettings& s) {
        return "SolverSettings(" + py::repr(s.asDict()).cast<std::string>() + ")";
      });
}

py::object solverSettingsOf(World& world) {
  return py::cast(SolverSettings(world));
}

}  // namespace hb::python
