#include "render/transforms.hpp"

#include <cmath>

namespace hb {

Eigen::Matrix4f perspective(double fovY, double aspect, double near, double far) {
  const double f = 1.0 / std::tan(0.5 * fovY);
  Eigen::Matrix4d m = Eigen::Matrix4d::Zero();
  m(0, 0) = f / aspect;
  m(1, 1) = f;
  m(2, 2) = (far + near) / (near - far);
  m(2, 3) = 2.0 * far * near / (near - far);
  m(3, 2) = -1.0;
  return m.cast<float>();
}

Eigen::Matrix4f orthographic(double left, double right, double bottom, double top, double near,
                             double far) {
  Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
  m(0, 0) = 2.0 / (right - left);
  m(1, 1) = 2.0 / (top - bottom);
  m(2, 2) = -2.0 / (far - near);
  m(0, 3) = -(right + left) / (right - left);
  m(1, 3) = -(top + bottom) / (top - bottom);
  m(2, 3) = -(far + near) / (far - near);
  return m.cast<float>();
}

Eigen::Matrix4f lookAt(const Eigen::Vector3d& eye, const Eigen::Vector3d& target,
                       const Eigen::Vector3d& up) {
  const Eigen::Vector3d forward = (target - eye).normalized();
  Eigen::Vector3d side = forward.cross(up);
  // Looking straight along `up`: any horizontal side axis will do.
  if (side.squaredNorm() < 1e-12) side = forward.unitOrthogonal();
  side.normalize();
  const Eigen::Vector3d realUp = side.cross(forward);
  Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
  m.block<1, 3>(0, 0) = side.transpose();
  m.block<1, 3>(1, 0) = realUp.transpose();
  m.block<1, 3>(2, 0) = -forward.transpose();
  m(0, 3) = -side.dot(eye);
  m(1, 3) = -realUp.dot(eye);
  m(2, 3) = forward.dot(eye);
  return m.cast<float>();
}

Eigen::Matrix4f poseMatrix(const Pose& pose) {
  Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
  m.block<3, 3>(0, 0) = pose.rotation();
  m.block<3, 1>(0, 3) = pose.p;
  return m.cast<float>();
}

}  // namespace hb
