#include "collision/time_of_impact.hpp"

#include <algorithm>
#include <cmath>

#include "collision/collide.hpp"

namespace hb {

namespace {

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
  // The depth, a minimum over directions, may fall at the speed along any of them.
  const double bound = (motionA.linear - motionB.linear).norm() +
                       motionA.angular.norm() * motionA.reach +
                       motionB.angular.norm() * motionB.reach;
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
    if (!advance(c.distance, target, bound, duration, t, result)) return result;
  }
  result.status = ToiStatus::MaxIterations;
  result.time = t;
  return result;
}

}  // namespace

ToiResult timeOfImpact(const Shape& a, const Pose& inBodyA, const RigidMotion& motionA,
                       const Shape& b, const Pose& inBodyB, const RigidMotion& motionB,
                       double duration, const ToiOptions& options) {
  ToiResult result;
  if (!(duration >= 0.0) || !motionA.linear.allFinite() || !motionA.angular.allFinite() ||
      !motionB.linear.allFinite() || !motionB.angular.allFinite()) {
    return result;
  }
  const double spin =
      motionA.angular.norm() * motionA.reach + motionB.angular.norm() * motionB.reach;
  const Eigen::Vector3d closing = motionA.linear - motionB.linear;
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
    const double bound = closing.dot(result.normal) + spin;
    if (!advance(g.distance, options.targetDistance, bound, duration, t, result)) return result;
  }
  result.status = ToiStatus::MaxIterations;
  result.time = t;
  return result;
}

}  // namespace hb
