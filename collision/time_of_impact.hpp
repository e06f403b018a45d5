#pragma once
// Time of impact of two moving shapes by conservative advancement (B. Mirtich, "Impulse-based
// dynamic simulation of rigid body systems", 1996; the form Bullet's continuous collision uses):
// from the closest points at time t, with n the normal between them, no point can close the gap
// along n faster than the relative linear velocity along n plus |n x w| times the reach of each
// body, so the pair can advance by gap / (that bound) without touching; repeat until the gap is
// down to a target distance or the interval ends. Rotation is handled through that bound,
// conservatively.
//
// A pair already in contact at the start can be swept too, for when its overlap first exceeds
// an allowance: the signed distance (EPA's or RTR's depth when overlapping) is the largest
// separation over all directions, so it too falls no faster than the separation along n.
//
// The bound counts a turn at the body's whole reach: for a large body rolling on a surface it is
// far above how fast the gap closes, and the advancement stalls. A sweep may then go on from
// where it got with a deeper allowance (ToiOptions::stalledOverlap).

#include <Eigen/Geometry>

#include "collision/gjk.hpp"
#include "collision/portable_math.hpp"
#include "collision/pose.hpp"
#include "collision/shape.hpp"

namespace hb {

/// A body moving rigidly over an interval at constant linear and angular velocity, rotating
/// about its origin (the centre of mass).
struct RigidMotion {
  Pose start;
  Eigen::Vector3d linear = Eigen::Vector3d::Zero();   ///< m/s
  Eigen::Vector3d angular = Eigen::Vector3d::Zero();  ///< rad/s, world
  double reach = 0.0;  ///< m: the furthest point of the body's shapes from its origin

  Pose at(double t) const {
    const double angle = angular.norm() * t;
    const Eigen::Quaterniond turn = angle > 0.0
                                        ? portable::rotationAbout(angular.normalized(), angle)
                                        : Eigen::Quaterniond::Identity();
    return {(turn * start.q).normalized(), start.p + t * linear};
  }
};

enum class ToiStatus {
  Separated,      ///< apart by more than the target distance over the whole interval
  Hit,            ///< down to the target distance at `time`
  Touching,       ///< within the target distance (or overlapping) already at t = 0, and
                  ///< ToiOptions::allowedOverlap < 0
  MaxIterations,  ///< still advancing at the cap; `time` is safe (no contact before it)
  InvalidInput,
};

struct ToiOptions {
  double targetDistance = 5e-4;  ///< m: stop this far apart, for the contact to take over
  double tolerance = 1e-4;       ///< m: the gap may end up this much above the target
  int maxIterations = 32;
  /// m, for pairs within the target at t = 0. >= 0 sweeps them for when their signed distance
  /// first comes down to -allowedOverlap, or, when they overlap deeper than that already, to
  /// a tenth of it below its start value; Hit and Separated then mean what they mean for pairs
  /// apart. < 0 reports Touching at once.
  double allowedOverlap = -1.0;
  /// m: when the advancement is still short of its target after maxIterations, it goes on from
  /// the time it reached, allowing the pair this much overlap (ToiResult::relaxed); < 0 stops
  /// there with MaxIterations.
  double stalledOverlap = -1.0;
};

struct ToiResult {
  ToiStatus status = ToiStatus::InvalidInput;
  double time = 0.0;      ///< s from the start of the interval
  double distance = 0.0;  ///< signed (< 0 overlap) once a touching pair is swept for deepening
  Eigen::Vector3d normal = Eigen::Vector3d::UnitX();  ///< from A towards B at `time`
  int iterations = 0;
  bool relaxed = false;  ///< the advancement stalled and went on with ToiOptions::stalledOverlap
};

/// Shapes a and b placed on their bodies by `inBodyA`, `inBodyB`, the bodies moving as given,
/// over [0, duration].
ToiResult timeOfImpact(const Shape& a, const Pose& inBodyA, const RigidMotion& motionA,
                       const Shape& b, const Pose& inBodyB, const RigidMotion& motionB,
                       double duration, const ToiOptions& options = {});

}  // namespace hb
