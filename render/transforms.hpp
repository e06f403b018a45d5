#pragma once
// 4x4 matrices for OpenGL (column-major, right-handed, clip z in [-1, 1]): projections, the
// look-at view, and body poses. Single precision: what the GPU consumes.

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "collision/pose.hpp"

namespace hb {

/// fovY in radians; near and far in metres (> 0).
Eigen::Matrix4f perspective(double fovY, double aspect, double near, double far);
Eigen::Matrix4f orthographic(double left, double right, double bottom, double top, double near,
                             double far);
/// View matrix of a camera at `eye` looking at `target`; `up` need not be orthogonal.
Eigen::Matrix4f lookAt(const Eigen::Vector3d& eye, const Eigen::Vector3d& target,
                       const Eigen::Vector3d& up);
/// Model matrix of a pose.
Eigen::Matrix4f poseMatrix(const Pose& pose);

}  // namespace hb
