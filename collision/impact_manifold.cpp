#include "collision/impact_manifold.hpp"

#include <cmath>

#include "collision/shape_cast.hpp"

namespace hb {

std::optional<ImpactManifold> impactManifold(const Shape& a, const Pose& poseA, const Shape& b,
                                             const Pose& poseB, const CollisionResult& start,
                                             const Eigen::Vector3d& relativeVelocity,
                                             double turnSpeed, double duration, double margin) {
  if (!start.ok() || !(start.distance > 0.0) || !relativeVelocity.allFinite()) {
    return std::nullopt;
  }
  // Closing along the start's normal, fast enough to touch within the duration.
  const double closing = relativeVelocity.dot(start.normal);
  if (!(closing * duration > start.distance)) return std::nullopt;
  const double sideways = (relativeVelocity - closing * start.normal).norm();
  if (sideways * (start.distance / closing) < kImpactSidewaysTolerance ||
      !(turnSpeed <= 0.1 * sideways)) {
    return std::nullopt;
  }
  const CastResult cast = castShape(a, poseA, b, poseB, relativeVelocity);
  const double speed = relativeVelocity.norm();
  if (cast.status != CastStatus::Hit || !(cast.distance <= speed * duration)) {
    return std::nullopt;
  }
  ImpactManifold out;
  out.time = cast.distance / speed;
  out.shift = out.time * relativeVelocity;
  Pose atImpact = poseA;
  atImpact.p += out.shift;
  out.manifold = buildContactManifold(a, atImpact, b, poseB, cast.normal, cast.witnessA,
                                      cast.witnessB, 0.0, margin);
  return out;
}

}  // namespace hb
