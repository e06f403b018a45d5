// GJK as fully-corrective Frank–Wolfe with Polyak / Nesterov momentum (GJK++, Alg. 2, 4, 6, 7).
// Notation follows the paper: x_k the iterate (closest point of the simplex W_k to the origin),
// d_k the support direction, s_k = S_D(d_k) = argmin_{s in D} <d_k, s> the support point,
// g(x_k) = 2 <x_k, x_k - s_k> the duality gap / fixed-point criterion (eq. 17, 32).

#include "collision/gjk.hpp"

#include <cmath>

namespace hb {
namespace {

using Eigen::Vector3d;

bool sameSupport(const Simplex& simplex, const Vector3d& w) {
  for (int i = 0; i < simplex.size; ++i) {
    if (simplex.points[i].w == w) return true;
  }
  return false;
}

// The Minkowski difference is strictly convex as soon as one shape is (as GJK sees them: spheres
// and capsules are point and segment cores). Alg. 7 normalises Nesterov's directions only on
// non-strictly convex differences, where the plain rule (eq. 28b) cycles between vertices; on
// strictly convex ones the plain rule is the one that accelerates (the paper's Fig. 7).
bool strictlyConvex(ShapeType t) {
  return t == ShapeType::Ellipsoid;
}

// Momentum for Auto, decided once before the first update of the simplex, from what every
// variant knows alike at that point:
//  - the shape types: on polytopes (hulls, boxes) and on strictly convex differences momentum
//    pays off; spheres, capsules, cylinders and cones against polytopes are left to vanilla GJK
//    (point and segment cores take a few iterations);
//  - the warm start's own support s_0 = S_D(x_0): gap0 = <x_0/|x_0|, s_0> is how far apart the
//    shapes are along the warm-start axis (negative: their extents overlap along it), against
//    the scale |x_0|. On the benchmark's YCB hulls Polyak is fastest for pairs in close
//    proximity, Nesterov for shallow overlaps, and vanilla GJK for deep overlaps and for pairs
//    apart by more than a quarter of the centre distance (docs/gjk-benchmark.md); with the
//    hulls' direction tables a support costs so little that momentum no longer pays from there
//    (0.1 m on the YCB pairs).
// Both sides of each test are multiplied by |x_0|: xs = <x_0, s_0> = gap0 |x_0|, xx = |x_0|^2.
bool isPolytope(ShapeType t) {
  return t == ShapeType::Box || t == ShapeType::ConvexHull;
}

GjkVariant autoVariant(const MinkowskiDifference& difference, double xs, double xx) {
  const ShapeType a = difference.shapeA().type();
  const ShapeType b = difference.shapeB().type();
  if (strictlyConvex(a) || strictlyConvex(b)) {
    // Far apart (the gap is most of the centre distance) momentum no longer pays.
    return xs > 0.75 * xx ? GjkVariant::Vanilla : GjkVariant::Nesterov;
  }
  if (!isPolytope(a) || !isPolytope(b)) return GjkVariant::Vanilla;
  if (xs > 0.25 * xx) return GjkVariant::Vanilla;
  if (xs >= 0.0) return GjkVariant::Polyak;
  if (xs >= -0.25 * xx) return GjkVariant::Nesterov;
  return GjkVariant::Vanilla;
}

}  // namespace

std::string_view toString(MomentumSchedule s) {
  return s == MomentumSchedule::Late ? "late" : "paper";
}

std::string_view toString(GjkVariant v) {
  switch (v) {
    case GjkVariant::Vanilla:
      return "gjk";
    case GjkVariant::Polyak:
      return "polyak";
    case GjkVariant::Nesterov:
      return "nesterov";
    case GjkVariant::Auto:
      return "auto";
  }
  return "unknown";
}

std::string_view toString(GjkStatus s) {
  switch (s) {
    case GjkStatus::Separated:
      return "separated";
    case GjkStatus::Intersecting:
      return "intersecting";
    case GjkStatus::MaxIterations:
      return "max_iterations";
    case GjkStatus::Degenerate:
      return "degenerate";
    case GjkStatus::InvalidInput:
      return "invalid_input";
  }
  return "unknown";
}

namespace {

GjkResult invalidInput(SupportHints hints) {
  GjkResult result;
  result.status = GjkStatus::InvalidInput;
  result.hints = hints;
  return result;
}

// The solver proper, on a difference already known to be finite.
GjkResult solve(const MinkowskiDifference& difference, const Vector3d& initialGuess,
                const GjkOptions& options, SupportHints hints) {
  GjkResult result;
  result.hints = hints;
  const Pose& poseA = difference.poseA();
  if (!initialGuess.allFinite() || !(options.tolerance > 0.0) || options.maxIterations < 1) {
    result.status = GjkStatus::InvalidInput;
    return result;
  }
  const double eps = options.tolerance;
  const double epsCol = options.collisionTolerance >= 0.0 ? options.collisionTolerance
                                                          : defaults::collisionTolerance(eps);
  const double inflation = difference.inflation();
  const bool boolean = options.mode == GjkMode::Boolean;
  // Boolean mode: shapes closer than eps_col collide; GJK runs on the cores, so add the radii.
  const double margin = epsCol + inflation;

  GjkVariant variant = options.variant;
  bool momentum = variant != GjkVariant::Vanilla;
  const bool normalize = options.normalizeNesterov && !strictlyConvex(difference.shapeA().type()) &&
                         !strictlyConvex(difference.shapeB().type());

  // x_0 in A's frame. W_0 is empty, d_{-1} = s_{-1} = x_0 (Alg. 6).
  Vector3d x = poseA.q.conjugate() * initialGuess;
  if (x.squaredNorm() == 0.0) x = Vector3d::UnitX();
  Vector3d previousDirection = x;
  Vector3d previousSupport = x;
  Simplex& simplex = result.simplex;
  simplex.size = 0;

  // WithinCollisionTolerance: Boolean mode only, |x_k| <= eps_col + radii, so the answer is
  // collision.
  enum class End {
    Converged,
    Separating,
    Overlap,
    WithinCollisionTolerance,
    MaxIterations,
    Stalled
  };
  End end = End::MaxIterations;
  // Boolean mode: the separating plane's normal and gap <d, s> (unnormalised).
  double separatingGap = 0.0;
  Vector3d separatingDirection = Vector3d::Zero();
  int k = 0;
  for (; k < options.maxIterations; ++k) {
    // Support direction d_k: plain gradient direction, or momentum (eq. 28a-b, 33).
    Vector3d d = x;
    if (momentum && k > 0) {  // d_0 = x_0 for every variant
      const double delta =
          (options.schedule == MomentumSchedule::Paper ? k + 1.0 : k + 2.0) / (k + 3.0);
      const bool nesterov = variant == GjkVariant::Nesterov;
      const Vector3d y = nesterov ? Vector3d(delta * x + (1.0 - delta) * previousSupport) : x;
      if (nesterov && normalize) {
        const double yn = y.norm();
        const double dn = previousDirection.norm();
        d = (yn > 0.0 && dn > 0.0)
                ? Vector3d(delta * previousDirection / dn + (1.0 - delta) * y / yn)
                : x;
      } else {
        d = delta * previousDirection + (1.0 - delta) * 2.0 * y;
      }
      // Safeguards beyond Alg. 6 (an adaptive restart in the sense of O'Donoghue and Candes,
      // 2015): once the momentum points away from the gradient, <d_k, x_k> <= 0, its supports lie
      // on the far side of D and progress crawls (seen on overlapping shapes whose iterate has
      // crossed the origin); and past options.momentumMaxIterations the momentum no longer
      // adapts. Momentum is switched off there, as at a fixed point.
      if (d.dot(x) <= 0.0 || k >= options.momentumMaxIterations) {
        momentum = false;
        result.momentumStopIteration = k;
        d = x;
      }
    }
    SupportPoint s = difference.supportCore(-d, hints);

    if (k == 0 && variant == GjkVariant::Auto) {
      variant = autoVariant(difference, x.dot(s.w), x.squaredNorm());
      momentum = variant != GjkVariant::Vanilla;
    }

    // Alg. 2: a plane of normal d_k separating D from the origin by more than eps_col.
    // Compared squared, so that no square root waits on the support; the bound is divided out
    // once, after the loop.
    if (boolean) {
      const double gap = d.dot(s.w);
      if (gap > 0.0 && gap * gap > margin * margin * d.squaredNorm()) {
        separatingGap = gap;
        separatingDirection = d;
        end = End::Separating;
        break;
      }
    }

    // Duality gap / fixed-point test (eq. 32). Skipped at k = 0: x_0 need not lie in D.
    if (k > 0) {
      double g = 2.0 * x.dot(x - s.w);
      if (g <= eps && momentum) {
        // Momentum has stalled: continue as vanilla GJK from here (Alg. 6, lines 5-7). The
        // gradient direction's support is taken now, so convergence is checked at once.
        momentum = false;
        result.momentumStopIteration = k;
        s = difference.supportCore(-x, hints);
        g = 2.0 * x.dot(x - s.w);
        if (boolean && x.dot(s.w) > margin * x.norm()) {
          separatingGap = x.dot(s.w);
          separatingDirection = x;
          end = End::Separating;
          break;
        }
      }
      if (g <= eps) {
        end = End::Converged;
        break;
      }
    }

    // A support point already in W_k cannot make progress.
    if (sameSupport(simplex, s.w)) {
      if (!momentum) {
        end = End::Stalled;
        break;
      }
      momentum = false;
      result.momentumStopIteration = k;
      s = difference.supportCore(-x, hints);
      if (sameSupport(simplex, s.w)) {
        end = End::Stalled;
        break;
      }
    }

    // W~_{k+1} = W_k + {s_k}; x_{k+1} = projection of the origin on conv(W~_{k+1}).
    simplex.points[simplex.size++] = s;
    const double previousNorm2 = x.squaredNorm();
    x = projectOriginOnSimplex(simplex);
    const double norm2 = x.squaredNorm();
    previousSupport = s.w;
    previousDirection = d;
    if (simplex.size == 4 || norm2 == 0.0) {
      end = End::Overlap;
      break;
    }
    // Beyond Alg. 2: x_k is a point of D, so |x_k| bounds the distance from above. Once it is
    // within eps_col, Alg. 2 run to convergence could only answer collision: answer it now.
    // Touching shapes would otherwise converge on a distance of zero, the slowest case.
    if (boolean && norm2 <= margin * margin) {
      end = End::WithinCollisionTolerance;
      break;
    }
    // Vanilla GJK decreases |x_k| strictly; when rounding stops that, x_k is as good as it gets.
    if (!momentum && k > 0 && norm2 >= previousNorm2) {
      end = End::Stalled;
      break;
    }
  }
  // Iterations count the support directions explored: a run that stops inside iteration k
  // has used k + 1 of them.
  result.iterations = end == End::MaxIterations ? k : k + 1;
  result.variantUsed = variant;

  // Witness points of the cores, then of the full shapes (moved out by the radii along x).
  const Vector3d rotatedX = poseA.q * x;
  Vector3d witnessA = simplex.size > 0 ? simplex.witnessA() : Vector3d::Zero();
  Vector3d witnessB = simplex.size > 0 ? simplex.witnessB() : Vector3d::Zero();
  const double coreDistance = x.norm();
  // Cores closer than eps_col count as overlapping too: the origin may lie inside D with x_k
  // merely tiny, and only EPA can tell the depth.
  if (end == End::Overlap || (end != End::Separating && coreDistance <= epsCol)) {
    result.coresOverlap = true;
    result.distance = -inflation;
    result.separation.setZero();
  } else {
    // At the first support the plane's normal is x itself: its norm is known already.
    const double lowerBound = end != End::Separating ? 0.0
                              : separatingDirection == x
                                  ? separatingGap / coreDistance
                                  : separatingGap / separatingDirection.norm();
    result.distance = (end == End::Separating ? lowerBound : coreDistance) - inflation;
    result.separation = rotatedX;
    if (coreDistance > 0.0) {
      const Vector3d u = x / coreDistance;
      witnessA -= difference.shapeA().convexRadius() * u;
      witnessB += difference.shapeB().convexRadius() * u;
    }
  }
  result.witnessA = poseA.apply(witnessA);
  result.witnessB = poseA.apply(witnessB);
  result.hints = hints;
  result.inCollision = end != End::Separating && result.distance <= epsCol;

  switch (end) {
    case End::Converged:
    case End::WithinCollisionTolerance:
    case End::Separating:
    case End::Overlap:
      result.status = result.inCollision ? GjkStatus::Intersecting : GjkStatus::Separated;
      break;
    case End::Stalled: {
      // Rounding stopped progress: accept when the gap is within rounding of the tolerance.
      const SupportPoint s = difference.supportCore(-x, hints);
      const double g = 2.0 * x.dot(x - s.w);
      const double roundoff = 1e-12 * std::max(1.0, x.squaredNorm() + s.w.squaredNorm());
      if (g <= std::max(eps, roundoff) || coreDistance <= epsCol) {
        result.status = result.inCollision ? GjkStatus::Intersecting : GjkStatus::Separated;
      } else {
        result.status = GjkStatus::Degenerate;
      }
      break;
    }
    case End::MaxIterations:
      result.status = GjkStatus::MaxIterations;
      break;
  }
  return result;
}

}  // namespace

GjkResult gjk(const MinkowskiDifference& difference, const Vector3d& initialGuess,
              const GjkOptions& options, SupportHints hints) {
  if (!difference.finite()) return invalidInput(hints);
  return solve(difference, initialGuess, options, hints);
}

GjkResult gjk(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB,
              const Vector3d& initialGuess, const GjkOptions& options, SupportHints hints) {
  if (!poseA.isValid() || !poseB.isValid()) return invalidInput(hints);
  const MinkowskiDifference difference(a, poseA, b, poseB);
  // Valid poses give a finite rotation; only the translation can overflow.
  if (!difference.translationBinA().allFinite()) return invalidInput(hints);
  return solve(difference, initialGuess, options, hints);
}

}  // namespace hb
