#pragma once
// Convex shapes in their local frame (metres). Spheres and capsules are a core (a point, a
// segment) inflated by a convex radius: GJK runs on the cores, which converges in a few
// iterations, and the radius is subtracted afterwards.

#include <Eigen/Core>
#include <memory>
#include <string_view>

#include "collision/convex_hull.hpp"

namespace hb {

enum class ShapeType { Sphere, Box, Capsule, Cylinder, Cone, Ellipsoid, ConvexHull };

std::string_view toString(ShapeType type);

class Shape {
 public:
  /// Factories throw std::invalid_argument for non-positive or non-finite parameters.
  static Shape sphere(double radius);
  static Shape box(const Eigen::Vector3d& halfExtents);
  /// Axis = local z, centred; the core is the segment z in [-halfLength, halfLength].
  static Shape capsule(double radius, double halfLength);
  /// Axis = local z, centred.
  static Shape cylinder(double radius, double halfLength);
  /// Axis = local z: base disk at z = -halfLength, apex at z = +halfLength.
  static Shape cone(double radius, double halfLength);
  static Shape ellipsoid(const Eigen::Vector3d& radii);
  static Shape convexHull(std::shared_ptr<const ConvexHull> hull);

  ShapeType type() const { return type_; }
  /// Sphere, capsule, cylinder and cone radius.
  double radius() const { return radius_; }
  /// Capsule, cylinder and cone half length along z.
  double halfLength() const { return dims_.z(); }
  /// Box half extents.
  const Eigen::Vector3d& halfExtents() const { return dims_; }
  /// Ellipsoid semi-axes.
  const Eigen::Vector3d& radii() const { return dims_; }
  const ConvexHull& hull() const { return *hull_; }
  const std::shared_ptr<const ConvexHull>& hullPtr() const { return hull_; }

  /// Radius by which the core is inflated: sphere and capsule radius, 0 otherwise.
  double convexRadius() const {
    return (type_ == ShapeType::Sphere || type_ == ShapeType::Capsule) ? radius_ : 0.0;
  }

 private:
  ShapeType type_ = ShapeType::Sphere;
  Eigen::Vector3d dims_ = Eigen::Vector3d::Zero();
  double radius_ = 0.0;
  std::shared_ptr<const ConvexHull> hull_;
};

}  // namespace hb
