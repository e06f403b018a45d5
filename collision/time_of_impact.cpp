#include "collision/time_of_impact.hpp"

#include <algorithm>
#include <cmath>

#include "collision/collide.hpp"

namespace hb {

namespace {

// How fast the pair's separation along the fixed unit direction n (from A towards B) can fall:
// the relative velocity along n, and each body's turn, which moves a point r of it by w x r,
// whose part along n is r . (n x w), at most |n x w| times the body's reach. The signed
// distance, the largest separation over all directions, falls no faster than along n, whether
// the pair is apart or overlapping.
double closingBound(const RigidMotion& a, const RigidMotion& b, const Eigen::Vector3d& n) {
  return (a.linear - b.linear).dot(n) + n.cross(a.angular).norm() * a.reach +
         n.cross(b.angular).norm() * b.reach;
}

// One step of conservative advancement: t moves on by (gap - target) / bound. False, with
// `result` Separated, when nothing closes the gap or the interval ends first.
bool advance(double gap, double target, double bound, double duration, double& t,
             ToiResult& result) {
  if (!(bound > 0.0)) {
    result.status = ToiStatus::Separated;
    return false;
  }
  t += (gap - target) / bound;
  if (t >= duration) {
    result.status = ToiStatus::Separated;
    result.time = duration;
    return false;
  }
  return true;
}

// The signed-distance advancement of a pair in contact at t = 0 (ToiOptions::allowedOverlap).
ToiResult timeOfDeepening(const Shape& a, const Pose& inBodyA, const RigidMotion& motionA,
                          const Shape& b, const Pose& inBodyB, const RigidMotion& motionB,
                          double duration, const ToiOptions& options) {
  ToiResult result;
  CollisionOptions collision;
  SupportHints hints;
  Eigen::Vector3d separation = motionA.start.p - motionB.start.p;  // collide's guess: B to A
  double target = 0.0;
  double t = 0.0;
  for (int k = 0; k < options.maxIterations; ++k) {
    result.iterations = k + 1;
    const CollisionResult c = collide(a, motionA.at(t) * inBodyA, b, motionB.at(t) * inBodyB,
                                      separation, collision, hints);
    if (!c.ok() || !std::isfinite(c.distance)) {
      result.status = ToiStatus::InvalidInput;
      return result;
    }
    hints = c.hints;
    separation = -c.normal;
    result.time = t;
    result.distance = c.distance;
    result.normal = c.normal;
    if (k == 0) {
      target = std::min(-options.allowedOverlap, c.distance - 0.1 * options.allowedOverlap);
    } else if (c.distance <= target + options.tolerance) {
      result.status = ToiStatus::Hit;
      return result;
    }
    if (!advance(c.distance, target, closingBound(motionA, motionB, c.normal), duration, t, result))
      return result;
  }
  result.status = ToiStatus::MaxIterations;
  result.time = t;
  return result;
}

// Conservative advancement from t = 0 to the target distance (or, for a pair within it at the
// start, to the allowed overlap).
ToiResult advanceToTarget(const Shape& a, const Pose& inBodyA, const RigidMotion& motionA,
                          const Shape& b, const Pose& inBodyB, const RigidMotion& motionB,
                          double duration, const ToiOptions& options) {
  ToiResult result;
  if (!(duration >= 0.0) || !motionA.linear.allFinite() || !motionA.angular.allFinite() ||
      !motionB.linear.allFinite() || !motionB.angular.allFinite()) {
    return result;
  }
  GjkOptions gjkOptions;
  gjkOptions.tolerance = std::min(1e-10, 0.01 * options.tolerance * options.tolerance);
  SupportHints hints;
  Eigen::Vector3d guess = motionB.start.p - motionA.start.p;
  double t = 0.0;
  for (int k = 0; k < options.maxIterations; ++k) {
    result.iterations = k + 1;
    const Pose poseA = motionA.at(t) * inBodyA;
    const Pose poseB = motionB.at(t) * inBodyB;
    const GjkResult g = gjk(a, poseA, b, poseB, -guess, gjkOptions, hints);
    hints = g.hints;
    if (g.status == GjkStatus::InvalidInput) return result;
    result.time = t;
    result.distance = g.distance;
    if (g.separation.squaredNorm() > 0.0) {
      result.normal = -g.separation.normalized();
      guess = result.normal;
    }
    if (g.coresOverlap || g.distance <= options.targetDistance + options.tolerance) {
      if (t == 0.0 && options.allowedOverlap >= 0.0) {
        return timeOfDeepening(a, inBodyA, motionA, b, inBodyB, motionB, duration, options);
      }
      result.status = t > 0.0 ? ToiStatus::Hit : ToiStatus::Touching;
      return result;
    }
    const double bound = closingBound(motionA, motionB, result.normal);
    if (!advance(g.distance, options.targetDistance, bound, duration, t, result)) return result;
  }
  result.status = ToiStatus::MaxIterations;
  result.time = t;
  return result;
}

// The motion from time t on.
RigidMotion from(const RigidMotion& m, double t) {
  RigidMotion later = m;
  later.start = m.at(t);
  return later;
}

}  // namespace

ToiResult timeOfImpact(const Shape& a, const Pose& inBodyA, const RigidMotion& motionA,
                       const Shape& b, const Pose& inBodyB, const RigidMotion& motionB,
                       double duration, const ToiOptions& options) {
  const ToiResult first =
      advanceToTarget(a, inBodyA, motionA, b, inBodyB, motionB, duration, options);
  if (first.status != ToiStatus::MaxIterations || !(options.stalledOverlap >= 0.0)) return first;
  // Stalled: the bound on how fast the gap closes is far above how fast it does (a body that
  // rolls or slides along a surface). From the safe time on, the pair may overlap deeper.
  ToiOptions deeper = options;
  deeper.allowedOverlap = options.stalledOverlap;
  ToiResult rest = timeOfDeepening(a, inBodyA, from(motionA, first.time), b, inBodyB,
                                   from(motionB, first.time), duration - first.time, deeper);
  rest.time += first.time;
  rest.iterations += first.iterations;
  rest.relaxed = true;
  return rest;
}

}  // namespace hb
