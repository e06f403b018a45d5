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
#include "engine/json_read.hpp"
#include "engine/recording/recorder.hpp"
#include "engine/recording/recording_metadata.hpp"
#include "engine/scene.hpp"
#include "engine/world.hpp"

namespace py = pybind11;
namespace fs = std::filesystem;

namespace hb::python {
namespace {

/// A scene given as a dict or JSON text names no asset_dir: the shipped YCB objects, found from
/// the module (a scene file's default, ../ycb beside the file, means nothing for a dict).
std::string withShippedAssets(const std::string& sceneJson) {
  nlohmann::json scene = nlohmann::json::parse(sceneJson, nullptr, false);
  const fs::path data = moduleDataDir();
  if (!scene.is_object() || scene.contains("asset_dir") || data.empty()) return sceneJson;
  scene["asset_dir"] = (data / "assets" / "ycb").string();
  return scene.dump(2);
}

class PythonWorld {
 public:
  // A scene file (str or os.PathLike) or a scene dict whose relative paths resolve against
  // `base_dir` (default: the current folder).
  PythonWorld(py::object scene, std::optional<fs::path> baseDir, int threads) {
    if (py::isinstance<py::dict>(scene)) {
      sceneJson_ = withShippedAssets(toJson(scene, "").dump(2));
      world_ = std::make_unique<World>(
          parseScene(sceneJson_, fs::absolute(baseDir.value_or(fs::current_path()))),
          checkedThreads(threads));
    } else {
      const fs::path file = scene.cast<fs::path>();
      world_ = std::make_unique<World>(loadScene(file), checkedThreads(threads));
      std::ifstream in(file, std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      sceneJson_ = text.str();
      sceneFolder_ = fs::absolute(file).parent_path();
    }
    connect();
  }

  /// A scene given as JSON text (World.from_json).
  static std::unique_ptr<PythonWorld> fromJson(const std::string& text,
                                               std::optional<fs::path> baseDir, int threads) {
    auto w = std::unique_ptr<PythonWorld>(new PythonWorld());
    w->sceneJson_ = withShippedAssets(text);
    w->world_ = std::make_unique<World>(
        parseScene(w->sceneJson_, fs::absolute(baseDir.value_or(fs::current_path()))),
        checkedThreads(threads));
    w->connect();
    return w;
  }

  void setThreads(int threads) { world_->setThreads(checkedThreads(threads)); }

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

  /// Relative mesh paths resolve against `baseDir` (default: the current folder, as query's
  /// do). A shipped asset is named as in a scene ({"asset": name}) or as
  /// {"type": "asset", "name": name}.
  int addBody(py::dict body, std::optional<fs::path> baseDir) {
    nlohmann::json value = toJson(body, "body");
    if (value.contains("type") && value["type"] == "asset") {
      if (!value.contains("name")) throw py::value_error("body.name: missing required key");
      value["asset"] = value["name"];
      value.erase("type");
      value.erase("name");
    }
    const std::string text = value.dump();
    const fs::path base = fs::absolute(baseDir.value_or(fs::current_path()));
    try {
      return world_->addBody(parseBodyText(text, "body", base, world_->scene().assetDir));
    } catch (const JsonError& e) {
      // Paths used to resolve against a scene file's folder: say how to keep that.
      if (baseDir || sceneFolder_.empty()) throw;
      try {
        parseBodyText(text, "body", sceneFolder_, world_->scene().assetDir);
      } catch (const JsonError&) {
        throw e;
      }
      throw JsonError(std::string(e.what()) +
                      " (relative paths resolve against the current folder; base_dir=\"" +
                      sceneFolder_.string() + "\" resolves them against the scene's)");
    }
  }

  void removeBody(int body) {
    checkBody(body);
    refuseWhileRecording("remove_body");
    world_->removeBody(body);
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
    out["kept_pairs"] = s.keptPairs;
    out["gjk_mean_iterations"] = s.gjkMeanIterations();
    out["epa_calls"] = s.epaCalls;
    out["rtr_calls"] = s.rtrCalls;
    out["contacts"] = s.contacts;
    out["woken_bodies"] = s.wokenBodies;
    out["swept_back"] = s.sweptBack;
    out["stalled_sweeps"] = s.stalledSweeps;
    out["solves_alone"] = s.solvesAlone;
    out["impact_pairs"] = s.impactPairs;
    out["substeps"] = s.substeps;
    out["split_bodies"] = s.splitBodies;
    out["held_contacts"] = s.heldContacts;
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

  // --- State, forces, contacts (World's operations; see their comments in engine/world.hpp).

  void reset() {
    refuseWhileRecording("reset");
    world_->reset();
  }

  py::bytes saveState() const {
    const std::vector<std::uint8_t> bytes = world_->saveState();
    return py::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  }

  void restoreState(const py::bytes& snapshot) {
    refuseWhileRecording("restore_state");
    const std::string_view bytes = snapshot;
    world_->restoreState(
        std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
  }

  void setBodyState(int body, const std::optional<Eigen::Vector3d>& position,
                    const std::optional<Eigen::Vector4d>& orientation,
                    const std::optional<Eigen::Vector3d>& linearVelocity,
                    const std::optional<Eigen::Vector3d>& angularVelocity) {
    checkBody(body);
    BodyStateUpdate update;
    update.position = position;
    if (orientation) {
      const Eigen::Vector4d& q = *orientation;  // w first, as `orientations` reads
      update.orientation = Eigen::Quaterniond(q[0], q[1], q[2], q[3]);
    }
    update.linearVelocity = linearVelocity;
    update.angularVelocity = angularVelocity;
    world_->setBodyState(body, update);
  }

  /// Rows of an (n, columns) array argument, or none.
  static std::optional<py::array_t<double>> rows(const std::optional<py::array_t<double>>& a,
                                                 size_t n, int columns, const char* name) {
    if (!a) return std::nullopt;
    if (a->ndim() != 2 || static_cast<size_t>(a->shape(0)) != n || a->shape(1) != columns) {
      throw py::value_error(std::string(name) + ": expected an array of shape (" +
                            std::to_string(n) + ", " + std::to_string(columns) +
                            "), one row per index");
    }
    return a;
  }

  void setStates(const std::vector<int>& indices,
                 const std::optional<py::array_t<double>>& positions,
                 const std::optional<py::array_t<double>>& orientations,
                 const std::optional<py::array_t<double>>& linearVelocities,
                 const std::optional<py::array_t<double>>& angularVelocities) {
    const size_t n = indices.size();
    const auto p = rows(positions, n, 3, "positions");
    const auto q = rows(orientations, n, 4, "orientations");
    const auto v = rows(linearVelocities, n, 3, "linear_velocities");
    const auto w = rows(angularVelocities, n, 3, "angular_velocities");
    const auto row3 = [](const std::optional<py::array_t<double>>& a,
                         size_t i) -> std::optional<Eigen::Vector3d> {
      if (!a) return std::nullopt;
      const auto r = a->unchecked<2>();
      return Eigen::Vector3d(r(i, 0), r(i, 1), r(i, 2));
    };
    // All or nothing: a bad row puts back the bodies set before it.
    const std::vector<std::uint8_t> before = world_->saveState();
    try {
      for (size_t i = 0; i < n; ++i) {
        std::optional<Eigen::Vector4d> qi;
        if (q) {
          const auto r = q->unchecked<2>();
          qi = Eigen::Vector4d(r(i, 0), r(i, 1), r(i, 2), r(i, 3));
        }
        setBodyState(indices[i], row3(p, i), qi, row3(v, i), row3(w, i));
      }
    } catch (...) {
      world_->restoreState(before);
      throw;
    }
  }

  void applyForce(int body, const Eigen::Vector3d& force,
                  const std::optional<Eigen::Vector3d>& point) {
    checkBody(body);
    world_->applyForce(body, force, point);
  }

  void applyTorque(int body, const Eigen::Vector3d& torque) {
    checkBody(body);
    world_->applyTorque(body, torque);
  }

  void setExternalForce(int body, const Eigen::Vector3d& force, const Eigen::Vector3d& torque) {
    checkBody(body);
    world_->setExternalForce(body, force, torque);
  }

  void setMaterial(int body, std::optional<double> friction, std::optional<double> restitution) {
    checkBody(body);
    Material m = world_->bodies()[body].material;
    if (friction) m.friction = *friction;
    if (restitution) m.restitution = *restitution;
    world_->setMaterial(body, m);
  }

  void setMass(int body, double mass) {
    checkBody(body);
    world_->setMass(body, mass);
  }

  Eigen::Vector3d bodyContactImpulse(int body) const {
    checkBody(body);
    return world_->bodyContactImpulse(body);
  }

  /// One row per contact point of the last step's last (sub)step.
  py::dict contacts() const {
    const std::vector<ContactConstraint>& cs = world_->contacts();
    const auto n = static_cast<py::ssize_t>(cs.size());
    py::array_t<int> bodyA(n), bodyB(n);
    py::array_t<double> position({n, py::ssize_t{3}}), normal({n, py::ssize_t{3}});
    py::array_t<double> distance(n), normalImpulse(n), frictionImpulse({n, py::ssize_t{3}});
    auto a = bodyA.mutable_unchecked<1>();
    auto b = bodyB.mutable_unchecked<1>();
    auto p = position.mutable_unchecked<2>();
    auto nn = normal.mutable_unchecked<2>();
    auto d = distance.mutable_unchecked<1>();
    auto jn = normalImpulse.mutable_unchecked<1>();
    auto jt = frictionImpulse.mutable_unchecked<2>();
    for (py::ssize_t i = 0; i < n; ++i) {
      const ContactConstraint& c = cs[i];
      a(i) = c.bodyA;
      b(i) = c.bodyB;
      d(i) = -c.depth;
      jn(i) = c.impulse.x();
      const Eigen::Vector3d friction = c.impulse.y() * c.tangent1 + c.impulse.z() * c.tangent2;
      for (int k = 0; k < 3; ++k) {
        p(i, k) = c.point[k];
        nn(i, k) = c.normal[k];
        jt(i, k) = friction[k];
      }
    }
    py::dict out;
    out["body_a"] = readOnly(bodyA);
    out["body_b"] = readOnly(bodyB);
    out["position"] = readOnly(position);
    out["normal"] = readOnly(normal);
    out["distance"] = readOnly(distance);
    out["normal_impulse"] = readOnly(normalImpulse);
    out["friction_impulse"] = readOnly(frictionImpulse);
    return out;
  }

  void setGravity(const Eigen::Vector3d& g) { world_->setGravity(g); }

  std::string repr() const {
    return "<heavyball.World '" + world_->scene().name +
           "': " + std::to_string(world_->bodies().size()) + " bodies, step " +
           std::to_string(world_->stepCount()) + ", t = " + std::to_string(world_->time()) + " s>";
  }

 private:
  PythonWorld() = default;

  static int checkedThreads(int threads) {
    if (threads < 0) throw py::value_error("threads: expected 0 (one per core) or more");
    return threads;
  }

  void connect() {
    world_->addObserver([this](const World& w) {
      if (recorder_) recorder_->record(w);
    });
  }

  void refuseWhileRecording(const char* what) const {
    if (recorder_) {
      throw py::value_error(std::string(what) +
                            ": the world is recording; call stop_recording() first");
    }
  }

  void checkBody(int body) const {
    if (body < 0 || body >= static_cast<int>(world_->bodies().size())) {
      throw py::index_error("body " + std::to_string(body) + ": the world has " +
                            std::to_string(world_->bodies().size()) + " bodies");
    }
  }

  std::string sceneJson_;
  fs::path sceneFolder_;  // a scene file's folder (empty for a dict or JSON text)
  std::unique_ptr<World> world_;
  std::unique_ptr<Recorder> recorder_;
};

}  // namespace

World& worldOf(py::handle world) {
  return py::cast<PythonWorld&>(world).world();
}

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
      .def("add_body", &PythonWorld::addBody, py::arg("body"), py::arg("base_dir") = py::none(),
           "Adds a body given as an entry of a scene's \"bodies\" (a dict; a shipped asset also "
           "as {\"type\": \"asset\", \"name\": ...}); returns its index. Relative mesh paths "
           "resolve against base_dir (default: the current folder).")
      .def("remove_body", &PythonWorld::removeBody, py::arg("body"),
           "Removes a dynamic body; the bodies after it move down one index. Not while "
           "recording.")
      .def("apply_impulse", &PythonWorld::applyImpulse, py::arg("body"), py::arg("point"),
           py::arg("impulse"),
           "An impulse (N s, world) at a world point (m) of a dynamic body; wakes it. "
           "ValueError for the static body 0 or values out of range.")
      .def_static("from_json", &PythonWorld::fromJson, py::arg("text"),
                  py::arg("base_dir") = py::none(), py::arg("threads") = 0,
                  "A world from a scene as JSON text; relative paths resolve against base_dir "
                  "(default: the current folder).")
      .def("reset", &PythonWorld::reset,
           "Back to the state right after loading (bodies added since are removed).")
      .def("save_state", &PythonWorld::saveState,
           "Everything the step depends on, as bytes (World::saveState): stepping after "
           "restore_state is bit-identical to stepping on. Settings (world.solver, gravity, "
           "threads) are not part of it.")
      .def("restore_state", &PythonWorld::restoreState, py::arg("snapshot"),
           "Back to a saved state (bodies added since are removed, missing ones added again). "
           "ValueError for a truncated or damaged snapshot or one of another scene.")
      .def("set_body_state", &PythonWorld::setBodyState, py::arg("body"),
           py::arg("position") = py::none(), py::arg("orientation") = py::none(),
           py::arg("linear_velocity") = py::none(), py::arg("angular_velocity") = py::none(),
           "Sets the given parts of a dynamic body's state (position of the centre of mass, m; "
           "orientation w, x, y, z, unit within 1e-6; velocities m/s and rad/s, world) and wakes "
           "it. ValueError naming the argument for a bad value.")
      .def("set_states", &PythonWorld::setStates, py::arg("indices"),
           py::arg("positions") = py::none(), py::arg("orientations") = py::none(),
           py::arg("linear_velocities") = py::none(), py::arg("angular_velocities") = py::none(),
           "set_body_state for several bodies: arrays with one row per index; all or nothing.")
      .def("apply_force", &PythonWorld::applyForce, py::arg("body"), py::arg("force"),
           py::arg("point") = py::none(),
           "A force (N, world) at a world point (default: the centre of mass), for the next "
           "step only.")
      .def("apply_torque", &PythonWorld::applyTorque, py::arg("body"), py::arg("torque"),
           "A torque (N m, world) for the next step only.")
      .def("set_external_force", &PythonWorld::setExternalForce, py::arg("body"), py::arg("force"),
           py::arg("torque") = Eigen::Vector3d::Zero().eval(),
           "A force (N, at the centre of mass) and torque (N m), world, held on every step until "
           "set again; zeros clear them. A body under a force stays awake.")
      .def_property(
          "gravity", [](PythonWorld& w) { return w.world().gravity(); }, &PythonWorld::setGravity,
          "m/s^2, settable between steps")
      .def_property_readonly(
          "solver", [](PythonWorld& w) { return solverSettingsOf(w.world()); },
          py::keep_alive<0, 1>(),
          "the solver settings (SolverSettings: scene file keys, checked when set)")
      .def("set_material", &PythonWorld::setMaterial, py::arg("body"),
           py::arg("friction") = py::none(), py::arg("restitution") = py::none(),
           "Friction and restitution of a body's contacts from the next step (body 0: the "
           "statics').")
      .def("set_mass", &PythonWorld::setMass, py::arg("body"), py::arg("mass"),
           "A dynamic body's mass (kg); its inertia scales with it.")
      .def("contacts", &PythonWorld::contacts,
           "The last step's contact points (its last substep's), as a dict of numpy arrays: "
           "body_a, body_b (N,), position (N, 3) m, normal (N, 3) unit from A to B, distance "
           "(N,) m (negative: penetration), normal_impulse (N,) N s, friction_impulse (N, 3) "
           "N s, world.")
      .def("body_contact_impulse", &PythonWorld::bodyContactImpulse, py::arg("body"),
           "The sum of the last step's contact impulses on a body (N s, world; its last "
           "substep's).")
      .def("__repr__", &PythonWorld::repr)
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
      .def_property_readonly(
          "body_substeps",
          [](PythonWorld& w) {
            const World& world = w.world();
            py::array_t<int> out(static_cast<py::ssize_t>(world.bodies().size()));
            auto o = out.mutable_unchecked<1>();
            for (py::ssize_t i = 0; i < o.shape(0); ++i) {
              o(i) = world.bodySubsteps(static_cast<int>(i));
            }
            return out;
          },
          "(N,) the substeps each body's island took in the last step (0: asleep or static)")
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
