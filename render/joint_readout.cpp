#include "render/joint_readout.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace hb {
namespace {

// Slider ranges where a joint gives none (display units).
constexpr double kFreeAngle = 180.0;          // deg
constexpr double kFreeSlide = 500.0;          // mm
constexpr double kAngularSpeedRange = 360.0;  // deg/s
constexpr double kLinearSpeedRange = 1000.0;  // mm/s

/// [-range, range], widened to hold `value`.
void symmetricRange(double range, double value, JointTargetSlider& slider) {
  const double reach = std::max(range, std::abs(value));
  slider.min = -reach;
  slider.max = reach;
}

}  // namespace

double jointDisplayScale(JointType type) {
  if (type == JointType::Revolute) return 180.0 / std::numbers::pi;
  if (type == JointType::Prismatic) return 1000.0;
  return 1.0;
}

const char* jointPositionUnit(JointType type) {
  return type == JointType::Revolute ? "deg" : type == JointType::Prismatic ? "mm" : "";
}

const char* jointVelocityUnit(JointType type) {
  return type == JointType::Revolute ? "deg/s" : type == JointType::Prismatic ? "mm/s" : "";
}

const char* jointEffortUnit(JointType type) {
  return type == JointType::Revolute ? "N m" : type == JointType::Prismatic ? "N" : "";
}

JointReadout jointReadout(const Joint& joint, const RigidBody& a, const RigidBody& b) {
  JointReadout r;
  const double scale = jointDisplayScale(joint.type);
  if (hasFreeAxis(joint.type)) {
    r.position = scale * jointPosition(joint, a, b);
    r.velocity = scale * jointVelocity(joint, a, b);
    r.effort = joint.motorForce;
  }
  r.errorMm = 1000.0 * jointError(joint, a, b);
  return r;
}

JointTargetSlider jointTargetSlider(const Joint& joint) {
  JointTargetSlider slider;
  if (!hasFreeAxis(joint.type) || !(joint.motor.maxForce > 0.0)) return slider;
  const double scale = jointDisplayScale(joint.type);
  const bool revolute = joint.type == JointType::Revolute;
  if (joint.motor.servo()) {
    slider.kind = JointTargetSlider::Kind::Position;
    slider.value = scale * joint.motor.targetPosition;
    if (joint.limit.enabled) {
      slider.min = scale * joint.limit.lower;
      slider.max = scale * joint.limit.upper;
    } else {
      symmetricRange(revolute ? kFreeAngle : kFreeSlide, slider.value, slider);
    }
  } else {
    slider.kind = JointTargetSlider::Kind::Velocity;
    slider.value = scale * joint.motor.targetVelocity;
    symmetricRange(revolute ? kAngularSpeedRange : kLinearSpeedRange, slider.value, slider);
  }
  return slider;
}

JointTargets jointTargetsAt(const Joint& joint, JointTargetSlider::Kind kind, double value) {
  JointTargets targets{joint.motor.targetPosition, joint.motor.targetVelocity};
  const double si = value / jointDisplayScale(joint.type);
  if (kind == JointTargetSlider::Kind::Position) targets.position = si;
  if (kind == JointTargetSlider::Kind::Velocity) targets.velocity = si;
  return targets;
}

}  // namespace hb
