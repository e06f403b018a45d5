#pragma once
// What the joints panel shows of a joint and the slider that sets its motor's target, in the
// panel's units (deg and deg/s for a revolute or spherical joint, mm and mm/s for a prismatic
// one), computed without a window.

#include <Eigen/Core>

#include "dynamics/joint.hpp"
#include "dynamics/rigid_body.hpp"

namespace hb {

/// Display units per SI unit of a joint's position: deg per rad, mm per m; 1 for a fixed joint.
double jointDisplayScale(JointType type);
/// "deg", "mm", or "" for a fixed joint.
const char* jointPositionUnit(JointType type);
/// "deg/s", "mm/s", or "".
const char* jointVelocityUnit(JointType type);
/// Of its motor's force: "N m" (revolute, spherical), "N" (prismatic), or "".
const char* jointEffortUnit(JointType type);

struct JointReadout {
  /// Display units: jointPosition scaled; a spherical joint's turn angle (|jointTurn|).
  double position = 0.0;
  /// Display units per second: jointVelocity scaled; a spherical joint's |jointSpin|.
  double velocity = 0.0;
  double effort = 0.0;   ///< the motor's force (a ball joint's torque) over the last step
  double errorMm = 0.0;  ///< jointError in mm (mrad for a misalignment)
};

JointReadout jointReadout(const Joint& joint, const RigidBody& a, const RigidBody& b);

/// The slider of a joint's motor target: a servo's (stiffness or damping > 0) target position,
/// within its limits when it has them (else +-180 deg or +-500 mm), or a velocity motor's target
/// velocity (+-360 deg/s or +-1000 mm/s); ranges widen to hold the current target. A spherical
/// joint's slider has three values, its targets' components along A's frame axes (the turn
/// within its cone's angle when it has one). None for a fixed joint or one without a motor force
/// (maxForce 0).
struct JointTargetSlider {
  enum class Kind { None, Position, Velocity };
  Kind kind = Kind::None;
  int components = 1;                                ///< 3 for a spherical joint
  Eigen::Vector3d values = Eigen::Vector3d::Zero();  ///< the current target, display units
  double min = 0.0;
  double max = 0.0;
};

JointTargetSlider jointTargetSlider(const Joint& joint);

/// The targets World::setJointTargets takes (SI units) for the slider moved to `values` (display
/// units; the first for a slider of one component): the target it sets, and the motor's other
/// target as it is. A spherical joint's are `turn` and `spin`, the others' `position` and
/// `velocity`.
struct JointTargets {
  double position = 0.0;
  double velocity = 0.0;
  Eigen::Vector3d turn = Eigen::Vector3d::Zero();
  Eigen::Vector3d spin = Eigen::Vector3d::Zero();
};

JointTargets jointTargetsAt(const Joint& joint, JointTargetSlider::Kind kind,
                            const Eigen::Vector3d& values);

}  // namespace hb
