#pragma once
// Other libraries' collision translations (shape casts) for `heavyball bench cast`, each in its
// own file, built only when its library is found.

#include <memory>
#include <span>
#include <string_view>

#include "collision/pose.hpp"
#include "collision/shape.hpp"

namespace hb::bench::peers {

struct PeerCast {
  bool hit = false;
  double distance = 0.0;  ///< metres along the unit direction (hit only)
};

class CastPeer {
 public:
  virtual ~CastPeer() = default;
  virtual std::string_view name() const = 0;
  /// Builds the library's shapes (not timed).
  virtual void prepare(std::span<const Shape> shapes) = 0;
  /// Casts shape a from poseA along the unit `direction` over `length` metres against shape b.
  virtual PeerCast cast(int a, const Pose& poseA, int b, const Pose& poseB,
                        const Eigen::Vector3d& direction, double length) = 0;
};

/// Bullet (HB_HAVE_BULLET) on btConvexHullShape, margins zero: btSubsimplexConvexCast (van den
/// Bergen's GJK ray cast) and btGjkConvexCast (conservative advancement on GJK distances, to
/// within 1 mm, at most 32 steps: a cast that needs more reports no hit).
std::unique_ptr<CastPeer> makeBulletSubsimplexCast();
std::unique_ptr<CastPeer> makeBulletGjkCast();
/// FCL (HB_HAVE_FCL) on fcl::Convex: fcl::continuousCollide with a translational motion and
/// conservative advancement (libccd's GJK), to a micrometre along the motion.
std::unique_ptr<CastPeer> makeFclCast();

}  // namespace hb::bench::peers
