#pragma once
// A joint between two bodies (either may be one that does not move, such as the world's body 0):
// what it holds, its limit and motor, and the impulses the solver leaves in it. The contact
// solver solves its rows in the same projected Gauss–Seidel sweeps as the contacts
// (dynamics/joint_rows.hpp), so that a joint and the contacts of the bodies it holds are solved
// together.
//
// Each body carries a joint frame (frameA, frameB: poses in the body's centre-of-mass frame);
// the joint holds the two frames' origins together, and, by type, their orientations:
//   Fixed      origins and orientations: the bodies move as one
//   Revolute   origins, and the frames' z axes (the hinge axis): free to turn about it
//   Prismatic  orientations, and the origins on the line of A's z axis: free to slide along it
//   Spherical  origins only (a ball joint): free to turn any way, within its cone and twist
//              limits, against its spring and friction (dynamics/joint_turn_rows.cpp)
// The joint's position is the angle of B's frame about the hinge axis from A's (rad, in
// (-pi, pi]) or B's origin's offset along the axis from A's (m); zero where the frames coincide.

#include <Eigen/Core>
#include <string>

#include "collision/pose.hpp"
#include "dynamics/rigid_body.hpp"

namespace hb {

enum class JointType { Fixed, Revolute, Prismatic, Spherical };

/// Limits of a revolute (rad) or prismatic (m) joint's position.
struct JointLimit {
  bool enabled = false;
  double lower = 0.0;
  double upper = 0.0;
};

/// A motor on a revolute or prismatic joint's free axis. With stiffness and damping zero (the
/// default) it is a velocity motor: it drives the joint's velocity to `targetVelocity` (rad/s or
/// m/s) with at most `maxForce` (N m or N). With either set it is a position servo (PD): its force
/// is stiffness (targetPosition - q) + damping (targetVelocity - v) (N m/rad and N m s/rad, or N/m
/// and N s/m), solved implicitly over the step and bounded by `maxForce`.
/// On a spherical joint its targets are three-valued, along A's joint frame's axes (the scalar
/// ones stay 0): `targetTurn`, B's frame's turn from A's as a rotation vector (rad), and
/// `targetSpin`, B's spin relative to A (rad/s); its torque, -stiffness (turn from the target)
/// + damping (targetSpin - spin), or the velocity motor's, is bounded in magnitude by
/// `maxForce` (N m).
struct JointMotor {
  bool enabled = false;
  double targetVelocity = 0.0;
  double maxForce = 0.0;
  double targetPosition = 0.0;
  double stiffness = 0.0;
  double damping = 0.0;
  double targetTurn[3] = {0, 0, 0};
  double targetSpin[3] = {0, 0, 0};
  bool servo() const { return stiffness > 0.0 || damping > 0.0; }
};

/// A passive spring-damper on a revolute or prismatic joint's free axis: force
/// stiffness (restPosition - q) - damping v, unbounded (units as the motor's). On a spherical
/// joint, on its turn theta (the rotation from A's frame to B's, a rotation vector): torque
/// -stiffness theta - damping (w_B - w_A), restPosition 0. Off when both are zero.
struct JointSpring {
  double stiffness = 0.0;
  double damping = 0.0;
  double restPosition = 0.0;
  bool active() const { return stiffness > 0.0 || damping > 0.0; }
};

struct Joint {
  std::string name;  ///< optional, for finding it (World::findJoint)
  JointType type = JointType::Spherical;
  int bodyA = 0;
  int bodyB = 0;
  Pose frameA;  ///< the joint frame in A's centre-of-mass frame
  Pose frameB;  ///< the joint frame in B's centre-of-mass frame
  JointLimit limit;
  /// A spherical joint's twist limit: B's frame's turn about the frames' z axes (rad, within
  /// [-pi, pi]), measured as a revolute joint's position is.
  JointLimit twist;
  JointMotor motor;
  JointSpring spring;
  /// Dry friction on the free axis: the largest force (N m or N) it resists turning or sliding
  /// with; on a spherical joint, the largest torque (N m) it resists turning with; 0: none.
  double friction = 0.0;

  /// The reaction the joint exerted on B over the last (sub)step (on A: the opposite), as the
  /// solver left it, and its warm start for the next: the forces of its held rows (N along the
  /// world axes, or across the axis for a prismatic joint, then N m about its frame's axes:
  /// see joint_rows.hpp for their order), of its limits (>= 0, pushing away from the lower
  /// and from the upper limit), of its motor, spring and friction (N m or N).
  double force[6] = {0, 0, 0, 0, 0, 0};
  double lowerForce = 0.0;
  double upperForce = 0.0;
  double motorForce = 0.0;
  double springForce = 0.0;
  double frictionForce = 0.0;
  /// A spherical joint's: its twist limits' (>= 0), and its spring's, friction's and motor's
  /// torques (N m, along A's joint frame's axes; springForce, frictionForce and motorForce hold
  /// their magnitudes).
  double twistLowerForce = 0.0;
  double twistUpperForce = 0.0;
  double springTorque[3] = {0, 0, 0};
  double frictionTorque[3] = {0, 0, 0};
  double motorTorque[3] = {0, 0, 0};
};

/// "fixed", "revolute", "prismatic", "spherical": the scene files' names.
const char* toString(JointType type);

/// Revolute and prismatic joints have a free axis (a position, and a motor, limits, a spring and
/// friction on it).
inline bool hasFreeAxis(JointType type) {
  return type == JointType::Revolute || type == JointType::Prismatic;
}

/// The joint frames in the world.
Pose jointFrameA(const Joint& joint, const RigidBody& a);
Pose jointFrameB(const Joint& joint, const RigidBody& b);

/// The joint's position (see above): rad for a revolute joint, m for a prismatic one, zero for
/// the others.
double jointPosition(const Joint& joint, const RigidBody& a, const RigidBody& b);

/// The same between the joint frames fa and fb (in the world).
double jointPositionBetween(JointType type, const Pose& fa, const Pose& fb);

/// The rate of jointPosition (rad/s or m/s).
double jointVelocity(const Joint& joint, const RigidBody& a, const RigidBody& b);

/// B's joint frame's turn from A's as a rotation vector along A's frame axes (rad: a spherical
/// joint's position, its motor's targetTurn), and its rate, B's spin relative to A along the
/// same axes (rad/s).
Eigen::Vector3d jointTurn(const Joint& joint, const RigidBody& a, const RigidBody& b);
Eigen::Vector3d jointSpin(const Joint& joint, const RigidBody& a, const RigidBody& b);

/// How far the joint is from holding (m for the origins, rad for the orientations): the largest
/// of the origins' separation (across the axis for a prismatic joint) and the frames' misalignment
/// (the hinge axes' for a revolute joint).
double jointError(const Joint& joint, const RigidBody& a, const RigidBody& b);

}  // namespace hb
