#pragma once
// Support of the Minkowski difference D = A - B of two posed shapes, expressed in A's frame so
// that A's support needs no transform. The support functions are chosen once per pair.

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "collision/pose.hpp"
#include "collision/shape.hpp"
#include "collision/support.hpp"

namespace hb {

/// Vertex hints of both shapes, carried across GJK iterations and across calls (pair cache).
struct SupportHints {
  int a = -1;  ///< -1: no hint yet
  int b = -1;
};

/// A support point of D with the points of A and B it came from (all in A's frame). Left
/// uninitialised by default: GJK's simplex and EPA's polytope hold arrays of them that are
/// filled one by one, and zeroing them cost more than a GJK call's arithmetic.
struct SupportPoint {
  Eigen::Vector3d w;  // a - b
  Eigen::Vector3d a;
  Eigen::Vector3d b;
};

class MinkowskiDifference {
 public:
  MinkowskiDifference(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB);

  /// Point of the core difference maximising dir . w (dir in A's frame, any length).
  [[gnu::always_inline]] SupportPoint supportCore(const Eigen::Vector3d& dir,
                                                  SupportHints& hints) const {
    const Eigen::Vector3d pa = supportA_(a_, dir, hints.a);
    const Eigen::Vector3d pb =
        rotationBtoA_ * supportB_(b_, rotationBtoA_.transpose() * -dir, hints.b) + translationBinA_;
    return {pa - pb, pa, pb};
  }
  /// Same on the full shapes: the cores' support moved out by the convex radii.
  SupportPoint supportFull(const Eigen::Vector3d& dir, SupportHints& hints) const {
    SupportPoint s = supportCore(dir, hints);
    const double n = dir.norm();
    if (n > 0.0) {
      const Eigen::Vector3d u = dir / n;
      s.a += a_.convexRadius() * u;
      s.b -= b_.convexRadius() * u;
      s.w = s.a - s.b;
    }
    return s;
  }

  const Shape& shapeA() const { return a_; }
  const Shape& shapeB() const { return b_; }
  /// Sum of the two convex radii.
  double inflation() const { return a_.convexRadius() + b_.convexRadius(); }
  /// Pose of A in the world: maps results from A's frame to world coordinates.
  const Pose& poseA() const { return poseA_; }
  /// B's origin in A's frame.
  const Eigen::Vector3d& translationBinA() const { return translationBinA_; }
  const Eigen::Matrix3d& rotationBtoA() const { return rotationBtoA_; }
  /// A's pose is valid and B's pose relative to A finite: the solvers' input check.
  bool finite() const {
    return poseA_.isValid() && translationBinA_.allFinite() && rotationBtoA_.allFinite();
  }

 private:
  const Shape& a_;
  const Shape& b_;
  Pose poseA_;
  Eigen::Matrix3d rotationBtoA_;  // its transpose maps A's frame to B's
  Eigen::Vector3d translationBinA_;
  SupportFunction supportA_;
  SupportFunction supportB_;
};

}  // namespace hb
