// A scene file's joints, articulations (URDF robots) and joint targets (docs/scenes.md).

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>
#include <string_view>

#include "collision/portable_math.hpp"
#include "engine/scene_parsers.hpp"
#include "engine/urdf_articulation.hpp"

namespace hb {

namespace fs = std::filesystem;
using namespace json_read;

namespace {

int jointBody(const json& value, const std::string& where, std::size_t sceneBodies) {
  if (value.is_string() && value.get<std::string>() == "world") return 0;
  if (sceneBodies == 0) fail(where, "expected \"world\": the scene has no bodies");
  return static_cast<int>(integer(value, where, 0, static_cast<long long>(sceneBodies) - 1)) + 1;
}

/// A number under `key` of `value`, or `otherwise` when the key is absent.
double optionalNumber(const json& value, const char* key, const std::string& where,
                      double otherwise, bool nonNegative) {
  const json* v = find(value, key);
  if (!v) return otherwise;
  return nonNegative ? nonNegativeNumber(*v, child(where, key))
                     : finiteNumber(*v, child(where, key));
}

/// The limit under `key` ({"lower", "upper"}), or none when the key is absent.
JointLimit optionalLimit(const json& value, const char* key, const std::string& where) {
  const json* v = find(value, key);
  JointLimit limit;
  if (!v) return limit;
  const std::string at = child(where, key);
  requireObject(*v, at);
  rejectUnknownKeys(*v, at, {"lower", "upper"});
  limit.enabled = true;
  for (const char* bound : {"lower", "upper"}) {
    if (!find(*v, bound)) fail(child(at, bound), "missing");
  }
  limit.lower = finiteNumber(v->at("lower"), child(at, "lower"));
  limit.upper = finiteNumber(v->at("upper"), child(at, "upper"));
  if (limit.lower > limit.upper) fail(at, "lower must not exceed upper");
  return limit;
}

/// A joint's limit, twist, motor, spring and friction, as its type takes them.
void parseJointDrives(const json& value, const std::string& where, JointDescription& joint) {
  // A spherical joint's limit is a cone about `axis`, its twist limit a turn about it, and its
  // spring and friction act on its turn.
  const bool spherical = joint.type == JointType::Spherical;
  const bool hasAxis = hasFreeAxis(joint.type);
  for (const char* key : {"limit", "motor", "spring", "friction"}) {
    if (find(value, key) && !hasAxis && !spherical) {
      fail(child(where, key), "only a revolute, prismatic or spherical joint has one");
    }
  }
  if (find(value, "twist") && !spherical) {
    fail(child(where, "twist"), "only a spherical joint has one");
  }
  joint.limit = optionalLimit(value, "limit", where);
  if (spherical && joint.limit.enabled &&
      (joint.limit.lower != 0.0 || !(joint.limit.upper > 0.0) ||
       !(joint.limit.upper < std::numbers::pi))) {
    fail(child(where, "limit"),
         "a spherical joint's limit is a cone about its axis: lower 0, upper its half-angle "
         "in (0, pi) rad");
  }
  joint.twist = optionalLimit(value, "twist", where);
  if (joint.twist.enabled &&
      !(joint.twist.lower >= -std::numbers::pi && joint.twist.upper <= std::numbers::pi)) {
    fail(child(where, "twist"), "a twist limit lies within [-pi, pi] rad");
  }
  if (const json* v = find(value, "motor")) {
    const std::string at = child(where, "motor");
    joint.motor = scene_parsers::parseJointMotor(*v, at);
    // Three targets on a spherical joint, one on the others.
    for (const char* key : {"position", "velocity"}) {
      const json* target = find(*v, key);
      if (target && target->is_array() != spherical) {
        fail(child(at, key), spherical ? "a spherical joint's target is three numbers (rad or "
                                         "rad/s along its frame's axes)"
                                       : "expected a number");
      }
    }
  }
  if (const json* v = find(value, "spring")) {
    joint.spring = scene_parsers::parseJointSpring(*v, child(where, "spring"));
    if (spherical && joint.spring.restPosition != 0.0) {
      fail(child(child(where, "spring"), "rest"),
           "a spherical joint's spring pulls its frames together: no rest position");
    }
  }
  if (const json* v = find(value, "friction")) {
    joint.friction = nonNegativeNumber(*v, child(where, "friction"));
  }
}

}  // namespace

void scene_parsers::parseMotorTarget(const json& value, const std::string& where, double& scalar,
                                     double* vector) {
  if (value.is_array()) {
    const Eigen::Vector3d three = finiteVector3(value, where);
    for (int k = 0; k < 3; ++k) vector[k] = three[k];
  } else {
    scalar = finiteNumber(value, where);
  }
}

JointMotor scene_parsers::parseJointMotor(const json& value, const std::string& where) {
  requireObject(value, where);
  rejectUnknownKeys(value, where, {"velocity", "max_force", "position", "stiffness", "damping"});
  JointMotor motor;
  motor.enabled = true;
  motor.maxForce =
      nonNegativeNumber(required(value, where, "max_force"), child(where, "max_force"));
  const auto target = [&](const char* key, double& scalar, double* vector) {
    if (const json* v = find(value, key)) parseMotorTarget(*v, child(where, key), scalar, vector);
  };
  target("velocity", motor.targetVelocity, motor.targetSpin);
  target("position", motor.targetPosition, motor.targetTurn);
  motor.stiffness = optionalNumber(value, "stiffness", where, 0.0, true);
  motor.damping = optionalNumber(value, "damping", where, 0.0, true);
  if (find(value, "position") && !motor.servo()) {
    fail(child(where, "position"), "a position target needs a stiffness > 0");
  }
  return motor;
}

JointSpring scene_parsers::parseJointSpring(const json& value, const std::string& where) {
  requireObject(value, where);
  rejectUnknownKeys(value, where, {"stiffness", "damping", "rest"});
  JointSpring spring;
  spring.stiffness = optionalNumber(value, "stiffness", where, 0.0, true);
  spring.damping = optionalNumber(value, "damping", where, 0.0, true);
  spring.restPosition = optionalNumber(value, "rest", where, 0.0, false);
  return spring;
}

JointDescription scene_parsers::parseJoint(const json& value, const std::string& where,
                                           std::size_t sceneBodies) {
  requireObject(value, where);
  rejectUnknownKeys(value, where,
                    {"name", "type", "bodies", "anchor", "axis", "limit", "twist", "motor",
                     "spring", "friction"});
  JointDescription joint;
  if (const json* v = find(value, "name")) joint.name = stringValue(*v, child(where, "name"));
  const std::string typeKey = child(where, "type");
  const json* type = find(value, "type");
  if (!type) fail(typeKey, "missing (fixed, revolute, prismatic or spherical)");
  const std::string name = stringValue(*type, typeKey);
  if (name == "fixed") {
    joint.type = JointType::Fixed;
  } else if (name == "revolute") {
    joint.type = JointType::Revolute;
  } else if (name == "prismatic") {
    joint.type = JointType::Prismatic;
  } else if (name == "spherical") {
    joint.type = JointType::Spherical;
  } else {
    fail(typeKey, "unknown joint type '" + name + "' (fixed, revolute, prismatic or spherical)");
  }
  const std::string bodiesKey = child(where, "bodies");
  const json* bodies = find(value, "bodies");
  if (!bodies || !bodies->is_array() || bodies->size() != 2) {
    fail(bodiesKey, "expected two bodies: \"world\" or an index into the scene's bodies");
  }
  joint.bodyA = jointBody((*bodies)[0], indexed(bodiesKey, 0), sceneBodies);
  joint.bodyB = jointBody((*bodies)[1], indexed(bodiesKey, 1), sceneBodies);
  if (joint.bodyA == joint.bodyB) fail(bodiesKey, "a joint needs two different bodies");
  const json* anchor = find(value, "anchor");
  if (!anchor) fail(child(where, "anchor"), "missing (m, world)");
  joint.anchor = finiteVector3(*anchor, child(where, "anchor"));
  if (const json* v = find(value, "axis")) {
    const Eigen::Vector3d axis = finiteVector3(*v, child(where, "axis"));
    if (!(axis.norm() > 1e-9)) fail(child(where, "axis"), "must not be zero");
    joint.axis = axis.normalized();
  }
  parseJointDrives(value, where, joint);
  return joint;
}

void scene_parsers::parseArticulation(const json& value, const std::string& where,
                                      const fs::path& baseDir, MeshHullCache& meshes,
                                      SceneDescription& scene) {
  requireObject(value, where);
  rejectUnknownKeys(value, where, {"urdf", "pose", "fixed_base", "prefix", "drive", "material"});
  ArticulationDescription articulation;
  const std::string file = stringValue(required(value, where, "urdf"), child(where, "urdf"));
  articulation.urdf = (baseDir / file).lexically_normal();
  std::error_code error;
  if (!fs::is_regular_file(articulation.urdf, error)) {
    fail(child(where, "urdf"), "no such file: " + articulation.urdf.string());
  }
  if (const json* v = find(value, "pose")) articulation.pose = parsePose(*v, child(where, "pose"));
  if (const json* v = find(value, "fixed_base")) {
    articulation.fixedBase = boolean(*v, child(where, "fixed_base"));
  }
  if (const json* v = find(value, "prefix")) {
    articulation.prefix = stringValue(*v, child(where, "prefix"));
  }
  if (const json* v = find(value, "drive")) {
    const std::string at = child(where, "drive");
    requireObject(*v, at);
    rejectUnknownKeys(*v, at, {"stiffness", "damping"});
    articulation.drive.stiffness = optionalNumber(*v, "stiffness", at, 0.0, true);
    articulation.drive.damping = optionalNumber(*v, "damping", at, 0.0, true);
  }
  if (const json* v = find(value, "material")) {
    articulation.material = parseMaterial(*v, child(where, "material"));
  }
  try {
    addArticulation(articulation, meshes, scene);
  } catch (const UrdfError& e) {
    fail(where, e.what());
  }
}

void scene_parsers::requireUniqueJointNames(const SceneDescription& scene,
                                            const std::string& where) {
  std::set<std::string> names;
  for (const JointDescription& joint : scene.joints) {
    if (!joint.name.empty() && !names.insert(joint.name).second) {
      fail(where,
           "two joints are named '" + joint.name + "' (give each articulation its own \"prefix\")");
    }
  }
}

std::vector<JointTargetSchedule> scene_parsers::parseJointTargets(const json& value,
                                                                  const std::string& where,
                                                                  const SceneDescription& scene) {
  requireArray(value, where);
  std::vector<JointTargetSchedule> schedules;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const std::string at = indexed(where, i);
    requireObject(value[i], at);
    rejectUnknownKeys(value[i], at, {"joint", "keys"});
    JointTargetSchedule schedule;
    schedule.joint = stringValue(required(value[i], at, "joint"), child(at, "joint"));
    const auto joint =
        std::find_if(scene.joints.begin(), scene.joints.end(),
                     [&](const JointDescription& j) { return j.name == schedule.joint; });
    if (joint == scene.joints.end())
      fail(child(at, "joint"), "no joint named '" + schedule.joint + "'");
    if (!joint->motor.enabled) {
      fail(child(at, "joint"), "joint '" + schedule.joint + "' has no motor to take targets");
    }
    const bool turns = joint->type == JointType::Spherical;
    const char* expected =
        turns ? "expected [time (s), [turn x, y, z] (rad)]" : "expected [time (s), position]";
    const std::string keysAt = child(at, "keys");
    const json& keys = required(value[i], at, "keys");
    requireArray(keys, keysAt);
    if (keys.empty()) fail(keysAt, std::string(expected) + ", at least one");
    double last = -1.0;
    for (std::size_t k = 0; k < keys.size(); ++k) {
      const std::string key = indexed(keysAt, k);
      if (!keys[k].is_array() || keys[k].size() != 2) fail(key, expected);
      const double t = nonNegativeNumber(keys[k][0], indexed(key, 0));
      if (!(t > last)) fail(indexed(key, 0), "times must increase");
      last = t;
      if (turns) {
        schedule.turnKeys.emplace_back(t, finiteVector3(keys[k][1], indexed(key, 1)));
      } else {
        schedule.keys.emplace_back(t, finiteNumber(keys[k][1], indexed(key, 1)));
      }
    }
    schedules.push_back(std::move(schedule));
  }
  return schedules;
}

std::pair<double, double> JointTargetSchedule::at(double t) const {
  if (keys.empty()) return {0.0, 0.0};
  if (t <= keys.front().first) return {keys.front().second, 0.0};
  if (t >= keys.back().first) return {keys.back().second, 0.0};
  const auto next = std::upper_bound(keys.begin(), keys.end(), t,
                                     [](double time, const auto& key) { return time < key.first; });
  const auto& [t1, q1] = *next;
  const auto& [t0, q0] = *(next - 1);
  const double slope = (q1 - q0) / (t1 - t0);
  return {q0 + slope * (t - t0), slope};
}

std::pair<Eigen::Vector3d, Eigen::Vector3d> JointTargetSchedule::turnAt(double t) const {
  using Eigen::Vector3d;
  if (turnKeys.empty()) return {Vector3d::Zero(), Vector3d::Zero()};
  if (t <= turnKeys.front().first) return {turnKeys.front().second, Vector3d::Zero()};
  if (t >= turnKeys.back().first) return {turnKeys.back().second, Vector3d::Zero()};
  const auto next = std::upper_bound(turnKeys.begin(), turnKeys.end(), t,
                                     [](double time, const auto& key) { return time < key.first; });
  const auto& [t1, turn1] = *next;
  const auto& [t0, turn0] = *(next - 1);
  // Through portable math, as every transcendental function of a step: the same bits anywhere.
  const Eigen::Quaterniond q0 = portable::rotationOf(turn0);
  // The step from key to key in q0's frame, the shorter way round (rotationVector's angle is in
  // [0, pi] whichever sign the quaternion has).
  const Vector3d whole = portable::rotationVector(q0.conjugate() * portable::rotationOf(turn1));
  const double s = (t - t0) / (t1 - t0);
  const Eigen::Quaterniond now = q0 * portable::rotationOf(s * whole);
  // The rotation vector with the angle in [0, pi], and the spin along A's frame axes.
  return {portable::rotationVector(now), q0 * (whole / (t1 - t0))};
}

}  // namespace hb
