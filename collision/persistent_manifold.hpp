#pragma once
// A contact manifold kept from one step to the next in the two shapes' own frames, and re-posed
// instead of rebuilt while the shapes keep almost the same relative pose (the contact caching of
// Bullet's persistent manifolds and PhysX's contact cache). In a pile most touching pairs move
// relative to each other by less than a tenth of a millimetre per step, and rebuilding their
// manifolds (support features, clipping) is most of the contact set-up.
//
// Re-posing maps the kept points with the current poses and measures each depth again along the
// kept normal, so every point stays on the material of both shapes; what is not tracked is a new
// feature entering the manifold, which the motion bound keeps below its tolerance. The
// narrow phase's answer of the step must agree with the kept manifold (normal and distance), or
// the manifold is rebuilt. A touching pair that moved less than the tolerance does not need that
// answer: the kept manifold gives it (standInResult), and the query is not run (Jolt skips the
// narrow phase of a body pair that barely moved in the same way).

#include <Eigen/Core>
#include <array>
#include <optional>

#include "collision/collide.hpp"
#include "collision/contact_manifold.hpp"
#include "collision/defaults.hpp"
#include "collision/pose.hpp"
#include "collision/shape.hpp"

namespace hb {

/// When a kept manifold may stand in for a rebuilt one.
struct ManifoldReuseTolerances {
  bool enabled = true;
  /// Largest motion (m) of the contact region relative to A since the manifold was built,
  /// bounded for the points within reach of either shape's origin: |displacement of the origin|
  /// + reach * rotation angle: a small part of the 1 mm band within which a manifold takes a
  /// face's vertices (docs/design.md weighs larger values).
  double motion = 3e-5;
  /// Largest angle (rad) between the narrow phase's normal and the kept one.
  double normalAngle = 2e-3;
  /// Largest change (m) of the gap between the deepest kept point and the narrow phase's
  /// signed distance since the manifold was built.
  double depth = 1e-4;
  /// A touching pair that moved less than `motion` skips its narrow-phase query: its kept
  /// manifold gives the answer (standInResult).
  bool standIn = true;
};

struct PersistentManifold {
  Pose relativePose;  ///< B's frame in A's frame when the manifold was built
  Eigen::Vector3d normalInA = Eigen::Vector3d::UnitZ();
  std::array<Eigen::Vector3d, defaults::kMaxManifoldPoints> pointsInA;  ///< on A, A's frame
  std::array<Eigen::Vector3d, defaults::kMaxManifoldPoints> pointsInB;  ///< on B, B's frame
  int size = 0;
  double margin = 0.0;  ///< speculative margin it was built with (m)
  /// Deepest point's depth + the narrow phase's signed distance, when built (m).
  double depthGap = 0.0;
};

/// Whether a manifold between these shapes may be kept and re-posed. Not when either is a sphere,
/// capsule, cylinder, cone or ellipsoid: on their curved surfaces the contact point moves over
/// the material as the body rolls, so a kept point trails behind the body and the weight acting
/// there turns it on (a ball at rest crept at 1 mm/s, rolling on its own trailing contact),
/// while their rebuilt point is exact. Polytopes (boxes and hulls, rounded or not) touch at
/// material points, a face's corners or an edge's ends. Superquadrics and prescribed support
/// functions keep theirs too: where they are nearly flat their narrow-phase witness, rebuilt
/// each step, wanders over the flat part, and the kept point holds them still.
bool manifoldMayBeKept(const Shape& a, const Shape& b);

/// Keeps `manifold`, built at these poses with this margin from this signed distance.
PersistentManifold persistManifold(const ContactManifold& manifold, const Pose& poseA,
                                   const Pose& poseB, double signedDistance, double margin);

/// The narrow phase's answer that `kept` gives at the current poses, when it may stand in for the
/// query: reuse is on (`enabled` and `standIn`), the margin grew by at most the motion
/// tolerance, the shapes moved relative to each other by at most that tolerance since it was
/// built (as reposeManifold measures it), and they touch (signed distance <= 0). Its normal is
/// the kept one, its signed distance the deepest kept point's depth less the gap measured when
/// it was built, its witnesses that point and the point that distance along the normal from it;
/// status Intersecting, no iterations.
std::optional<CollisionResult> standInResult(const PersistentManifold& kept, const Pose& poseA,
                                             const Pose& poseB, double margin, double reachA,
                                             double reachB,
                                             const ManifoldReuseTolerances& tolerances);

/// The kept manifold at the current poses for a pair it answered for (standInResult, at the same
/// poses and margin): reposeManifold without its tolerances, which standInResult checked.
std::optional<ContactManifold> reposeStandIn(const PersistentManifold& kept, const Pose& poseA,
                                             const Pose& poseB, double margin);

/// The kept manifold at the current poses (points re-mapped, depths measured again along the
/// kept normal, points beyond `margin` dropped), or nothing when it may not stand in for a
/// rebuilt one: the shapes moved relative to each other by more than the tolerance (for points
/// within `reachA` of A's origin or `reachB` of B's, whichever bound is smaller), the narrow
/// phase's normal or signed distance disagree with it, the margin grew by more than the motion
/// tolerance, or no point is left.
std::optional<ContactManifold> reposeManifold(const PersistentManifold& kept, const Pose& poseA,
                                              const Pose& poseB, const Eigen::Vector3d& normal,
                                              double signedDistance, double margin, double reachA,
                                              double reachB,
                                              const ManifoldReuseTolerances& tolerances);

}  // namespace hb
