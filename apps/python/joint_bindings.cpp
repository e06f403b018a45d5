// heavyball.World's joints (engine/world.hpp, docs/joints.md): add_joint in the scene file's
// terms, world.joints as numpy arrays, and the setters of motors, targets, limits, springs and
// friction. Arguments are checked here so that errors name them: ValueError for a bad value,
// IndexError for a body or joint that does not exist, before anything changes.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "apps/python/bindings.hpp"
#include "apps/python/joint_names.hpp"
#include "apps/python/json_bridge.hpp"
#include "dynamics/joint.hpp"
#include "engine/json_read.hpp"
#include "engine/scene.hpp"
#include "engine/scene_parsers.hpp"
#include "engine/world.hpp"

namespace py = pybind11;

namespace hb::python {
namespace {

using json_read::fail;
using json_read::finiteNumber;
using json_read::finiteVector3;
using json_read::nonNegativeNumber;
using json_read::rejectUnknownKeys;
using json_read::required;
using json_read::requireWithinRange;
using json_read::stringValue;
using nlohmann::json;

JointType parseType(const py::object& value) {
  const std::string name = stringValue(toJson(value, "type"), "type");
  for (const JointType type :
       {JointType::Fixed, JointType::Revolute, JointType::Prismatic, JointType::Spherical}) {
    if (name == toString(type)) return type;
  }
  throw py::value_error("type: unknown joint type '" + name +
                        "' (expected fixed, revolute, prismatic or spherical)");
}

/// A world body index, 0 the world: IndexError when the world has no such body.
int bodyIndex(const json& value, const std::string& where, const World& world) {
  if (!value.is_number_integer()) fail(where, "expected a body index (an integer; 0: the world)");
  const long long body = value.get<long long>();
  const auto count = static_cast<long long>(world.bodies().size());
  if (body < 0 || body >= count) {
    throw py::index_error(where + ": no body " + std::to_string(body) + " (the world has " +
                          std::to_string(count) + " bodies; 0 is the world)");
  }
  return static_cast<int>(body);
}

/// (lower, upper) or {"lower": ..., "upper": ...}; None: no limit. `name`: the argument's.
JointLimit parseLimit(const py::object& value, const std::string& name = "limit") {
  if (value.is_none()) return {};
  const json limit = toJson(value, name);
  JointLimit out{true, 0.0, 0.0};
  if (limit.is_object()) {
    rejectUnknownKeys(limit, name, {"lower", "upper"});
    out.lower = finiteNumber(required(limit, name, "lower"), name + ".lower");
    out.upper = finiteNumber(required(limit, name, "upper"), name + ".upper");
  } else if (limit.is_array() && limit.size() == 2) {
    out.lower = finiteNumber(limit[0], name + "[0]");
    out.upper = finiteNumber(limit[1], name + "[1]");
  } else {
    fail(name, "expected (lower, upper) or {\"lower\": ..., \"upper\": ...}");
  }
  if (out.lower > out.upper) fail(name, "lower must not exceed upper");
  return out;
}

/// As a scene file's "motor" and "spring" (engine/scene_parsers.hpp); None: none.
JointMotor parseMotor(const py::object& value) {
  return value.is_none() ? JointMotor{}
                         : scene_parsers::parseJointMotor(toJson(value, "motor"), "motor");
}

JointSpring parseSpring(const py::object& value) {
  return value.is_none() ? JointSpring{}
                         : scene_parsers::parseJointSpring(toJson(value, "spring"), "spring");
}

/// The World's own checks (std::invalid_argument "addJoint: ...") under the Python name.
template <typename F>
auto renamed(const char* cppName, const char* pythonName, F&& call) {
  try {
    return call();
  } catch (const std::invalid_argument& e) {
    std::string message = e.what();
    if (message.rfind(cppName, 0) == 0) message = pythonName + message.substr(strlen(cppName));
    throw py::value_error(message);
  }
}

int addJoint(py::object self, const py::object& type, const py::object& bodies,
             const py::object& anchor, const py::object& axis, const py::object& limit,
             const py::object& motor, const py::object& spring, const py::object& friction,
             const py::object& twist) {
  World& world = worldOf(self);
  JointDescription d;
  d.type = parseType(type);
  const json pair = toJson(bodies, "bodies");
  if (!pair.is_array() || pair.size() != 2) {
    fail("bodies", "expected two body indices (A, B; 0: the world)");
  }
  d.bodyA = bodyIndex(pair[0], "bodies[0]", world);
  d.bodyB = bodyIndex(pair[1], "bodies[1]", world);
  if (d.bodyA == d.bodyB) fail("bodies", "a joint needs two different bodies");
  d.anchor = finiteVector3(toJson(anchor, "anchor"), "anchor");
  requireWithinRange(d.anchor, "anchor");
  d.axis = finiteVector3(toJson(axis, "axis"), "axis");
  if (!(d.axis.norm() > 1e-9)) fail("axis", "must not be zero");
  d.axis.normalize();
  d.limit = parseLimit(limit);
  d.motor = parseMotor(motor);
  d.spring = parseSpring(spring);
  d.friction = nonNegativeNumber(toJson(friction, "friction"), "friction");
  d.twist = parseLimit(twist, "twist");
  if (!hasFreeAxis(d.type)) {
    // A spherical joint's limit is a cone, and its spring, friction and motor act on its turn
    // (World::addJoint checks them).
    const bool spherical = d.type == JointType::Spherical;
    const bool given[] = {!limit.is_none() && !spherical, !motor.is_none() && !spherical,
                          !spring.is_none() && !spherical, d.friction != 0 && !spherical};
    const char* names[] = {"limit", "motor", "spring", "friction"};
    for (int k = 0; k < 4; ++k) {
      if (given[k]) {
        fail(names[k], std::string("a ") + toString(d.type) + " joint has none");
      }
    }
  }
  if (d.twist.enabled && d.type != JointType::Spherical) {
    fail("twist", "only a spherical joint has a twist limit");
  }
  return renamed("addJoint", "add_joint", [&] { return world.addJoint(d); });
}

void requireFinite(double value, const char* name, bool nonNegative = false) {
  if (!std::isfinite(value)) throw py::value_error(std::string(name) + ": not a finite number");
  if (nonNegative && value < 0.0) {
    throw py::value_error(std::string(name) + ": expected a number >= 0");
  }
}

/// A limit, spring, friction or motor goes on a revolute or prismatic joint's axis, or on a
/// spherical joint (its cone, its turn).
void requireLimitable(const World& world, int joint) {
  if (jointOf(world, joint, "joint").type != JointType::Spherical) axisJoint(world, joint, "joint");
}

/// A motor target: a number, or three (a spherical joint's, along its frame A's axes).
void readTarget(const py::object& value, const char* name, double& scalar, double* vector) {
  scene_parsers::parseMotorTarget(toJson(value, name), name, scalar, vector);
}

void setJointMotor(py::object self, int joint, const py::object& velocity,
                   std::optional<double> maxForce, const py::object& position, double stiffness,
                   double damping, bool enabled) {
  World& world = worldOf(self);
  requireLimitable(world, joint);
  JointMotor motor;
  motor.enabled = enabled;
  readTarget(velocity, "velocity", motor.targetVelocity, motor.targetSpin);
  if (enabled && !maxForce) {
    throw py::value_error("max_force: required for an enabled motor (N m or N)");
  }
  motor.maxForce = maxForce.value_or(0.0);
  requireFinite(motor.maxForce, "max_force", true);
  requireFinite(stiffness, "stiffness", true);
  requireFinite(damping, "damping", true);
  motor.stiffness = stiffness;
  motor.damping = damping;
  if (!position.is_none()) {
    readTarget(position, "position", motor.targetPosition, motor.targetTurn);
    if (!motor.servo()) throw py::value_error("position: a position target needs a stiffness > 0");
  }
  renamed("setJointMotor", "set_joint_motor", [&] { world.setJointMotor(joint, motor); });
}

void setJointLimit(py::object self, int joint, double lower, double upper) {
  World& world = worldOf(self);
  requireLimitable(world, joint);
  requireFinite(lower, "lower");
  requireFinite(upper, "upper");
  if (lower > upper) throw py::value_error("lower: must not exceed upper");
  renamed("setJointLimit", "set_joint_limit", [&] {
    world.setJointLimit(joint, JointLimit{true, lower, upper});
  });
}

void clearJointLimit(py::object self, int joint) {
  World& world = worldOf(self);
  requireLimitable(world, joint);
  world.setJointLimit(joint, JointLimit{});
}

void setJointTwist(py::object self, int joint, double lower, double upper) {
  World& world = worldOf(self);
  requireFinite(lower, "lower");
  requireFinite(upper, "upper");
  if (lower > upper) throw py::value_error("lower: must not exceed upper");
  renamed("setJointTwist", "set_joint_twist", [&] {
    world.setJointTwist(joint, JointLimit{true, lower, upper});
  });
}

void setJointSpring(py::object self, int joint, double stiffness, double damping, double rest) {
  World& world = worldOf(self);
  requireLimitable(world, joint);
  requireFinite(stiffness, "stiffness", true);
  requireFinite(damping, "damping", true);
  requireFinite(rest, "rest");
  renamed("setJointSpring", "set_joint_spring", [&] {
    world.setJointSpring(joint, JointSpring{stiffness, damping, rest});
  });
}

void setJointFriction(py::object self, int joint, double friction) {
  World& world = worldOf(self);
  requireLimitable(world, joint);
  requireFinite(friction, "friction", true);
  renamed("setJointFriction", "set_joint_friction",
          [&] { world.setJointFriction(joint, friction); });
}

int findJoint(py::object self, const std::string& name) {
  const int joint = worldOf(self).findJoint(name);
  if (joint < 0) throw py::key_error("find_joint: no joint named '" + name + "'");
  return joint;
}

}  // namespace

const Joint& jointOf(const World& world, long long joint, const std::string& where) {
  const auto count = static_cast<long long>(world.joints().size());
  if (joint < 0 || joint >= count) {
    throw py::index_error(where + ": no joint " + std::to_string(joint) + " (the world has " +
                          std::to_string(count) + " joints)");
  }
  return world.joints()[joint];
}

const Joint& axisJoint(const World& world, long long joint, const std::string& where) {
  const Joint& j = jointOf(world, joint, where);
  if (!hasFreeAxis(j.type)) {
    throw py::value_error(where + ": joint " + std::to_string(joint) + " is " + toString(j.type) +
                          "; only revolute and prismatic joints have a motor, limit, spring or "
                          "friction");
  }
  return j;
}

// set_joint_targets and world.joints: apps/python/joint_states.cpp.
void addJointBindings(py::module_& m) {
  py::object world = m.attr("World");
  const auto method = [&](const char* name, auto function, const char* doc, auto... args) {
    world.attr(name) =
        py::cpp_function(function, py::name(name), py::is_method(world),
                         py::sibling(py::getattr(world, name, py::none())), py::doc(doc), args...);
  };
  method("add_joint", &addJoint,
         "Adds a joint at the bodies' current poses, given in the world as a scene file's "
         "\"joints\" entry (docs/scenes.md): type \"fixed\", \"revolute\", \"prismatic\" or "
         "\"spherical\"; bodies (A, B), world body indices, 0 the world; anchor (m) and axis "
         "(the hinge or slide axis, normalised); limit (lower, upper) or {\"lower\", \"upper\"} "
         "(rad or m, from where the joint starts); motor {\"max_force\" (required), "
         "\"velocity\", \"position\", \"stiffness\", \"damping\"}; spring {\"stiffness\", "
         "\"damping\", \"rest\"}; friction (N m or N). A spherical joint's limit is a cone "
         "about the axis (lower 0, upper the half-angle), its twist (lower, upper) a limit of "
         "its turn about it (rad), and its spring and friction act on its turn (the spring "
         "towards the frames as they were added, rest 0). Returns the joint's index. ValueError "
         "naming the argument for a bad value, IndexError for a body that does not exist.",
         py::arg("type"), py::arg("bodies"), py::arg("anchor"),
         py::arg("axis") = py::make_tuple(0.0, 0.0, 1.0), py::arg("limit") = py::none(),
         py::arg("motor") = py::none(), py::arg("spring") = py::none(), py::arg("friction") = 0.0,
         py::arg("twist") = py::none());
  method("set_joint_motor", &setJointMotor,
         "Replaces a revolute or prismatic joint's motor: a velocity motor (stiffness and "
         "damping 0) drives the joint to `velocity` (rad/s or m/s) with at most `max_force` (N m "
         "or N); with a stiffness or damping it is a PD servo towards `position` (rad or m) and "
         "`velocity`. enabled=False turns it off (max_force may then be left out). On a "
         "spherical joint the targets are three numbers along its frame A's axes: `position` "
         "the turn (a rotation vector, rad), `velocity` the spin (rad/s), and `max_force` "
         "bounds the torque's magnitude (N m).",
         py::arg("joint"), py::arg("velocity") = py::float_(0.0), py::arg("max_force") = py::none(),
         py::arg("position") = py::none(), py::arg("stiffness") = 0.0, py::arg("damping") = 0.0,
         py::arg("enabled") = true);
  method("set_joint_limit", &setJointLimit,
         "Limits a revolute (rad) or prismatic (m) joint's position to [lower, upper]; a "
         "spherical joint's limit is a cone about its axis (lower 0, upper the half-angle).",
         py::arg("joint"), py::arg("lower"), py::arg("upper"));
  method("clear_joint_limit", &clearJointLimit, "Removes a joint's limit.", py::arg("joint"));
  method("set_joint_twist", &setJointTwist,
         "Limits a spherical joint's twist, its turn about its axis, to [lower, upper] (rad, "
         "within [-pi, pi]).",
         py::arg("joint"), py::arg("lower"), py::arg("upper"));
  method("set_joint_spring", &setJointSpring,
         "A passive spring-damper on a revolute or prismatic joint: stiffness (rest - position) "
         "- damping velocity (N m/rad and N m s/rad, or N/m and N s/m); on a spherical joint "
         "-stiffness turn - damping spin (N m/rad, N m s/rad; rest 0: the frames as added); "
         "zeros remove it.",
         py::arg("joint"), py::arg("stiffness") = 0.0, py::arg("damping") = 0.0,
         py::arg("rest") = 0.0);
  method("set_joint_friction", &setJointFriction,
         "Dry friction on a revolute, prismatic or spherical joint: the largest force or torque "
         "(N m or N) it resists motion with; 0 removes it.",
         py::arg("joint"), py::arg("friction"));
  method("find_joint", &findJoint,
         "The index of the joint of that name (a URDF joint's name, with its articulation's "
         "prefix); KeyError when there is none.",
         py::arg("name"));
  addJointStateBindings(m);
}

}  // namespace hb::python
