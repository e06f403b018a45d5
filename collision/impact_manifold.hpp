#pragma once
// The contact manifold of two shapes where they will meet, not where they are. A pair still
// apart at the start of a (sub)step whose gap closes within it touches at its time of impact,
// and when the shapes also move sideways until then, the line through their closest points
// turns: two balls in an oblique collision meet along the line of centres at impact, and a
// normal taken from their start deflects the struck ball by up to 8 degrees at 120 Hz (first
// order in the step). The impact is found by casting A along its velocity relative to B
// (collision/shape_cast.hpp), and the manifold is built there. The cast takes the motion as a
// translation: where the bodies' turns move their surfaces by more than a tenth of the sideways
// travel before the impact, the start's manifold is kept (a tumbling hull's impact
// is not where a translation puts it, and its start normal at least bounds the approach).

#include <Eigen/Core>
#include <optional>

#include "collision/collide.hpp"
#include "collision/contact_manifold.hpp"
#include "collision/pose.hpp"
#include "collision/shape.hpp"

namespace hb {

struct ImpactManifold {
  /// At the impact: A translated by `shift`, B where it is.
  ContactManifold manifold;
  /// A's translation relative to B from the start until they touch (world, m).
  Eigen::Vector3d shift = Eigen::Vector3d::Zero();
  double time = 0.0;  ///< s after the start
};

/// Below this (m) of sideways travel before the impact, the start's normal is the impact's.
inline constexpr double kImpactSidewaysTolerance = 1e-6;

/// The manifold at the time of impact of A and B, apart at the start by `start` (the narrow
/// phase's answer at these poses), A's closest point moving at `relativeVelocity` (world, m/s)
/// relative to B's; nothing when they do not close their gap within `duration`, touch already,
/// approach head-on, turn too fast (`turnSpeed`: how fast their turns move their surfaces,
/// m/s, e.g. |w_A| reach_A + |w_B| reach_B), or the cast does not find the impact (the start's
/// manifold then stands). `margin` keeps speculative points as buildContactManifold does.
std::optional<ImpactManifold> impactManifold(const Shape& a, const Pose& poseA, const Shape& b,
                                             const Pose& poseB, const CollisionResult& start,
                                             const Eigen::Vector3d& relativeVelocity,
                                             double turnSpeed, double duration, double margin);

}  // namespace hb
