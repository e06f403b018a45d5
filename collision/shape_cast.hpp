#pragma once
// Collision translation (a shape cast): how far shape A can translate along a direction before
// it touches shape B, or a plane separating B from everything A sweeps.
//
// GJK ray cast (G. van den Bergen, "Ray casting against general convex objects with application
// to continuous collision detection", 2004): the translation s r (r unit) brings A into contact
// with B when -s r lies on the boundary of the Minkowski difference D = A - B, so the ray from the
// origin along -r is cast against D with GJK's simplex and support machinery. Each support plane
// that the ray's current point lies beyond either advances the point to the plane (a
// conservative step: nothing of D lies before it) or, when the ray runs away from the plane,
// proves a miss. Runs on the full shapes (cores moved out by their convex radii).

#include <Eigen/Core>

#include "collision/defaults.hpp"
#include "collision/minkowski_difference.hpp"
#include "collision/pose.hpp"
#include "collision/shape.hpp"

namespace hb {

enum class CastStatus {
  Hit,            ///< A touches B after translating `distance` along the direction
  Overlapping,    ///< the shapes already collide: distance 0
  Miss,           ///< A never touches B along the ray; `separatingPlane` proves it
  MaxIterations,  ///< iteration cap hit; `distance` is a lower bound on the translation
  InvalidInput,   ///< non-finite pose, or a zero or non-finite direction
};
std::string_view toString(CastStatus s);

struct CastOptions {
  /// The ray has reached D when its point is within this distance of it (metres).
  double tolerance = 1e-6;
  int maxIterations = defaults::kGjkMaxIterations;
};

/// A plane n . x = offset (world, n unit).
struct Plane {
  Eigen::Vector3d normal = Eigen::Vector3d::UnitX();
  double offset = 0.0;
};

struct CastResult {
  CastStatus status = CastStatus::InvalidInput;
  /// Metres along the unit direction: the translation at which A touches B (Hit), 0
  /// (Overlapping), +infinity (Miss), or the translation reached (MaxIterations).
  double distance = 0.0;
  /// At the touching configuration (A translated by distance * direction), world: the contact
  /// normal from A towards B and the witness points on A (translated) and on B.
  Eigen::Vector3d normal = Eigen::Vector3d::UnitX();
  Eigen::Vector3d witnessA = Eigen::Vector3d::Zero();
  Eigen::Vector3d witnessB = Eigen::Vector3d::Zero();
  /// Miss: A's swept volume (every translation t >= 0 along the direction) lies in
  /// normal . x > offset, B in normal . x < offset; normal . direction >= 0.
  Plane separatingPlane;
  int iterations = 0;
  SupportHints hints;
};

/// Casts A from `poseA` along `direction` (world, any non-zero length; only its direction
/// counts) against B at `poseB`. `hints` warm-start the support searches. Allocates nothing.
CastResult castShape(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB,
                     const Eigen::Vector3d& direction, const CastOptions& options = {},
                     SupportHints hints = {});

}  // namespace hb
