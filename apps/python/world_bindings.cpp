// heavyball.World: a scene stepped from Python, its state as numpy arrays, recorded to HDF5 as
// `heavyball simulate --record` records.

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "apps/python/bindings.hpp"
#include "apps/python/json_bridge.hpp"
#include "engine/recording/recorder.hpp"
#include "engine/recording/recording_metadata.hpp"
#include "engine/scene.hpp"
#include "engine/world.hpp"

namespace py = pybind11;
namespace fs = std::filesystem;

namespace hb::python {
namespace {

class PythonWorld {
 public:
  // A scene file (str or os.PathLike) or a scene dict whose relative paths resolve against
  // `base_dir` (default: the current folder).
  PythonWorld(py::object scene, std::optional<fs::path> baseDir, int threads) {
    if (py::isinstance<py::dict>(scene)) {
      sceneJson_ = toJson(scene, "").dump(2);
      baseDir_ = fs::absolute(baseDir.value_or(fs::current_path()));
      world_ = std::make_unique<World>(parseScene(sceneJson_, baseDir_));
    } else {
      const fs::path file = scene.cast<fs::path>();
      world_ = std::make_unique<World>(loadScene(file));
      std::ifstream in(file, std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      sceneJson_ = text.str();
      baseDir_ = fs::absolute(file).parent_path();
    }
    setThreads(threads);
    world_->addObserver([this](const World& w) {
      if (recorder_) recorder_->record(w);
    });
  }

  void setThreads(int threads) {
    if (threads < 0) throw py::value_error("threads: expected 0 (one per core) or more");
    world_->setThreads(threads);
  }

  void step(int count) {
    if (count < 0) throw py::value_error("count: expected a non-negative number of steps");
    for (int i = 0; i < count; ++i) {
      {
        py::gil_scoped_release released;
        world_->step();
      }
      // Ctrl-C between two steps raises KeyboardInterrupt with the world after a whole step.
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    }
  }

  int addBody(py::dict body) {
    const BodyDescription d =
        parseBodyText(toJson(body, "body").dump(), "body", baseDir_, world_->scene().assetDir);
    return world_->addBody(d);
  }

  void applyImpulse(int body, const Eigen::Vector3d& point, const Eigen::Vector3d& impulse) {
    checkBody(body);
    world_->applyImpulse(body, point, impulse);
  }

  /// A copy of the state, read-only so that assigning to it raises instead of changing
  /// nothing.
  template <typename T>
  static py::array_t<T> readOnly(py::array_t<T> array) {
    array.attr("setflags")(py::arg("write") = false);
    return array;
  }

  py::array_t<double> vectors(Eigen::Vector3d RigidBody::*field) const {
    const auto& bodies = world_->rigidBodies();
    py::array_t<double> out({static_cast<py::ssize_t>(bodies.size()), py::ssize_t{3}});
    auto o = out.mutable_unchecked<2>();
    for (size_t i = 0; i < bodies.size(); ++i) {
      for (int k = 0; k < 3; ++k) o(i, k) = (bodies[i].*field)[k];
    }
    return readOnly(out);
  }

  py::array_t<double> orientations() const {
    const auto& bodies = world_->rigidBodies();
    py::array_t<double> out({static_cast<py::ssize_t>(bodies.size()), py::ssize_t{4}});
    auto o = out.mutable_unchecked<2>();
    for (size_t i = 0; i < bodies.size(); ++i) {
      const Eigen::Quaterniond& q = bodies[i].orientation;
      o(i, 0) = q.w();
      o(i, 1) = q.x();
      o(i, 2) = q.y();
      o(i, 3) = q.z();
    }
    return readOnly(out);
  }

  py::array_t<bool> flags(bool RigidBody::*field) const {
    const auto& bodies = world_->rigidBodies();
    py::array_t<bool> out(static_cast<py::ssize_t>(bodies.size()));
    auto o = out.mutable_unchecked<1>();
    for (size_t i = 0; i < bodies.size(); ++i) o(i) = bodies[i].*field;
    return readOnly(out);
  }

  py::list names() const {
    py::list out;
    for (const WorldBody& b : world_->bodies()) out.append(b.name);
    return out;
  }

  py::dict lastStep() const {
    const StepStatistics& s = world_->lastStep();
    py::dict out;
    out["step"] = s.step;
    out["bodies"] = s.bodies;  // dynamic ones
    out["awake_bodies"] = s.awakeBodies;
    out["candidate_pairs"] = s.candidatePairs;
    out["gjk_calls"] = s.gjkCalls;
    out["gjk_mean_iterations"] = s.gjkMeanIterations();
    out["epa_calls"] = s.epaCalls;
    out["rtr_calls"] = s.rtrCalls;
    out["contacts"] = s.contacts;
    out["woken_bodies"] = s.wokenBodies;
    out["swept_back"] = s.sweptBack;
    out["stalled_sweeps"] = s.stalledSweeps;
    out["impact_pairs"] = s.impactPairs;
    out["substeps"] = s.substeps;
    out["limited_bodies"] = s.limitedBodies;
    out["solver_iterations"] = s.solverIterations;
    out["solver_residual"] = s.solverResidual;
    out["max_penetration"] = s.maxPenetration;
    out["kinetic_energy"] = s.kineticEnergy;
    out["energy_gain"] = s.energyGain;
    out["energy_grew"] = s.energyGrew;
    py::dict stages;
    for (int k = 0; k < kStageCount; ++k)
      stages[py::str(std::string(kStageNames[k]))] = s.stageMs[k];
    out["stage_ms"] = stages;
    return out;
  }

  void record(const fs::path& file, bool overwrite) {
    if (recorder_) throw py::value_error("already recording; call stop_recording() first");
    std::error_code error;
    if (!overwrite && fs::exists(file, error)) {
      throw py::value_error(file.string() + ": exists; pass overwrite=True to replace it");
    }
    recorder_ = std::make_unique<Recorder>(file, *world_,
                                           recordingMetadataFromText(sceneJson_, world_->scene()));
  }

  void stopRecording() {
    if (!recorder_) return;
    std::unique_ptr<Recorder> recorder = std::move(recorder_);
    py::gil_scoped_release released;
    recorder->close();
  }

  World& world() { return *world_; }

 private:
  void checkBody(int body) const {
    if (body < 0 || body >= static_cast<int>(world_->bodies().size())) {
      throw py::index_error("body " + std::to_string(body) + ": the world has " +
                            std::to_string(world_->bodies().size()) + " bodies");
    }
  }

  std::string sceneJson_;
  fs::path baseDir_;
  std::unique_ptr<World> world_;
  std::unique_ptr<Recorder> recorder_;
};

}  // namespace

void addWorldBindings(py::module_& m) {
  py::class_<PythonWorld>(m, "World", R"(A scene (docs/scenes.md) stepped at its dt.

World(scene, base_dir=None, threads=0): scene is a scene file's path, or a dict in the scene
file's schema whose relative paths resolve against base_dir (default: the current folder).
threads: the workers each step runs on (0: one per core); every count gives the same states bit
for bit. Bodies are indexed as in recordings: the statics first (one body), then bodies in the
order they were added.)")
      .def(py::init<py::object, std::optional<fs::path>, int>(), py::arg("scene"),
           py::arg("base_dir") = py::none(), py::arg("threads") = 0)
      .def_property(
          "threads", [](PythonWorld& w) { return w.world().threads(); }, &PythonWorld::setThreads,
          "the workers each step runs on (setting 0: one per core)")
      .def("step", &PythonWorld::step, py::arg("count") = 1,
           "Advances `count` steps of dt (without the GIL); spawners drop as they are due. "
           "Ctrl-C stops it between two steps (KeyboardInterrupt).")
      .def("add_body", &PythonWorld::addBody, py::arg("body"),
           "Adds a body given as an entry of a scene's \"bodies\" (a dict); returns its index.")
      .def("apply_impulse", &PythonWorld::applyImpulse, py::arg("body"), py::arg("point"),
           py::arg("impulse"),
           "An impulse (N s, world) at a world point (m) of a dynamic body; wakes it. "
           "ValueError for the static body 0 or values out of range.")
      .def("record", &PythonWorld::record, py::arg("path"), py::arg("overwrite") = false,
           "Records every later step to an HDF5 file (docs/recording-format.md).")
      .def("stop_recording", &PythonWorld::stopRecording,
           "Writes the rest of the recording and closes it.")
      .def_property_readonly(
          "positions", [](const PythonWorld& w) { return w.vectors(&RigidBody::position); },
          "(N, 3) centres of mass, m")
      .def_property_readonly("orientations", &PythonWorld::orientations,
                             "(N, 4) unit quaternions w, x, y, z (body to world)")
      .def_property_readonly(
          "linear_velocities",
          [](const PythonWorld& w) { return w.vectors(&RigidBody::linearVelocity); }, "(N, 3) m/s")
      .def_property_readonly(
          "angular_velocities",
          [](const PythonWorld& w) { return w.vectors(&RigidBody::angularVelocity); },
          "(N, 3) rad/s, world frame")
      .def_property_readonly("sleeping",
                             [](const PythonWorld& w) { return w.flags(&RigidBody::sleeping); })
      .def_property_readonly("static",
                             [](const PythonWorld& w) { return w.flags(&RigidBody::isStatic); })
      .def_property_readonly("names", &PythonWorld::names, "asset name or shape type per body")
      .def_property_readonly("body_count", [](PythonWorld& w) { return w.world().bodies().size(); })
      .def_property_readonly(
          "time", [](PythonWorld& w) { return w.world().time(); }, "s")
      .def_property_readonly("step_count", [](PythonWorld& w) { return w.world().stepCount(); })
      .def_property_readonly(
          "dt", [](PythonWorld& w) { return w.world().scene().dt; }, "s")
      .def_property_readonly(
          "kinetic_energy", [](PythonWorld& w) { return w.world().kineticEnergy(); }, "J")
      .def_property_readonly(
          "energy_gain", [](PythonWorld& w) { return w.world().energyGain(); },
          "J beyond what the bodies were added with (a blow-up when large)")
      .def_property_readonly("non_finite", [](PythonWorld& w) { return w.world().nonFinite(); })
      .def_property_readonly("escaped_bodies",
                             [](PythonWorld& w) { return w.world().escapedBodies(); })
      .def_property_readonly("last_step", &PythonWorld::lastStep,
                             "what the last step did: counts, GJK effort, solver, ms per stage");
}

}  // namespace hb::python
