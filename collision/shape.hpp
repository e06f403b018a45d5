#pragma once
// Convex shapes in their local frame (metres). Spheres and capsules are a core (a point, a
// segment) inflated by a convex radius: GJK runs on the cores, which converges in a few
// iterations, and the radius is subtracted afterwards. Boxes and hulls may be rounded the same
// way (withConvexRadius): a core shrunk by r inflated by r, i.e. the shape with its edges and
// corners rounded by r, so that a contact shallower than the radii is a distance between cores.

#include <Eigen/Core>
#include <memory>
#include <string_view>

#include "collision/convex_hull.hpp"
#include "collision/smooth_convex.hpp"

namespace hb {

enum class ShapeType {
  Sphere,
  Box,
  Capsule,
  Cylinder,
  Cone,
  Ellipsoid,
  ConvexHull,
  Superquadric,   ///< smooth: collision/superquadric.hpp
  SupportPoints,  ///< smooth: a prescribed support function, collision/support_points.hpp
};

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
  /// A superquadric of scales `radii` and exponents alpha1 (z), alpha2 (x-y) in (0, 2), with the
  /// convex radius defaults::kSuperquadricRadius.
  static Shape superquadric(const Eigen::Vector3d& radii, double alpha1, double alpha2);
  /// A prescribed support function (collision/support_points.hpp).
  static Shape supportPoints(std::shared_ptr<const SmoothConvex> body);
  static Shape convexHull(std::shared_ptr<const ConvexHull> hull);
  /// A hull rounded by `convexRadius` around a core computed before (a recording's): the core
  /// must be insetHull(*hull, convexRadius)'s. Throws std::invalid_argument when the radius is
  /// out of range or the core sticks out of the hull's face planes moved in by the radius.
  static Shape roundedConvexHull(std::shared_ptr<const ConvexHull> hull,
                                 std::shared_ptr<const ConvexHull> core, double convexRadius);

  /// This box or hull with its edges and corners rounded by a convex radius r (metres), its
  /// faces where they were: GJK and EPA run on the core (the box shrunk by r, the hull's face
  /// planes moved in by r; shared by every shape rounded alike from one hull) and add r back.
  /// r is clamped to maxConvexRadius(); 0 gives the plain shape. Throws std::invalid_argument
  /// for a negative or non-finite r or r > 0 on another type, HullError when the core of a hull
  /// cannot be built.
  Shape withConvexRadius(double r) const;
  /// Largest convex radius of a box or hull: defaults::kMaxConvexRadiusFraction of its inner
  /// radius (a box's smallest half extent, a hull's ConvexHull::innerRadius()); 0 otherwise.
  double maxConvexRadius() const;

  ShapeType type() const { return type_; }
  /// Sphere, capsule, cylinder and cone radius.
  double radius() const { return radius_; }
  /// Capsule, cylinder and cone half length along z.
  double halfLength() const { return dims_.z(); }
  /// Box half extents (the outer box: its faces are the rounded box's).
  const Eigen::Vector3d& halfExtents() const { return dims_; }
  /// Half extents of a box's core: halfExtents() - convexRadius().
  const Eigen::Vector3d& coreHalfExtents() const { return coreDims_; }
  /// Ellipsoid semi-axes.
  const Eigen::Vector3d& radii() const { return dims_; }
  /// The hull as given (the outer faces: rendering, mass, bounding boxes).
  const ConvexHull& hull() const { return *hull_; }
  const std::shared_ptr<const ConvexHull>& hullPtr() const { return hull_; }
  /// The hull GJK and EPA see: hull() with its face planes moved in by convexRadius(), or
  /// hull() itself when the radius is 0.
  const ConvexHull& coreHull() const { return *core_; }
  const std::shared_ptr<const ConvexHull>& coreHullPtr() const { return core_; }
  /// A superquadric's or prescribed support function's body (its core: without the convex
  /// radius). Their hull() is a polyhedron of points of the full body's surface (a superquadric's
  /// parametric grid, 40 x 80; a prescribed support function's support points along
  /// defaults::kSmoothTessellationDirections directions), standing in for it where a mesh is
  /// needed (mass, rendering, picking).
  const SmoothConvex& smooth() const { return *smooth_; }
  const std::shared_ptr<const SmoothConvex>& smoothPtr() const { return smooth_; }
  bool isSmooth() const { return smooth_ != nullptr; }

  /// Radius by which the core is inflated: sphere and capsule radius, the rounding of a box or
  /// hull, 0 otherwise.
  double convexRadius() const { return convexRadius_; }

 private:
  ShapeType type_ = ShapeType::Sphere;
  Eigen::Vector3d dims_ = Eigen::Vector3d::Zero();
  Eigen::Vector3d coreDims_ = Eigen::Vector3d::Zero();
  double radius_ = 0.0;
  double convexRadius_ = 0.0;
  std::shared_ptr<const ConvexHull> hull_;
  std::shared_ptr<const ConvexHull> core_;
  std::shared_ptr<const SmoothConvex> smooth_;
};

}  // namespace hb
