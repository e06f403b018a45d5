#include "apps/viewer/mouse_spring.hpp"

#include <cmath>
#include <numbers>

namespace hb::viewer {

void MouseSpring::grab(const World& world, int body, const Eigen::Vector3d& point,
                       const Eigen::Vector3d& planeNormal) {
  body_ = body;
  localPoint_ = world.bodyPose(body).applyInverse(point);
  target_ = point;
  planePoint_ = point;
  planeNormal_ = planeNormal.normalized();
}

void MouseSpring::drag(const Ray& ray) {
  const double along = planeNormal_.dot(ray.direction);
  if (std::abs(along) < 1e-6) return;  // the ray runs along the plane
  const double t = planeNormal_.dot(planePoint_ - ray.origin) / along;
  if (t > 0.0) target_ = ray.at(t);
}

Eigen::Vector3d MouseSpring::anchor(const World& world) const {
  return world.bodyPose(body_).apply(localPoint_);
}

void MouseSpring::apply(World& world, double dt) {
  if (!active()) return;
  if (body_ >= static_cast<int>(world.bodies().size())) {
    release();
    return;
  }
  const RigidBody& r = world.rigidBodies()[body_];
  if (r.isStatic || r.inverseMass <= 0.0) return;
  const double mass = 1.0 / r.inverseMass;
  const Eigen::Vector3d point = anchor(world);
  const Eigen::Vector3d velocity = r.pointVelocity(point);
  const double omega = 2.0 * std::numbers::pi * frequency;
  // Acceleration of a unit mass on a damped spring, capped; plus what cancels gravity.
  Eigen::Vector3d acceleration =
      omega * omega * (target_ - point) - 2.0 * dampingRatio * omega * velocity;
  if (acceleration.norm() > maxAcceleration) acceleration *= maxAcceleration / acceleration.norm();
  acceleration -= world.scene().gravity;
  world.applyImpulse(body_, point, mass * dt * acceleration);
}

}  // namespace hb::viewer
