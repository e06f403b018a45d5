#pragma once
// Principal axes of an inertia tensor. Bullet and MuJoCo store a body's inertia as three
// principal moments in a body frame of their own; heavyball's body axes are the shape's, where
// the tensor is in general full. The two frames share the origin (the centre of mass) and
// differ by the rotation found here.

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace hb::sim {

struct PrincipalAxes {
  Eigen::Vector3d moments = Eigen::Vector3d::Zero();  ///< kg m^2, ascending
  /// Principal frame -> body frame: inertia = rotation * diag(moments) * rotation^T. A proper
  /// rotation (determinant +1).
  Eigen::Quaterniond rotation = Eigen::Quaterniond::Identity();
};

/// Diagonalises a symmetric inertia tensor (only its lower triangle is read). Throws
/// std::invalid_argument when it is not finite or not positive definite.
PrincipalAxes principalAxes(const Eigen::Matrix3d& inertia);

}  // namespace hb::sim
