#pragma once
// Grabbing a body with the mouse: a spring-damper between the grabbed material point and a
// target that follows the cursor on the plane facing the camera through the grab point. Applied
// as an impulse before each step, scaled by the body's mass so that every object follows the
// cursor alike (critically damped at a few hertz), and weightless while held.

#include <Eigen/Core>

#include "engine/world.hpp"
#include "render/ray_cast.hpp"

namespace hb::viewer {

class MouseSpring {
 public:
  double frequency = 3.0;  ///< Hz
  double dampingRatio = 1.0;
  double maxAcceleration = 80.0;  ///< m/s^2, so a far target does not fling the body

  /// Grabs `body` at the world point `point`; the target moves on the plane through it with
  /// normal `planeNormal` (the camera's forward axis).
  void grab(const World& world, int body, const Eigen::Vector3d& point,
            const Eigen::Vector3d& planeNormal);
  /// Moves the target to where `ray` meets the drag plane.
  void drag(const Ray& ray);
  void release() { body_ = -1; }

  bool active() const { return body_ > 0; }
  int body() const { return body_; }
  const Eigen::Vector3d& target() const { return target_; }
  /// The grabbed point in the world now.
  Eigen::Vector3d anchor(const World& world) const;

  /// Applies one step's impulse (dt in seconds); releases bodies that no longer exist.
  void apply(World& world, double dt);

 private:
  int body_ = -1;
  Eigen::Vector3d localPoint_ = Eigen::Vector3d::Zero();  // in the body frame
  Eigen::Vector3d target_ = Eigen::Vector3d::Zero();
  Eigen::Vector3d planePoint_ = Eigen::Vector3d::Zero();
  Eigen::Vector3d planeNormal_ = Eigen::Vector3d::UnitZ();
};

}  // namespace hb::viewer
