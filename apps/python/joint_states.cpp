// heavyball.World's joint state as numpy arrays (world.joints, a JointStates), and
// set_joint_targets: the motor targets of many joints at once, as a controller sets them every
// step.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "apps/python/bindings.hpp"
#include "apps/python/joint_names.hpp"
#include "apps/python/json_bridge.hpp"
#include "dynamics/joint.hpp"
#include "engine/world.hpp"

namespace py = pybind11;

namespace hb::python {
namespace {

/// The arrays of world.joints, in the order the stubs and docs list them.
constexpr const char* kArrays[] = {"bodies",
                                   "position",
                                   "velocity",
                                   "error",
                                   "target_position",
                                   "target_velocity",
                                   "motor_enabled",
                                   "motor_force",
                                   "spring_force",
                                   "friction_force",
                                   "lower_force",
                                   "upper_force",
                                   "force",
                                   "anchor",
                                   "axis",
                                   "turn",
                                   "spin",
                                   "target_turn",
                                   "target_spin"};

/// The joints at one instant: copies, unchanged by later steps.
struct JointStates {
  py::ssize_t count = 0;
  py::list type;
  py::list name;
  py::dict arrays;
};

template <typename T>
py::array_t<T> readOnly(py::array_t<T> array) {
  array.attr("setflags")(py::arg("write") = false);
  return array;
}

JointStates jointStates(py::object self) {
  const World& world = worldOf(self);
  const auto joints = world.joints();
  const auto& bodies = world.rigidBodies();
  const auto n = static_cast<py::ssize_t>(joints.size());
  py::array_t<int> bodyPair({n, py::ssize_t{2}});
  py::array_t<bool> motorEnabled(n);
  std::vector<py::array_t<double>> scalars;
  for (int k = 0; k < 10; ++k) scalars.emplace_back(n);
  py::array_t<double> force({n, py::ssize_t{6}}), anchor({n, py::ssize_t{3}}),
      axis({n, py::ssize_t{3}});
  // Three per joint: the turn and spin of B's frame from A's, the motor's targets for them.
  std::vector<py::array_t<double>> triples;
  for (int k = 0; k < 4; ++k) triples.emplace_back(std::vector<py::ssize_t>{n, 3});
  auto ab = bodyPair.mutable_unchecked<2>();
  auto me = motorEnabled.mutable_unchecked<1>();
  auto f = force.mutable_unchecked<2>();
  auto an = anchor.mutable_unchecked<2>();
  auto ax = axis.mutable_unchecked<2>();
  JointStates out;
  out.count = n;
  for (py::ssize_t i = 0; i < n; ++i) {
    const Joint& j = joints[i];
    const RigidBody& a = bodies[j.bodyA];
    const RigidBody& b = bodies[j.bodyB];
    out.type.append(toString(j.type));
    out.name.append(j.name);
    ab(i, 0) = j.bodyA;
    ab(i, 1) = j.bodyB;
    me(i) = j.motor.enabled;
    const double values[] = {jointPosition(j, a, b), jointVelocity(j, a, b),
                             jointError(j, a, b),    j.motor.targetPosition,
                             j.motor.targetVelocity, j.motorForce,
                             j.springForce,          j.frictionForce,
                             j.lowerForce,           j.upperForce};
    for (size_t k = 0; k < scalars.size(); ++k) scalars[k].mutable_at(i) = values[k];
    for (int k = 0; k < 6; ++k) f(i, k) = j.force[k];
    const Pose frame = jointFrameA(j, a);
    const Eigen::Vector3d z = frame.q * Eigen::Vector3d::UnitZ();
    for (int k = 0; k < 3; ++k) {
      an(i, k) = frame.p[k];
      ax(i, k) = z[k];
    }
    const Eigen::Vector3d turn = jointTurn(j, a, b), spin = jointSpin(j, a, b);
    for (int k = 0; k < 3; ++k) {
      const double values3[] = {turn[k], spin[k], j.motor.targetTurn[k], j.motor.targetSpin[k]};
      for (size_t t = 0; t < triples.size(); ++t) triples[t].mutable_at(i, k) = values3[t];
    }
  }
  out.arrays["bodies"] = readOnly(bodyPair);
  const char* scalarNames[] = {"position",        "velocity",    "error",        "target_position",
                               "target_velocity", "motor_force", "spring_force", "friction_force",
                               "lower_force",     "upper_force"};
  for (size_t k = 0; k < scalars.size(); ++k) out.arrays[scalarNames[k]] = readOnly(scalars[k]);
  out.arrays["motor_enabled"] = readOnly(motorEnabled);
  out.arrays["force"] = readOnly(force);
  out.arrays["anchor"] = readOnly(anchor);
  out.arrays["axis"] = readOnly(axis);
  const char* tripleNames[] = {"turn", "spin", "target_turn", "target_spin"};
  for (size_t t = 0; t < triples.size(); ++t) out.arrays[tripleNames[t]] = readOnly(triples[t]);
  return out;
}

/// The joint `joint` if it takes the targets of the call: scalar ones on a free axis, or a
/// spherical joint's three-valued ones (`turns`); IndexError or ValueError naming `where`.
void requireTargetsFit(const World& world, long long joint, const std::string& where, bool turns) {
  if (!turns) {
    axisJoint(world, joint, where);
    return;
  }
  const JointType type = jointOf(world, joint, where).type;
  if (type != JointType::Spherical) {
    throw py::value_error(where + ": joint " + std::to_string(joint) + " is " + toString(type) +
                          "; turns and spins are a spherical joint's targets (positions and "
                          "velocities a revolute or prismatic joint's)");
  }
}

/// The joints set_joint_targets sets: `indices`, or every joint.
std::vector<int> targetJoints(const World& world, const py::object& indices, bool turns) {
  std::vector<int> out;
  if (indices.is_none()) {
    for (size_t i = 0; i < world.joints().size(); ++i) {
      requireTargetsFit(world, static_cast<long long>(i),
                        "set_joint_targets (every joint; pass indices to choose some)", turns);
      out.push_back(static_cast<int>(i));
    }
    return out;
  }
  const nlohmann::json list = toJson(indices, "indices");
  if (!list.is_array()) throw py::value_error("indices: expected a sequence of joint indices");
  for (size_t k = 0; k < list.size(); ++k) {
    const std::string where = "indices[" + std::to_string(k) + "]";
    if (!list[k].is_number_integer()) {
      throw py::value_error(where + ": expected a joint index (an integer)");
    }
    const long long joint = list[k].get<long long>();
    requireTargetsFit(world, joint, where, turns);
    if (std::find(out.begin(), out.end(), joint) != out.end()) {
      throw py::value_error(where + ": joint " + std::to_string(joint) + " is listed twice");
    }
    out.push_back(static_cast<int>(joint));
  }
  return out;
}

/// `width` finite values per target joint (one, or three for turns and spins), or none.
std::optional<std::vector<double>> targetValues(const py::object& values, size_t n, int width,
                                                const char* name) {
  if (values.is_none()) return std::nullopt;
  const auto array = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(values);
  if (!array) throw py::value_error(std::string(name) + ": expected a sequence of numbers");
  const bool fits = width == 1 ? array.ndim() == 1 && static_cast<size_t>(array.shape(0)) == n
                               : array.ndim() == 2 && static_cast<size_t>(array.shape(0)) == n &&
                                     array.shape(1) == width;
  if (!fits) {
    const std::string shape =
        width == 1 ? std::to_string(n) + " values, one per joint set"
                   : "an array of shape (" + std::to_string(n) + ", 3), a row per joint set";
    throw py::value_error(std::string(name) + ": expected " + shape + ", got an array of " +
                          std::to_string(array.size()) + " in " + std::to_string(array.ndim()) +
                          " dimension(s)");
  }
  std::vector<double> out(array.data(), array.data() + n * width);
  for (size_t k = 0; k < out.size(); ++k) {
    if (!std::isfinite(out[k])) {
      const std::string at = width == 1
                                 ? std::to_string(k)
                                 : std::to_string(k / width) + ", " + std::to_string(k % width);
      throw py::value_error(std::string(name) + "[" + at + "]: not a finite number");
    }
  }
  return out;
}

void setJointTargets(py::object self, const py::object& positions, const py::object& velocities,
                     const py::object& indices, const py::object& turns, const py::object& spins) {
  World& world = worldOf(self);
  const bool scalars = !positions.is_none() || !velocities.is_none();
  const bool vectors = !turns.is_none() || !spins.is_none();
  if (!scalars && !vectors) {
    throw py::value_error(
        "set_joint_targets: give positions, velocities or both (or a spherical joint's turns, "
        "spins or both)");
  }
  if (scalars && vectors) {
    throw py::value_error(
        "set_joint_targets: positions and velocities (revolute and prismatic joints) and turns "
        "and spins (spherical joints) go in separate calls");
  }
  const std::vector<int> joints = targetJoints(world, indices, vectors);
  const int width = vectors ? 3 : 1;
  const char* positionName = vectors ? "turns" : "positions";
  const auto q = targetValues(vectors ? turns : positions, joints.size(), width, positionName);
  const auto v = targetValues(vectors ? spins : velocities, joints.size(), width,
                              vectors ? "spins" : "velocities");
  // Every joint is checked before any changes.
  for (const int joint : joints) {
    const JointMotor& motor = world.joints()[joint].motor;
    const std::string name = "joint " + std::to_string(joint);
    if (!(motor.maxForce > 0.0)) {
      throw py::value_error(name +
                            ": its motor has max_force 0 and would not move it; set_joint_motor(" +
                            std::to_string(joint) + ", max_force=...) first");
    }
    if (q && !(motor.stiffness > 0.0)) {
      throw py::value_error(std::string(positionName) + ": " + name +
                            "'s motor has no stiffness, so a " + (vectors ? "turn" : "position") +
                            " target would do nothing; set_joint_motor(" + std::to_string(joint) +
                            ", max_force=..., stiffness=...) first");
    }
  }
  for (size_t k = 0; k < joints.size(); ++k) {
    const JointMotor& motor = world.joints()[joints[k]].motor;
    if (vectors) {
      using Eigen::Vector3d;
      const Vector3d turn = q ? Vector3d((*q).data() + 3 * k) : Vector3d(motor.targetTurn);
      const Vector3d spin = v ? Vector3d((*v).data() + 3 * k) : Vector3d(motor.targetSpin);
      world.setJointTargets(joints[k], turn, spin);
    } else {
      world.setJointTargets(joints[k], q ? (*q)[k] : motor.targetPosition,
                            v ? (*v)[k] : motor.targetVelocity);
    }
  }
}

}  // namespace

void addJointStateBindings(py::module_& m) {
  auto states =
      py::class_<JointStates>(m, "JointStates", R"(The world's joints at one instant (world.joints).

One entry per joint, in the order they were added (scene joints first): `type` a list of names
("fixed", "revolute", "prismatic", "spherical"), `name` the joints' names ("" when unnamed; a
URDF's joint names) and read-only numpy arrays, copies that later
steps leave unchanged. len() and `count` are the number of joints; to_dict() gives them all.)");
  states.def_readonly("count", &JointStates::count)
      .def_readonly("type", &JointStates::type)
      .def_readonly("name", &JointStates::name)
      .def("__len__", [](const JointStates& s) { return s.count; })
      .def(
          "to_dict",
          [](const JointStates& s) {
            py::dict out;
            out["type"] = s.type;
            out["name"] = s.name;
            for (const char* name : kArrays) out[name] = s.arrays[name];
            return out;
          },
          "every entry as a dict of the names above")
      .def("__repr__", [](const JointStates& s) {
        return "<heavyball.JointStates: " + std::to_string(s.count) + " joints>";
      });
  const char* docs[] = {
      "(n, 2) int32: the world body indices A, B (0: the world)",
      "(n,) rad (revolute) or m (prismatic): the joint's position, zero where it was added; 0 "
      "for fixed and spherical joints",
      "(n,) rad/s or m/s: the rate of position",
      "(n,) m or rad: how far the joint is from holding",
      "(n,) rad or m: the motor's position target",
      "(n,) rad/s or m/s: the motor's velocity target",
      "(n,) bool: whether the motor is on",
      "(n,) N m or N: the motor's effort over the last step",
      "(n,) N m or N: the spring's force over the last step",
      "(n,) N m or N: the friction's force over the last step",
      "(n,) N m or N, >= 0: the lower limit's push over the last step",
      "(n,) N m or N, >= 0: the upper limit's push over the last step",
      "(n, 6): the held rows' reaction on B (N along the world axes, then N m about the joint "
      "frame's axes; docs/joints.md)",
      "(n, 3) m: the joint's origin in the world (on body A)",
      "(n, 3): the joint's axis in the world (A's frame z)",
      "(n, 3) rad: B's joint frame's turn from A's, a rotation vector along A's frame axes (a "
      "spherical joint's position)",
      "(n, 3) rad/s: B's spin relative to A along A's frame axes",
      "(n, 3) rad: a spherical joint's motor's orientation target (a rotation vector); 0 for "
      "the others",
      "(n, 3) rad/s: a spherical joint's motor's spin target; 0 for the others"};
  for (size_t k = 0; k < std::size(kArrays); ++k) {
    const std::string name = kArrays[k];
    states.def_property_readonly(
        kArrays[k], [name](const JointStates& s) { return s.arrays[name.c_str()]; }, docs[k]);
  }

  py::object world = m.attr("World");
  const py::object property = py::module_::import("builtins").attr("property");
  world.attr("joints") =
      property(py::cpp_function(&jointStates, py::is_method(world)), py::none(), py::none(),
               "the joints' state now, a JointStates of numpy arrays (copies)");
  world.attr("joint_count") =
      property(py::cpp_function([](py::object self) { return worldOf(self).joints().size(); },
                                py::is_method(world)),
               py::none(), py::none(), "the number of joints");
  world.attr("set_joint_targets") = py::cpp_function(
      &setJointTargets, py::name("set_joint_targets"), py::is_method(world),
      py::arg("positions") = py::none(), py::arg("velocities") = py::none(),
      py::arg("indices") = py::none(), py::arg("turns") = py::none(), py::arg("spins") = py::none(),
      py::doc("Sets the motor targets of the joints in `indices` (default: every joint), one "
              "value per joint: positions (rad or m; the motor needs a stiffness) and velocities "
              "(rad/s or m/s) of revolute and prismatic joints, or, in a call of their own, "
              "spherical joints' turns (rotation vectors along the joint frame A's axes, rad; "
              "the motor needs a stiffness) and spins (rad/s), arrays of shape (n, 3); and turns "
              "their motors on, keeping gains and force limits. Leaving one of a pair out keeps "
              "those targets. Everything is checked before anything changes: ValueError for a "
              "length or shape mismatch, a non-finite value, a joint of the other kind or whose "
              "motor could not act on the target; IndexError for no such joint."));
}

}  // namespace hb::python
