// The world's joints (World::addJoint and its setters): checked, kept beside the bodies, handed
// to the solve stage, and the pairs they hold kept out of the narrow phase.

#include <algorithm>
#include <cmath>
#include <numbers>
#include <span>
#include <stdexcept>
#include <string>

#include "engine/world.hpp"

namespace hb {

namespace {

void requireFiniteLimit(const JointLimit& limit, const std::string& what) {
  if (!limit.enabled) return;
  if (!std::isfinite(limit.lower) || !std::isfinite(limit.upper) || limit.lower > limit.upper) {
    throw std::invalid_argument(what + ": a limit needs finite lower <= upper");
  }
}

bool finiteNonNegative(double value) {
  return std::isfinite(value) && value >= 0.0;
}

void requireMotor(const JointMotor& motor, const std::string& what) {
  if (!motor.enabled) return;
  const bool finiteTargets = Eigen::Map<const Eigen::Vector3d>(motor.targetTurn).allFinite() &&
                             Eigen::Map<const Eigen::Vector3d>(motor.targetSpin).allFinite();
  if (!std::isfinite(motor.targetVelocity) || !std::isfinite(motor.targetPosition) ||
      !finiteTargets || !finiteNonNegative(motor.maxForce) || !finiteNonNegative(motor.stiffness) ||
      !finiteNonNegative(motor.damping)) {
    throw std::invalid_argument(what +
                                ": a motor needs finite targets and a finite force, stiffness "
                                "and damping >= 0");
  }
}

void requireSpring(const JointSpring& spring, const std::string& what) {
  if (!finiteNonNegative(spring.stiffness) || !finiteNonNegative(spring.damping) ||
      !std::isfinite(spring.restPosition)) {
    throw std::invalid_argument(what +
                                ": a spring needs a finite stiffness and damping >= 0 and a "
                                "finite rest position");
  }
}

void requireFriction(double friction, const std::string& what) {
  if (!finiteNonNegative(friction)) {
    throw std::invalid_argument(what + ": joint friction needs a finite force >= 0");
  }
}

/// A fixed or spherical joint has no free axis to take a motor or a position.
void requireFreeAxis(const Joint& joint, const std::string& what) {
  if (!hasFreeAxis(joint.type)) {
    throw std::invalid_argument(what +
                                ": only a revolute or prismatic joint has a motor, limits, a "
                                "spring or friction");
  }
}

/// A motor: on a free axis with scalar targets, or on a spherical joint's turn with three-valued
/// ones (JointMotor).
void requireMotorFits(const Joint& joint, const std::string& what) {
  const JointMotor& motor = joint.motor;
  if (!motor.enabled) return;
  const bool vectorTargets = !Eigen::Map<const Eigen::Vector3d>(motor.targetTurn).isZero(0.0) ||
                             !Eigen::Map<const Eigen::Vector3d>(motor.targetSpin).isZero(0.0);
  if (joint.type == JointType::Spherical) {
    if (motor.targetPosition != 0.0 || motor.targetVelocity != 0.0) {
      throw std::invalid_argument(what +
                                  ": a spherical joint's motor targets are three-valued "
                                  "(targetTurn, targetSpin); its targetPosition and "
                                  "targetVelocity stay 0");
    }
    return;
  }
  requireFreeAxis(joint, what);
  if (vectorTargets) {
    throw std::invalid_argument(what +
                                ": targetTurn and targetSpin belong to a spherical joint's "
                                "motor");
  }
}

/// setJointTargets' targets for joint `joint`, when there is one (jointAt says when not): scalar
/// ones for a revolute or prismatic joint, three-valued ones (`threeValued`) for a spherical one.
/// Checked before jointAt wakes the joint's bodies.
void requireTargetsFit(std::span<const Joint> joints, int joint, bool threeValued) {
  if (joint < 0 || joint >= static_cast<int>(joints.size())) return;
  const Joint& j = joints[joint];
  if (threeValued && j.type != JointType::Spherical) {
    throw std::invalid_argument(
        "setJointTargets: three-valued targets (turn, spin) belong to a spherical joint; joint " +
        std::to_string(joint) + " is " + toString(j.type));
  }
  if (!threeValued && j.type == JointType::Spherical) {
    throw std::invalid_argument(
        "setJointTargets: a spherical joint's targets are three-valued (turn and spin vectors)");
  }
  if (!threeValued) requireFreeAxis(j, "setJointTargets");
}

/// A spring or friction: on a free axis, or on a spherical joint's turn (whose spring's rest is
/// the frames aligned).
void requireTurns(const Joint& joint, const std::string& what) {
  if (joint.type != JointType::Spherical) {
    requireFreeAxis(joint, what);
  } else if (joint.spring.restPosition != 0.0) {
    throw std::invalid_argument(what +
                                ": a spherical joint's spring pulls its frames together: its "
                                "rest position must be 0");
  }
}

/// A twist limit belongs to a spherical joint, within [-pi, pi].
void requireTwistFits(const Joint& joint, const std::string& what) {
  const JointLimit& twist = joint.twist;
  if (!twist.enabled) return;
  if (joint.type != JointType::Spherical) {
    throw std::invalid_argument(what + ": only a spherical joint has a twist limit");
  }
  if (!(twist.lower >= -std::numbers::pi) || !(twist.upper <= std::numbers::pi) ||
      !(twist.lower <= twist.upper)) {
    throw std::invalid_argument(what + ": a twist limit needs -pi <= lower <= upper <= pi (rad)");
  }
}

/// A limit on a revolute or prismatic joint's free axis, or a spherical joint's cone.
void requireLimitFits(const Joint& joint, const std::string& what) {
  if (!joint.limit.enabled) return;
  if (joint.type != JointType::Spherical) {
    requireFreeAxis(joint, what);
    return;
  }
  if (joint.limit.lower != 0.0 || !(joint.limit.upper > 0.0) ||
      !(joint.limit.upper < std::numbers::pi)) {
    throw std::invalid_argument(what +
                                ": a spherical joint's limit is a cone: lower 0 and upper its "
                                "half-angle, in (0, pi) rad");
  }
}

Pose checkedFrame(const Pose& frame, const std::string& what) {
  if (!frame.p.allFinite() || !frame.q.coeffs().allFinite() ||
      std::abs(frame.q.norm() - 1.0) > 1e-6) {
    throw std::invalid_argument(what +
                                ": a joint frame needs a finite position and a unit "
                                "quaternion (norm within 1e-6 of 1)");
  }
  return {frame.q.normalized(), frame.p};
}

}  // namespace

int World::addJoint(const Joint& joint) {
  const std::string what = "addJoint";
  for (const int body : {joint.bodyA, joint.bodyB}) checkBodyIndex(body, what.c_str());
  if (joint.bodyA == joint.bodyB) throw std::invalid_argument(what + ": a joint needs two bodies");
  if (bodies_.state[joint.bodyA].isStatic && bodies_.state[joint.bodyB].isStatic) {
    throw std::invalid_argument(what + ": a joint between two static bodies holds nothing");
  }
  Joint added = joint;
  added.frameA = checkedFrame(joint.frameA, what);
  added.frameB = checkedFrame(joint.frameB, what);
  requireFiniteLimit(joint.limit, what);
  requireMotor(joint.motor, what);
  requireSpring(joint.spring, what);
  requireFriction(joint.friction, what);
  requireMotorFits(joint, what);
  if (joint.spring.active() || joint.friction > 0.0) requireTurns(joint, what);
  requireLimitFits(joint, what);
  requireTwistFits(joint, what);
  std::fill(std::begin(added.force), std::end(added.force), 0.0);
  added.lowerForce = added.upperForce = added.motorForce = 0.0;
  added.springForce = added.frictionForce = 0.0;
  added.twistLowerForce = added.twistUpperForce = 0.0;
  std::fill(std::begin(added.springTorque), std::end(added.springTorque), 0.0);
  std::fill(std::begin(added.frictionTorque), std::end(added.frictionTorque), 0.0);
  std::fill(std::begin(added.motorTorque), std::end(added.motorTorque), 0.0);
  joints_.push_back(added);
  updateJointedBodies();
  for (const int body : {joint.bodyA, joint.bodyB}) {
    if (!bodies_.state[body].isStatic) {
      wakeIsland(body);
      bodies_.state[body].restingTime = 0.0;
    }
  }
  return static_cast<int>(joints_.size()) - 1;
}

Joint& World::jointAt(int joint, const char* what) {
  if (joint < 0 || joint >= static_cast<int>(joints_.size())) {
    throw std::out_of_range(std::string(what) + ": no joint " + std::to_string(joint) + " (" +
                            std::to_string(joints_.size()) + " joints)");
  }
  Joint& j = joints_[joint];
  for (const int body : {j.bodyA, j.bodyB}) {
    if (!bodies_.state[body].isStatic) {
      wakeIsland(body);
      bodies_.state[body].restingTime = 0.0;
    }
  }
  return j;
}

void World::setJointMotor(int joint, const JointMotor& motor) {
  requireMotor(motor, "setJointMotor");
  Joint& j = jointAt(joint, "setJointMotor");
  Joint driven = j;
  driven.motor = motor;
  requireMotorFits(driven, "setJointMotor");
  j.motor = motor;
}

void World::setJointLimit(int joint, const JointLimit& limit) {
  requireFiniteLimit(limit, "setJointLimit");
  Joint& j = jointAt(joint, "setJointLimit");
  Joint limited = j;
  limited.limit = limit;
  requireLimitFits(limited, "setJointLimit");
  j.limit = limit;
}

void World::setJointTwist(int joint, const JointLimit& twist) {
  requireFiniteLimit(twist, "setJointTwist");
  Joint& j = jointAt(joint, "setJointTwist");
  Joint twisted = j;
  twisted.twist = twist;
  requireTwistFits(twisted, "setJointTwist");
  j.twist = twist;
}

void World::setJointSpring(int joint, const JointSpring& spring) {
  requireSpring(spring, "setJointSpring");
  Joint& j = jointAt(joint, "setJointSpring");
  Joint sprung = j;
  sprung.spring = spring;
  if (spring.active()) requireTurns(sprung, "setJointSpring");
  j.spring = spring;
}

void World::setJointFriction(int joint, double friction) {
  requireFriction(friction, "setJointFriction");
  Joint& j = jointAt(joint, "setJointFriction");
  if (friction > 0.0) requireTurns(j, "setJointFriction");
  j.friction = friction;
}

void World::setJointTargets(int joint, double position, double velocity) {
  if (!std::isfinite(position) || !std::isfinite(velocity)) {
    throw std::invalid_argument("setJointTargets: targets must be finite");
  }
  requireTargetsFit(joints_, joint, false);
  Joint& j = jointAt(joint, "setJointTargets");
  JointMotor& motor = j.motor;
  motor.enabled = true;
  motor.targetPosition = position;
  motor.targetVelocity = velocity;
}

void World::setJointTargets(int joint, const Eigen::Vector3d& turn, const Eigen::Vector3d& spin) {
  if (!turn.allFinite() || !spin.allFinite()) {
    throw std::invalid_argument("setJointTargets: targets must be finite");
  }
  requireTargetsFit(joints_, joint, true);
  Joint& j = jointAt(joint, "setJointTargets");
  JointMotor& motor = j.motor;
  motor.enabled = true;
  Eigen::Map<Eigen::Vector3d>(motor.targetTurn) = turn;
  Eigen::Map<Eigen::Vector3d>(motor.targetSpin) = spin;
}

int World::addJoint(const JointDescription& d) {
  for (const int body : {d.bodyA, d.bodyB}) checkBodyIndex(body, "addJoint");
  if (!d.anchor.allFinite() || !d.axis.allFinite() || !(d.axis.norm() > 1e-9)) {
    throw std::invalid_argument("addJoint: a joint needs a finite anchor and a non-zero axis");
  }
  Joint joint;
  joint.name = d.name;
  joint.type = d.type;
  joint.bodyA = d.bodyA;
  joint.bodyB = d.bodyB;
  joint.limit = d.limit;
  joint.twist = d.twist;
  joint.motor = d.motor;
  joint.spring = d.spring;
  joint.friction = d.friction;
  // The joint frame's z along the axis.
  const Pose frame{
      Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitZ(), d.axis.normalized()), d.anchor};
  joint.frameA = bodyPose(d.bodyA).inverse() * frame;
  joint.frameB = bodyPose(d.bodyB).inverse() * frame;
  return addJoint(joint);
}

int World::findJoint(std::string_view name) const {
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    if (joints_[j].name == name) return static_cast<int>(j);
  }
  return -1;
}

void World::driveScheduledJoints() {
  // Targets for the end of the step; unchanged ones leave the bodies as they are (asleep).
  for (const JointTargetSchedule& schedule : scene_.jointTargets) {
    const int joint = findJoint(schedule.joint);
    if (joint < 0) continue;  // its body was removed
    const JointMotor& motor = joints_[joint].motor;
    const double t = time() + scene_.dt;
    if (!schedule.turnKeys.empty()) {
      const auto [turn, spin] = schedule.turnAt(t);
      if (Eigen::Map<const Eigen::Vector3d>(motor.targetTurn) == turn &&
          Eigen::Map<const Eigen::Vector3d>(motor.targetSpin) == spin) {
        continue;
      }
      setJointTargets(joint, turn, spin);
      continue;
    }
    const auto [position, velocity] = schedule.at(t);
    if (motor.targetPosition == position && motor.targetVelocity == velocity) continue;
    setJointTargets(joint, position, velocity);
  }
}

namespace {

/// What a joint's drives work on: its free axis's velocity (x), or a spherical joint's relative
/// spin in A's joint frame.
Eigen::Vector3d drivenVelocity(const Joint& j, const RigidBody& a, const RigidBody& b) {
  if (j.type != JointType::Spherical) return {jointVelocity(j, a, b), 0.0, 0.0};
  return jointSpin(j, a, b);
}

}  // namespace

std::vector<Eigen::Vector3d> World::drivenJointVelocities() const {
  const bool driven = std::any_of(joints_.begin(), joints_.end(), [](const Joint& j) {
    return j.motor.enabled || j.spring.active();
  });
  std::vector<Eigen::Vector3d> velocities;
  if (!driven) return velocities;
  for (const Joint& j : joints_) {
    velocities.push_back(drivenVelocity(j, bodies_.state[j.bodyA], bodies_.state[j.bodyB]));
  }
  return velocities;
}

double World::jointDriveWork(const std::vector<Eigen::Vector3d>& velocitiesBefore) const {
  if (velocitiesBefore.size() != joints_.size()) return 0.0;  // none driven, or one removed
  double work = 0.0;
  for (std::size_t k = 0; k < joints_.size(); ++k) {
    const Joint& j = joints_[k];
    const Eigen::Vector3d after = drivenVelocity(j, bodies_.state[j.bodyA], bodies_.state[j.bodyB]);
    const Eigen::Vector3d mean = 0.5 * (velocitiesBefore[k] + after);
    const Eigen::Vector3d drive =
        j.type == JointType::Spherical
            ? Eigen::Vector3d(Eigen::Map<const Eigen::Vector3d>(j.springTorque) +
                              Eigen::Map<const Eigen::Vector3d>(j.motorTorque))
            : Eigen::Vector3d(j.motorForce + j.springForce, 0.0, 0.0);
    work += drive.dot(mean) * substepLength();
  }
  return work;
}

void World::updateJointedBodies() {
  jointedBodies_.clear();
  for (const Joint& j : joints_) {
    jointedBodies_.emplace_back(std::min(j.bodyA, j.bodyB), std::max(j.bodyA, j.bodyB));
  }
  std::sort(jointedBodies_.begin(), jointedBodies_.end());
}

void World::forgetJoints(int body) {
  std::erase_if(joints_, [&](const Joint& j) { return j.bodyA == body || j.bodyB == body; });
  for (Joint& j : joints_) {
    if (j.bodyA > body) --j.bodyA;
    if (j.bodyB > body) --j.bodyB;
  }
  updateJointedBodies();
}

}  // namespace hb
