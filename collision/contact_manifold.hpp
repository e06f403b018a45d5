#pragma once
// Contact manifold from a collision normal: the support features of both shapes along the
// normal (a face polygon for hulls and boxes, a point, segment or polygonised disk for curved
// shapes) are clipped against each other (Sutherland–Hodgman) and reduced to at most four points.

#include <Eigen/Core>
#include <array>

#include "collision/defaults.hpp"
#include "collision/pose.hpp"
#include "collision/shape.hpp"

namespace hb {

struct ContactPoint {
  Eigen::Vector3d pointA = Eigen::Vector3d::Zero();  ///< world, on A's surface
  Eigen::Vector3d pointB = Eigen::Vector3d::Zero();  ///< world, on B's surface
  /// Penetration along the normal (metres): > 0 overlapping, < 0 a speculative gap.
  double depth = 0.0;
};

struct ContactManifold {
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();  ///< world, unit, from A towards B
  std::array<ContactPoint, defaults::kMaxManifoldPoints> points;
  int size = 0;
};

/// Builds the manifold of A and B given the collision normal (world, A towards B), the witness
/// points of the narrow phase (world) and their signed distance (negative = penetration).
/// Points separated by more than `margin` (metres) are dropped; with margin > 0 shapes apart by
/// less than margin give speculative points (negative depth). Always returns at least the
/// witness pair when signedDistance <= margin.
ContactManifold buildContactManifold(const Shape& a, const Pose& poseA, const Shape& b,
                                     const Pose& poseB, const Eigen::Vector3d& normal,
                                     const Eigen::Vector3d& witnessA,
                                     const Eigen::Vector3d& witnessB, double signedDistance,
                                     double margin);

}  // namespace hb
