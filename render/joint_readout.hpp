#pragma once
// What the joints panel shows of a joint and the slider that sets its motor's target, in the
// panel's units (deg and deg/s for a revolute joint, mm and mm/s for a prismatic one), computed
// without a window.

#include "dynamics/joint.hpp"
#include "dynamics/rigid_body.hpp"

namespace hb {

/// Display units per SI unit of a joint's position: deg per rad, mm per m; 1 for the others.
double jointDisplayScale(JointType type);
/// "deg", "mm", or "" for a joint without a free axis.
const char* jointPositionUnit(JointType type);
/// "deg/s", "mm/s", or "".
const char* jointVelocityUnit(JointType type);
/// Of its motor's force: "N m" (revolute), "N" (prismatic), or "".
const char* jointEffortUnit(JointType type);

struct JointReadout {
  double position = 0.0;  ///< display units (jointPosition scaled)
  double velocity = 0.0;  ///< display units per second (jointVelocity scaled)
  double effort = 0.0;    ///< the motor's force over the last step (N m or N)
  double errorMm = 0.0;   ///< jointError in mm (mrad for a misalignment)
};

JointReadout jointReadout(const Joint& joint, const RigidBody& a, const RigidBody& b);

/// The slider of a joint's motor target: a servo's (stiffness or damping > 0) target position,
/// within its limits when it has them (else +-180 deg or +-500 mm), or a velocity motor's target
/// velocity (+-360 deg/s or +-1000 mm/s); ranges widen to hold the current target. None for a
/// joint without a free axis or without a motor force (maxForce 0).
struct JointTargetSlider {
  enum class Kind { None, Position, Velocity };
  Kind kind = Kind::None;
  double value = 0.0;  ///< the current target, display units
  double min = 0.0;
  double max = 0.0;
};

JointTargetSlider jointTargetSlider(const Joint& joint);

/// The targets World::setJointTargets takes (SI units) for the slider moved to `value` (display
/// units): the target it sets, and the motor's other target as it is.
struct JointTargets {
  double position = 0.0;
  double velocity = 0.0;
};

JointTargets jointTargetsAt(const Joint& joint, JointTargetSlider::Kind kind, double value);

}  // namespace hb
