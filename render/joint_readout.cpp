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

/// [-range, range], widened to hold the slider's values.
void symmetricRange(double range, JointTargetSlider& slider) {
  const double reach = std::max(range, slider.values.head(slider.components).cwiseAbs().maxCoeff());
  slider.min = -reach;
  slider.max = reach;
}

}  // namespace

double jointDisplayScale(JointType type) {
  if (type == JointType::Revolute || type == JointType::Spherical) return 180.0 / std::numbers::pi;
  if (type == JointType::Prismatic) return 1000.0;
  return 1.0;
}

const char* jointPositionUnit(JointType type) {
  return type == JointType::Prismatic ? "mm" : type == JointType::Fixed ? "" : "deg";
}

const char* jointVelocityUnit(JointType type) {
  return type == JointType::Prismatic ? "mm/s" : type == JointType::Fixed ? "" : "deg/s";
}

const char* jointEffortUnit(JointType type) {
  return type == JointType::Prismatic ? "N" : type == JointType::Fixed ? "" : "N m";
}

JointReadout jointReadout(const Joint& joint, const RigidBody& a, const RigidBody& b) {
  JointReadout r;
  const double scale = jointDisplayScale(joint.type);
  if (hasFreeAxis(joint.type)) {
    r.position = scale * jointPosition(joint, a, b);
    r.velocity = scale * jointVelocity(joint, a, b);
    r.effort = joint.motorForce;
  } else if (joint.type == JointType::Spherical) {
    r.position = scale * jointTurn(joint, a, b).norm();
    r.velocity = scale * jointSpin(joint, a, b).norm();
    r.effort = joint.motorForce;
  }
  r.errorMm = 1000.0 * jointError(joint, a, b);
  return r;
}

JointTargetSlider jointTargetSlider(const Joint& joint) {
  JointTargetSlider slider;
  if (joint.type == JointType::Fixed || !(joint.motor.maxForce > 0.0)) return slider;
  const double scale = jointDisplayScale(joint.type);
  const bool ball = joint.type == JointType::Spherical;
  const bool linear = joint.type == JointType::Prismatic;
  const JointMotor& motor = joint.motor;
  slider.components = ball ? 3 : 1;
  if (motor.servo()) {
    slider.kind = JointTargetSlider::Kind::Position;
    slider.values =
        ball ? Eigen::Vector3d(motor.targetTurn) : Eigen::Vector3d(motor.targetPosition, 0.0, 0.0);
    slider.values *= scale;
    if (joint.limit.enabled && !ball) {
      slider.min = scale * joint.limit.lower;
      slider.max = scale * joint.limit.upper;
    } else {
      // A cone bounds each component of the turn by its angle.
      symmetricRange(joint.limit.enabled ? scale * joint.limit.upper
                     : linear            ? kFreeSlide
                                         : kFreeAngle,
                     slider);
    }
  } else {
    slider.kind = JointTargetSlider::Kind::Velocity;
    slider.values =
        ball ? Eigen::Vector3d(motor.targetSpin) : Eigen::Vector3d(motor.targetVelocity, 0.0, 0.0);
    slider.values *= scale;
    symmetricRange(linear ? kLinearSpeedRange : kAngularSpeedRange, slider);
  }
  return slider;
}

JointTargets jointTargetsAt(const Joint& joint, JointTargetSlider::Kind kind,
                            const Eigen::Vector3d& values) {
  const JointMotor& motor = joint.motor;
  JointTargets targets{motor.targetPosition, motor.targetVelocity,
                       Eigen::Vector3d(motor.targetTurn), Eigen::Vector3d(motor.targetSpin)};
  const Eigen::Vector3d si = values / jointDisplayScale(joint.type);
  const bool ball = joint.type == JointType::Spherical;
  if (kind == JointTargetSlider::Kind::Position) {
    if (ball)
      targets.turn = si;
    else
      targets.position = si.x();
  }
  if (kind == JointTargetSlider::Kind::Velocity) {
    if (ball)
      targets.spin = si;
    else
      targets.velocity = si.x();
  }
  return targets;
}

}  // namespace hb
