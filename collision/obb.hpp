#pragma once
// Oriented bounding boxes: fitting to point sets, world boxes from poses, and the 15-axis
// separating-axis overlap test (Ericson, "Real-Time Collision Detection", Sec. 4.4).

#include <Eigen/Core>
#include <span>

#include "collision/pose.hpp"
#include "collision/shape.hpp"

namespace hb {

struct Obb {
  Eigen::Vector3d center = Eigen::Vector3d::Zero();
  /// Columns are the box's orthonormal axes (a right-handed rotation).
  Eigen::Matrix3d axes = Eigen::Matrix3d::Identity();
  Eigen::Vector3d halfExtents = Eigen::Vector3d::Zero();

  double volume() const { return 8.0 * halfExtents.prod(); }
  /// True when x lies inside the box grown by tolerance (metres).
  bool contains(const Eigen::Vector3d& x, double tolerance = 1e-9) const;
  /// This box (in a body's local frame) mapped to the world by the body's pose.
  Obb transformed(const Pose& pose) const;
  /// Half-extents of its axis-aligned bounds.
  Eigen::Vector3d aabbHalfExtents() const { return axes.cwiseAbs() * halfExtents; }
  /// The eight corners.
  std::array<Eigen::Vector3d, 8> corners() const;
};

/// Smallest-volume box among candidate orientations: PCA axes, and for every hull face normal
/// the minimum-area rectangle of the points projected on that face's plane (rotating calipers
/// over the projected 2-D hull edges). Hulls of more than kExactObbFitFaces faces take their
/// orientation from the hull of their supports along kObbSampleDirections directions (a box
/// then within a few percent of the smallest; its extents still from every vertex), so that the
/// fit stays near-linear in the vertices. Throws HullError on degenerate input.
Obb fitObb(std::span<const Eigen::Vector3d> points);
Obb fitObb(const ConvexHull& hull);
inline constexpr int kExactObbFitFaces = 20000;
inline constexpr int kObbSampleDirections = 4096;

/// Tight local box of a shape: exact for primitives, fitted for hulls.
Obb localObb(const Shape& shape);

/// Separating-axis test over the 15 axes of two boxes; true when they overlap (touching counts).
bool obbOverlap(const Obb& a, const Obb& b);

}  // namespace hb
