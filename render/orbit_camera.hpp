#pragma once
// A camera orbiting a target point, z up: yaw about z, pitch above the horizon, distance.
// Mouse drags orbit and pan, the wheel zooms; framing and view resets glide to their goal.

#include <Eigen/Core>

#include "render/ray_cast.hpp"

namespace hb {

struct OrbitView {
  Eigen::Vector3d target = Eigen::Vector3d::Zero();  ///< m, world
  double distance = 2.0;                             ///< m from the target
  double yaw = 0.0;    ///< rad about +z; the camera sits towards (cos yaw, sin yaw) from the target
  double pitch = 0.4;  ///< rad above the horizon
};

class OrbitCamera {
 public:
  static constexpr double kFovY = 0.7854;  ///< rad (45 degrees)

  /// Jumps to `view` (no glide) and makes it the home view for reset().
  void setHome(const OrbitView& view);
  /// Glides back to the home view.
  void reset() { glideTo(home_); }
  /// Glides so that a sphere of `radius` around `center` fills the view.
  void frame(const Eigen::Vector3d& center, double radius);
  /// Glides the target to `point`, keeping the distance.
  void lookAt(const Eigen::Vector3d& point);

  /// Mouse motion in pixels; `viewportHeight` scales pans to the distance.
  void orbit(double dx, double dy);
  void pan(double dx, double dy, double viewportHeight);
  /// Wheel steps; positive zooms in.
  void zoom(double steps);
  /// Advances a glide by `seconds` of wall time.
  void update(double seconds);

  const OrbitView& view() const { return view_; }
  Eigen::Vector3d position() const;
  /// Unit vector from the camera towards the target.
  Eigen::Vector3d forward() const;
  Eigen::Matrix4f viewMatrix() const;
  Eigen::Matrix4f projectionMatrix(double aspect) const;
  double nearPlane() const { return 0.005 * view_.distance + 0.005; }
  double farPlane() const { return 200.0 * view_.distance + 20.0; }
  /// Ray through a point of the viewport (pixels, origin at the top-left).
  Ray rayThrough(double x, double y, double width, double height) const;

 private:
  void glideTo(const OrbitView& goal);

  OrbitView view_;
  OrbitView home_;
  OrbitView goal_;
  bool gliding_ = false;
};

}  // namespace hb
