#pragma once
// Ray casts against convex shapes, for picking bodies with the mouse. Exact for every shape
// type: face planes for hulls and boxes (Cyrus-Beck clipping), quadrics for the round shapes.

#include <Eigen/Core>
#include <optional>

#include "collision/pose.hpp"
#include "collision/shape.hpp"

namespace hb {

class World;

struct Ray {
  Eigen::Vector3d origin = Eigen::Vector3d::Zero();
  Eigen::Vector3d direction = Eigen::Vector3d::UnitX();  ///< unit
  Eigen::Vector3d at(double t) const { return origin + t * direction; }
};

/// Distance along `ray` (in the shape's frame) to where it enters `shape`: 0 when it starts
/// inside, nullopt when it misses or the shape lies behind.
std::optional<double> rayCast(const Shape& shape, const Ray& ray);
/// Same with the shape placed at `pose` and the ray in the world.
std::optional<double> rayCast(const Shape& shape, const Pose& pose, const Ray& ray);

struct RayHit {
  int body = -1;
  int proxy = -1;
  double distance = 0.0;                            ///< m along the ray
  Eigen::Vector3d point = Eigen::Vector3d::Zero();  ///< world
};

/// The nearest body the ray hits. Static pieces count only with `includeStatic`; each piece's
/// world OBB culls first.
std::optional<RayHit> pickBody(const World& world, const Ray& ray, bool includeStatic);

}  // namespace hb
