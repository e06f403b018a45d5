#include "render/orbit_camera.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "render/transforms.hpp"

namespace hb {
namespace {

constexpr double kRadiansPerPixel = 0.006;
constexpr double kMaxPitch = 1.55;  // just short of straight down or up, where yaw degenerates
constexpr double kMinDistance = 0.02;
constexpr double kMaxDistance = 50.0;

}  // namespace

void OrbitCamera::setHome(const OrbitView& view) {
  home_ = view;
  view_ = view;
  gliding_ = false;
}

void OrbitCamera::glideTo(const OrbitView& goal) {
  goal_ = goal;
  // Turn the short way round.
  const double twoPi = 2.0 * std::numbers::pi;
  goal_.yaw = view_.yaw + std::remainder(goal.yaw - view_.yaw, twoPi);
  gliding_ = true;
}

void OrbitCamera::frame(const Eigen::Vector3d& center, double radius) {
  OrbitView goal = view_;
  goal.target = center;
  goal.distance = std::clamp(1.3 * radius / std::sin(0.5 * kFovY), kMinDistance, kMaxDistance);
  glideTo(goal);
}

void OrbitCamera::lookAt(const Eigen::Vector3d& point) {
  OrbitView goal = view_;
  goal.target = point;
  glideTo(goal);
}

void OrbitCamera::orbit(double dx, double dy) {
  gliding_ = false;
  view_.yaw -= dx * kRadiansPerPixel;
  view_.pitch = std::clamp(view_.pitch + dy * kRadiansPerPixel, -kMaxPitch, kMaxPitch);
}

void OrbitCamera::pan(double dx, double dy, double viewportHeight) {
  gliding_ = false;
  // One pixel moves the target by the size of a pixel at the target's depth.
  const double metresPerPixel =
      2.0 * view_.distance * std::tan(0.5 * kFovY) / std::max(viewportHeight, 1.0);
  const Eigen::Vector3d f = forward();
  const Eigen::Vector3d right = f.cross(Eigen::Vector3d::UnitZ()).normalized();
  const Eigen::Vector3d up = right.cross(f);
  view_.target += metresPerPixel * (-dx * right + dy * up);
}

void OrbitCamera::zoom(double steps) {
  gliding_ = false;
  view_.distance = std::clamp(view_.distance * std::exp(-0.12 * steps), kMinDistance, kMaxDistance);
}

void OrbitCamera::update(double seconds) {
  if (!gliding_) return;
  // Exponential approach, frame-rate independent: ~95% of the way in 0.3 s.
  const double s = 1.0 - std::exp(-10.0 * seconds);
  view_.target += s * (goal_.target - view_.target);
  view_.distance += s * (goal_.distance - view_.distance);
  view_.yaw += s * (goal_.yaw - view_.yaw);
  view_.pitch += s * (goal_.pitch - view_.pitch);
  if ((view_.target - goal_.target).norm() < 1e-4 &&
      std::abs(view_.distance - goal_.distance) < 1e-4 && std::abs(view_.yaw - goal_.yaw) < 1e-4 &&
      std::abs(view_.pitch - goal_.pitch) < 1e-4) {
    view_ = goal_;
    gliding_ = false;
  }
}

Eigen::Vector3d OrbitCamera::forward() const {
  // The camera sits at yaw, pitch on a sphere around the target and looks back at it.
  const double cp = std::cos(view_.pitch);
  return -Eigen::Vector3d(cp * std::cos(view_.yaw), cp * std::sin(view_.yaw),
                          std::sin(view_.pitch));
}

Eigen::Vector3d OrbitCamera::position() const {
  return view_.target - view_.distance * forward();
}

Eigen::Matrix4f OrbitCamera::viewMatrix() const {
  return hb::lookAt(position(), view_.target, Eigen::Vector3d::UnitZ());
}

Eigen::Matrix4f OrbitCamera::projectionMatrix(double aspect) const {
  return perspective(kFovY, aspect, nearPlane(), farPlane());
}

Ray OrbitCamera::rayThrough(double x, double y, double width, double height) const {
  const Eigen::Vector3d f = forward();
  const Eigen::Vector3d right = f.cross(Eigen::Vector3d::UnitZ()).normalized();
  const Eigen::Vector3d up = right.cross(f);
  const double tanHalf = std::tan(0.5 * kFovY);
  const double aspect = width / std::max(height, 1.0);
  // Normalised device coordinates of the pixel, y up.
  const double nx = 2.0 * x / std::max(width, 1.0) - 1.0;
  const double ny = 1.0 - 2.0 * y / std::max(height, 1.0);
  const Eigen::Vector3d dir = f + nx * tanHalf * aspect * right + ny * tanHalf * up;
  return Ray{position(), dir.normalized()};
}

}  // namespace hb
