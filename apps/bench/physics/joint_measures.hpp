#pragma once
// What the joint scenarios measure on any engine's poses: how far each joint's two anchors have
// come apart, a hinged body's angle and rate about its axis, and the pendulum's exact period.

#include <Eigen/Core>
#include <string_view>
#include <vector>

#include "apps/bench/sim/sim_peer.hpp"

namespace hb::physics {

/// Each joint's anchor fixed in its two bodies (the world's in world coordinates), taken from
/// the scene's bodies at their initial poses.
class JointAnchors {
 public:
  /// Throws std::runtime_error unless the scene has `count` joints.
  JointAnchors(const sim::SimScene& scene, int count, std::string_view scenario);
  /// m: the largest distance between a joint's two anchors at the engine's current poses.
  double largestSeparation(const sim::SimPeer& engine) const;

 private:
  struct Anchor {
    int bodyA = 0, bodyB = 0;  // SimScene joint indexing: 0 the world, k bodies[k - 1]
    Eigen::Vector3d inA, inB;
  };
  std::vector<Anchor> anchors_;
};

/// rad: the angle by which `now` has turned from `start` about the unit `axis`, right-handed,
/// in (-pi, pi] (both perpendicular to the axis or nearly).
double turnAbout(const Eigen::Vector3d& axis, const Eigen::Vector3d& start,
                 const Eigen::Vector3d& now);

/// K(k), the complete elliptic integral of the first kind (arithmetic-geometric mean).
double ellipticK(double k);

/// s: the period of a rigid pendulum of mass m, its centre of mass `length` from the pivot and
/// `inertia` about the swing axis through the pivot, released from rest at `amplitude` (rad):
/// 4 sqrt(I / (m g l)) K(sin(amplitude / 2)).
double pendulumPeriod(double mass, double length, double inertia, double gravity, double amplitude);

/// s: the mean period of x(t) (sampled every dt) from its upward crossings of `centre`; 0 with
/// fewer than two.
double meanPeriod(const std::vector<double>& x, double centre, double dt);

}  // namespace hb::physics
