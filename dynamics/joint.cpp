#include "dynamics/joint.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "collision/portable_math.hpp"

namespace hb {

using Eigen::Quaterniond;
using Eigen::Vector3d;

namespace {

Pose bodyPose(const RigidBody& r) {
  return {r.orientation, r.position};
}

/// The twist of the rotation q about the unit axis (rad, in (-pi, pi]).
double twistAbout(const Quaterniond& q, const Vector3d& axis) {
  double angle = 2.0 * portable::atan2(q.vec().dot(axis), q.w());
  if (angle > std::numbers::pi) angle -= 2.0 * std::numbers::pi;
  if (angle <= -std::numbers::pi) angle += 2.0 * std::numbers::pi;
  return angle;
}

}  // namespace

const char* toString(JointType type) {
  switch (type) {
    case JointType::Fixed:
      return "fixed";
    case JointType::Revolute:
      return "revolute";
    case JointType::Prismatic:
      return "prismatic";
    case JointType::Spherical:
      break;
  }
  return "spherical";
}

Pose jointFrameA(const Joint& joint, const RigidBody& a) {
  return bodyPose(a) * joint.frameA;
}

Pose jointFrameB(const Joint& joint, const RigidBody& b) {
  return bodyPose(b) * joint.frameB;
}

double jointPosition(const Joint& joint, const RigidBody& a, const RigidBody& b) {
  return jointPositionBetween(joint.type, jointFrameA(joint, a), jointFrameB(joint, b));
}

double jointPositionBetween(JointType type, const Pose& fa, const Pose& fb) {
  const Vector3d axis = fa.q * Vector3d::UnitZ();
  switch (type) {
    case JointType::Revolute:
      return twistAbout(fb.q * fa.q.conjugate(), axis);
    case JointType::Prismatic:
      return axis.dot(fb.p - fa.p);
    case JointType::Fixed:
    case JointType::Spherical:
      break;
  }
  return 0.0;
}

double jointVelocity(const Joint& joint, const RigidBody& a, const RigidBody& b) {
  const Pose fa = jointFrameA(joint, a), fb = jointFrameB(joint, b);
  const Vector3d axis = fa.q * Vector3d::UnitZ();
  switch (joint.type) {
    case JointType::Revolute:
      return axis.dot(b.angularVelocity - a.angularVelocity);
    case JointType::Prismatic:
      // d/dt (axis . (p_B - p_A)) with the axis turning with A.
      return axis.dot(b.pointVelocity(fb.p) - a.pointVelocity(fa.p)) +
             a.angularVelocity.cross(axis).dot(fb.p - fa.p);
    case JointType::Fixed:
    case JointType::Spherical:
      break;
  }
  return 0.0;
}

Vector3d jointTurn(const Joint& joint, const RigidBody& a, const RigidBody& b) {
  return portable::rotationVector(jointFrameA(joint, a).q.conjugate() * jointFrameB(joint, b).q);
}

Vector3d jointSpin(const Joint& joint, const RigidBody& a, const RigidBody& b) {
  return jointFrameA(joint, a).q.conjugate() * (b.angularVelocity - a.angularVelocity);
}

double jointError(const Joint& joint, const RigidBody& a, const RigidBody& b) {
  const Pose fa = jointFrameA(joint, a), fb = jointFrameB(joint, b);
  const Vector3d axis = fa.q * Vector3d::UnitZ();
  Vector3d apart = fb.p - fa.p;
  if (joint.type == JointType::Prismatic) apart -= axis.dot(apart) * axis;
  double turned = 0.0;
  switch (joint.type) {
    case JointType::Fixed:
    case JointType::Prismatic:
      turned = portable::rotationVector(fb.q * fa.q.conjugate()).norm();
      break;
    case JointType::Revolute:
      turned = portable::asin(std::min(1.0, axis.cross(fb.q * Vector3d::UnitZ()).norm()));
      break;
    case JointType::Spherical:
      break;
  }
  return std::max(apart.norm(), turned);
}

}  // namespace hb
