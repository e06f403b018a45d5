#include "collision/persistent_manifold.hpp"
#include "collision/portable_math.hpp"

#include <algorithm>
#include <cmath>

namespace hb {

bool manifoldMayBeKept(const Shape& a, const Shape& b) {
  const auto rolls = [](const Shape& s) {
    switch (s.type()) {
      case ShapeType::Sphere:
      case ShapeType::Capsule:
      case ShapeType::Cylinder:
      case ShapeType::Cone:
      case ShapeType::Ellipsoid:
        return true;
      default:
        return false;
    }
  };
  return !rolls(a) && !rolls(b);
}

namespace {

/// Whether `kept` is still where it was built, to the motion tolerance, and the margin did not
/// grow past it.
bool movedLittle(const PersistentManifold& kept, const Pose& poseA, const Pose& poseB,
                 double margin, double reachA, double reachB,
                 const ManifoldReuseTolerances& tolerances) {
  // A margin grown by more than the motion tolerance could take in points that were left out.
  if (!tolerances.enabled || kept.size == 0 || !(margin <= kept.margin + tolerances.motion)) {
    return false;
  }
  // The relative motion since the build, in A's frame, is x -> turn (x - t_old) + t_new: it
  // moves B's origin by t_new - t_old and A's by t_new - turn t_old, and any point by at most
  // that plus the angle times its distance from the origin.
  const Pose relative = poseA.inverse() * poseB;
  const Eigen::Quaterniond turn = relative.q * kept.relativePose.q.conjugate();
  const double angle = portable::angleBetween(kept.relativePose.q, relative.q);
  const double motionB = (relative.p - kept.relativePose.p).norm() + angle * reachB;
  const double motionA = (relative.p - turn * kept.relativePose.p).norm() + angle * reachA;
  return std::min(motionA, motionB) <= tolerances.motion;
}

/// The kept points at the current poses, their depths measured along the kept normal, those
/// within `margin`; `deepest` takes the deepest one's depth.
ContactManifold reposedPoints(const PersistentManifold& kept, const Pose& poseA, const Pose& poseB,
                              double margin, double& deepest) {
  const Eigen::Vector3d n = poseA.q * kept.normalInA;
  ContactManifold m;
  m.normal = n;
  for (int i = 0; i < kept.size; ++i) {
    const Eigen::Vector3d pointA = poseA.apply(kept.pointsInA[i]);
    const double depth = n.dot(pointA - poseB.apply(kept.pointsInB[i]));
    if (!(depth >= -margin)) continue;
    // B's partner straight below A's point, so that pointA - pointB = depth * normal holds as
    // for a built manifold.
    m.points[m.size++] = {pointA, pointA - depth * n, depth};
    deepest = std::max(deepest, depth);
  }
  return m;
}

}  // namespace

PersistentManifold persistManifold(const ContactManifold& manifold, const Pose& poseA,
                                   const Pose& poseB, double signedDistance, double margin) {
  PersistentManifold kept;
  kept.relativePose = poseA.inverse() * poseB;
  kept.normalInA = poseA.q.conjugate() * manifold.normal;
  kept.size = manifold.size;
  kept.margin = margin;
  double deepest = -INFINITY;
  for (int i = 0; i < manifold.size; ++i) {
    kept.pointsInA[i] = poseA.applyInverse(manifold.points[i].pointA);
    kept.pointsInB[i] = poseB.applyInverse(manifold.points[i].pointB);
    deepest = std::max(deepest, manifold.points[i].depth);
  }
  kept.depthGap = deepest + signedDistance;
  return kept;
}

std::optional<CollisionResult> standInResult(const PersistentManifold& kept, const Pose& poseA,
                                             const Pose& poseB, double margin, double reachA,
                                             double reachB,
                                             const ManifoldReuseTolerances& tolerances) {
  if (!tolerances.standIn || !movedLittle(kept, poseA, poseB, margin, reachA, reachB, tolerances)) {
    return std::nullopt;
  }
  // Every kept point, whatever the margin: the deepest one is the witness.
  double deepest = -INFINITY;
  const ContactManifold all = reposedPoints(kept, poseA, poseB, INFINITY, deepest);
  Eigen::Vector3d onA = Eigen::Vector3d::Zero();
  for (int i = 0; i < all.size; ++i) {
    if (all.points[i].depth == deepest) {
      onA = all.points[i].pointA;
      break;
    }
  }
  const Eigen::Vector3d& n = all.normal;
  // Apart, the query's answer matters (a speculative contact closing during the step may be an
  // impact, collision/impact_manifold.hpp): only touching pairs skip it. A kept point on or past
  // the surface is touching: a pair resting at zero depth is not apart by its depth gap's
  // rounding (a few 1e-28 m either way).
  const double signedDistance = kept.depthGap - deepest;
  if (!(signedDistance <= 0.0 || deepest >= 0.0)) return std::nullopt;
  CollisionResult r;
  r.collide = true;
  r.distance = std::min(signedDistance, 0.0);
  r.normal = n;
  r.witnessA = onA;
  r.witnessB = onA + r.distance * n;
  r.gjkStatus = GjkStatus::Intersecting;
  return r;
}

std::optional<ContactManifold> reposeManifold(const PersistentManifold& kept, const Pose& poseA,
                                              const Pose& poseB, const Eigen::Vector3d& normal,
                                              double signedDistance, double margin, double reachA,
                                              double reachB,
                                              const ManifoldReuseTolerances& tolerances) {
  if (!std::isfinite(signedDistance) ||
      !movedLittle(kept, poseA, poseB, margin, reachA, reachB, tolerances)) {
    return std::nullopt;
  }
  const Eigen::Vector3d n = poseA.q * kept.normalInA;
  if (!(n.dot(normal) >= portable::cos(tolerances.normalAngle) * normal.norm()))
    return std::nullopt;
  double deepest = -INFINITY;
  const ContactManifold m = reposedPoints(kept, poseA, poseB, margin, deepest);
  if (m.size == 0) return std::nullopt;
  if (!(std::abs(deepest + signedDistance - kept.depthGap) <= tolerances.depth)) {
    return std::nullopt;
  }
  return m;
}

std::optional<ContactManifold> reposeStandIn(const PersistentManifold& kept, const Pose& poseA,
                                             const Pose& poseB, double margin) {
  double deepest = -INFINITY;
  const ContactManifold m = reposedPoints(kept, poseA, poseB, margin, deepest);
  if (m.size == 0) return std::nullopt;
  return m;
}

}  // namespace hb
