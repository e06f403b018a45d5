#pragma once
// One step of torque-free rotation (the gyroscopic term) that keeps the angular momentum L and
// the rotational energy exactly.
//
// In the body frame, Euler's equations read dL/dt = L x Omega with Omega = I^-1 L. Their
// implicit midpoint rule,
//   L' = L + h (L_m x Omega_m),   L_m = (L + L') / 2,   Omega_m = I^-1 L_m,
// keeps |L|^2 and L . I^-1 L, both quadratic invariants, exactly (up to the Newton solve's
// tolerance). The same update is the rotation of L by cay(-h [Omega_m]), with cay the Cayley
// transform, so turning the body by cay(h [Omega_m]) over the step leaves L fixed in the world:
// the orientation and the body-frame momentum move together. cay(h [Omega_m]) is a rotation
// about Omega_m by theta = 2 atan(h |Omega_m| / 2); as a constant angular velocity over the step
// that is (in the world frame) R Omega_m theta / (h |Omega_m|), the step's angular velocity.
//
// The contact solver works on that step velocity; afterwards the body's angular velocity is the
// one that carries the step's momentum at the new orientation (RigidBodyIntegrator).

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace hb {

struct FreeRotationOptions {
  int maxIterations = 16;    ///< Newton iterations on the implicit midpoint equation
  double tolerance = 1e-14;  ///< on the residual, relative to |L|
};

struct FreeRotationStep {
  /// World angular velocity that, held over the step, turns the body by the rule's rotation.
  Eigen::Vector3d stepAngularVelocity = Eigen::Vector3d::Zero();
  /// World angular momentum about the centre of mass at the step's start (kept by the step).
  Eigen::Vector3d angularMomentum = Eigen::Vector3d::Zero();
  int iterations = 0;
  /// False when Newton hit its cap or met a non-finite value: the step velocity is then the
  /// start's angular velocity (no gyroscopic term).
  bool converged = false;
};

/// The torque-free step of length h from orientation q and world angular velocity w, for a body
/// with body-frame inertia `inertia` (and its inverse) about the centre of mass.
FreeRotationStep freeRotationStep(const Eigen::Matrix3d& inertia,
                                  const Eigen::Matrix3d& inverseInertia,
                                  const Eigen::Quaterniond& q, const Eigen::Vector3d& w, double h,
                                  const FreeRotationOptions& options = {});

/// The rotation exp(h [w]) of a constant world angular velocity w over h, applied to q.
Eigen::Quaterniond rotateBy(const Eigen::Quaterniond& q, const Eigen::Vector3d& w, double h);

}  // namespace hb
