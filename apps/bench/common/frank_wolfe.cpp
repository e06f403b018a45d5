#include "apps/bench/common/frank_wolfe.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hb::bench {

using Eigen::Vector3d;

FrankWolfeResult frankWolfe(const MinkowskiDifference& difference, const Vector3d& start,
                            const FrankWolfeOptions& options) {
  FrankWolfeResult result;
  const Pose& poseA = difference.poseA();
  if (!start.allFinite() || !difference.finite() || !(options.tolerance > 0.0) ||
      options.maxIterations < 1) {
    result.status = FrankWolfeStatus::InvalidInput;
    return result;
  }
  const double eps = options.tolerance;
  const double epsCol = options.collisionTolerance >= 0.0 ? options.collisionTolerance
                                                          : defaults::collisionTolerance(eps);
  const double inflation = difference.inflation();
  const bool boolean = options.mode == GjkMode::Boolean;

  enum class End { Converged, Separating, WithinCollisionTolerance, MaxIterations };
  End end = End::MaxIterations;
  double lowerBound = 0.0;  // Boolean mode: the separating plane's gap
  double gap = std::numeric_limits<double>::infinity();
  SupportHints hints;
  Vector3d x = poseA.q.conjugate() * start;  // x_0 in A's frame, a point of D
  int supports = 0;
  if (boolean && x.norm() <= epsCol + inflation) end = End::WithinCollisionTolerance;

  for (int k = 0; end == End::MaxIterations && k < options.maxIterations; ++k) {
    const Vector3d s = difference.supportCore(-x, hints).w;  // s_k = argmin_{s in D} <x_k, s>
    ++supports;
    const double xn = x.norm();
    if (boolean && x.dot(s) > (epsCol + inflation) * xn) {
      lowerBound = x.dot(s) / xn;
      end = End::Separating;
      break;
    }
    gap = 2.0 * x.dot(x - s);
    if (gap <= eps) {
      end = End::Converged;
      break;
    }
    // x_{k+1} = x_k + t (s_k - x_k), t = 1 - gamma_k. gap > 0 here, so s_k != x_k.
    const Vector3d toSupport = s - x;
    const double t = options.step == FrankWolfeStep::OpenLoop
                         ? 1.0 / (k + 2.0)
                         // argmin over [0, 1] of |x_k + t (s_k - x_k)|^2
                         : std::clamp(0.5 * gap / toSupport.squaredNorm(), 0.0, 1.0);
    x += t * toSupport;
    if (boolean && x.norm() <= epsCol + inflation) end = End::WithinCollisionTolerance;
  }
  result.iterations = supports;
  result.dualityGap = gap;
  result.separation = poseA.q * x;

  const double coreDistance = x.norm();
  if (end == End::Separating) {
    result.distance = lowerBound - inflation;
  } else if (end == End::WithinCollisionTolerance || coreDistance <= epsCol) {
    result.distance = -inflation;
  } else {
    result.distance = coreDistance - inflation;
  }
  result.collide = end != End::Separating && result.distance <= epsCol;
  if (end == End::MaxIterations) {
    result.status = FrankWolfeStatus::MaxIterations;
  } else {
    result.status = result.collide ? FrankWolfeStatus::Intersecting : FrankWolfeStatus::Separated;
  }
  return result;
}

Vector3d interiorPoint(const Shape& shape) {
  return shape.type() == ShapeType::ConvexHull ? shape.hull().interiorPoint() : Vector3d::Zero();
}

}  // namespace hb::bench
