// GJK as fully-corrective Frank–Wolfe with Polyak / Nesterov momentum (GJK++, Alg. 2, 4, 6, 7).
// Notation follows the paper: x_k the iterate (closest point of the simplex W_k to the origin),
// d_k the support direction, s_k = S_D(d_k) = argmin_{s in D} <d_k, s> the support point,
// g(x_k) = 2 <x_k, x_k - s_k> the duality gap / fixed-point criterion (eq. 17, 32).

#include "collision/gjk.hpp"

#include <cmath>

namespace hb {
namespace {

using Eigen::Vector3d;

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
//    the scale |x_0|. On the benchmark's YCB hulls Nesterov with the late schedule is fastest
//    for pairs in close proximity (0 to 1 cm: 1.08-1.20x vanilla per problem, where Polyak and
//    Nesterov with the paper's schedule reach 1.00-1.10x), Nesterov with the paper's for shallow
//    overlaps, and vanilla GJK for deep overlaps and for pairs apart by more than a quarter of
//    the centre distance (docs/gjk-benchmark.md); with the hulls' direction tables a support
//    costs so little that momentum no longer pays from there (0.1 m on the YCB pairs).
// Both sides of each test are multiplied by |x_0|: xs = <x_0, s_0> = gap0 |x_0|, xx = |x_0|^2.
bool isPolytope(ShapeType t) {
  return t == ShapeType::Box || t == ShapeType::ConvexHull;
}

struct AutoChoice {
  GjkVariant variant;
  MomentumSchedule schedule = MomentumSchedule::Paper;
};

AutoChoice autoVariant(const MinkowskiDifference& difference, double xs, double xx) {
  const ShapeType a = difference.shapeA().type();
  const ShapeType b = difference.shapeB().type();
  if (strictlyConvex(a) || strictlyConvex(b)) {
    // Far apart (the gap is most of the centre distance) momentum no longer pays.
    return {xs > 0.75 * xx ? GjkVariant::Vanilla : GjkVariant::Nesterov};
  }
  // Smooth bodies (superquadrics, prescribed support functions; Alg. 7's normalised directions
  // beat the plain rule on them): Nesterov when they are apart along the warm-start axis, vanilla
  // GJK when their extents overlap along it, where momentum costs 1.2-1.3x on the smooth funnel's
  // colliding problems (docs/results.md). On that funnel's run auto averages 7.9 iterations per
  // call against vanilla's 8.3 and Nesterov's 8.9.
  const auto smooth = [](ShapeType t) {
    return t == ShapeType::Superquadric || t == ShapeType::SupportPoints;
  };
  if (smooth(a) || smooth(b)) {
    return {xs > 0.0 ? GjkVariant::Nesterov : GjkVariant::Vanilla};
  }
  if (!isPolytope(a) || !isPolytope(b)) return {GjkVariant::Vanilla};
  if (xs > 0.25 * xx) return {GjkVariant::Vanilla};
  if (xs >= 0.0) return {GjkVariant::Nesterov, MomentumSchedule::Late};
  if (xs >= -0.25 * xx) return {GjkVariant::Nesterov};
  return {GjkVariant::Vanilla};
}

}  // namespace

std::string_view toString(MomentumSchedule s) {
  return s == MomentumSchedule::Late ? "late" : "paper";
}

std::optional<MomentumSchedule> momentumScheduleNamed(std::string_view name) {
  for (const MomentumSchedule s : {MomentumSchedule::Paper, MomentumSchedule::Late}) {
    if (name == toString(s)) return s;
  }
  return std::nullopt;
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

// Why a loop ended. Continue: it did not. WithinCollisionTolerance: Boolean mode only,
// |x_k| <= eps_col + radii, so the answer is collision.
enum class End {
  Continue,
  Converged,
  Separating,
  Overlap,
  WithinCollisionTolerance,
  MaxIterations,
  Stalled
};

// What the loops carry from one iteration to the next (Alg. 6), in A's frame.
struct Iterate {
  Vector3d x;                  // x_k, the closest point of conv(W_k) to the origin
  Vector3d previousDirection;  // d_{k-1}
  Vector3d previousSupport;    // s_{k-1}
  GjkVariant variant;
  MomentumSchedule schedule;
  bool momentum;
  bool normalize;          // Alg. 7's normalised Nesterov directions
  int momentumStop = -1;   // the iteration at which momentum was switched off
  bool startsInD = false;  // x_0 is a point of D (a kept simplex's): its gap is a bound already
  // Boolean mode: the separating plane's normal and gap <d, s> (unnormalised).
  Vector3d separatingDirection = Vector3d::Zero();
  double separatingGap = 0.0;
};

// x_0 in A's frame; W_0 is empty, d_{-1} = s_{-1} = x_0 (Alg. 6).
[[gnu::always_inline]] inline Iterate firstIterate(const MinkowskiDifference& difference,
                                                   const Vector3d& initialGuess,
                                                   const GjkOptions& options) {
  Iterate it;
  it.x = rotate(difference.poseA().q.conjugate(), initialGuess);
  if (it.x.squaredNorm() == 0.0) it.x = Vector3d::UnitX();
  it.previousDirection = it.x;
  it.previousSupport = it.x;
  it.variant = options.variant;
  it.schedule = options.schedule;
  it.momentum = it.variant != GjkVariant::Vanilla;
  it.normalize = options.normalizeNesterov && !strictlyConvex(difference.shapeA().type()) &&
                 !strictlyConvex(difference.shapeB().type());
  return it;
}

// W_0 = the kept simplex, x_0 its closest point to the origin (a point of D). Overlap when it
// encloses the origin already (EPA's start), else Continue.
End seedSimplex(const MinkowskiDifference& difference, const WarmSimplex& warm, Iterate& it,
                Simplex& simplex) {
  simplex = placeSimplex(difference, warm);
  const Vector3d x = projectOriginOnSimplex(simplex);
  if (simplex.size == 4 || x.squaredNorm() == 0.0) {
    it.x = x;
    return End::Overlap;
  }
  it.x = x;
  it.previousDirection = x;
  it.previousSupport = x;
  it.startsInD = true;
  return End::Continue;
}

// --- The direction rule of each variant (eq. 28a-b, 33; Alg. 7) ------------------------------

// delta_k: the paper's (k+1)/(k+3), or the late schedule's (k+2)/(k+3).
double momentumWeight(int k, MomentumSchedule schedule) {
  return (schedule == MomentumSchedule::Paper ? k + 1.0 : k + 2.0) / (k + 3.0);
}

Vector3d polyakDirection(const Iterate& it, double delta) {
  return delta * it.previousDirection + (1.0 - delta) * 2.0 * it.x;
}

[[gnu::always_inline]] inline Vector3d nesterovDirection(const Iterate& it, double delta) {
  const Vector3d y = delta * it.x + (1.0 - delta) * it.previousSupport;
  if (!it.normalize) return delta * it.previousDirection + (1.0 - delta) * 2.0 * y;
  const double yn = y.norm();
  const double dn = it.previousDirection.norm();
  return (yn > 0.0 && dn > 0.0)
             ? Vector3d(delta * it.previousDirection / dn + (1.0 - delta) * y / yn)
             : it.x;
}

void stopMomentum(Iterate& it, int k) {
  it.momentum = false;
  it.momentumStop = k;
}

// d_k: the gradient direction x_k (d_0 = x_0 for every variant), or the variant's momentum
// direction. Safeguards beyond Alg. 6 (an adaptive restart in the sense of O'Donoghue and Candes,
// 2015): once the momentum points away from the gradient, <d_k, x_k> <= 0, its supports lie on
// the far side of D and progress crawls (seen on overlapping shapes whose iterate has crossed the
// origin); and past options.momentumMaxIterations the momentum no longer adapts. Momentum is
// switched off there, as at a fixed point.
// Inlined into both loops, as the one loop it replaces was: GJK calls are a few hundred ns.
[[gnu::always_inline]] inline Vector3d supportDirection(Iterate& it, int k,
                                                        const GjkOptions& options) {
  if (!it.momentum || k == 0) return it.x;
  const double delta = momentumWeight(k, it.schedule);
  const Vector3d d = it.variant == GjkVariant::Nesterov ? nesterovDirection(it, delta)
                                                        : polyakDirection(it, delta);
  if (d.dot(it.x) <= 0.0 || k >= options.momentumMaxIterations) {
    stopMomentum(it, k);
    return it.x;
  }
  return d;
}

// Auto picks its variant and schedule once, from the first support (see autoVariant).
void resolveAuto(const MinkowskiDifference& difference, Iterate& it, const SupportPoint& s) {
  if (it.variant != GjkVariant::Auto) return;
  const AutoChoice choice = autoVariant(difference, it.x.dot(s.w), it.x.squaredNorm());
  it.variant = choice.variant;
  it.schedule = choice.schedule;
  it.momentum = it.variant != GjkVariant::Vanilla;
}

// --- Stopping tests --------------------------------------------------------------------------

// The duality gap / fixed-point criterion g(x_k) = 2 <x_k, x_k - s_k> (eq. 17, 32).
double dualityGap(const Vector3d& x, const Vector3d& s) {
  return 2.0 * x.dot(x - s);
}

// Alg. 2: a plane of normal d separating D from the origin by more than `margin`. Compared
// squared, so that no square root waits on the support; the bound is divided out once, after the
// loop.
[[gnu::always_inline]] inline bool separatesBeyond(Iterate& it, const Vector3d& d,
                                                   const Vector3d& s, double margin) {
  const double gap = d.dot(s);
  if (!(gap > 0.0 && gap * gap > margin * margin * d.squaredNorm())) return false;
  it.separatingGap = gap;
  it.separatingDirection = d;
  return true;
}

// --- The iteration step every loop shares ----------------------------------------------------

// Once s_k = S_D(d_k) is known: the duality-gap test (skipped at k = 0, where x_0 need not lie
// in D; with momentum, a fixed point continues as vanilla GJK, Alg. 6 lines 5-7, checked at once
// on the gradient's support), the repeated-support test, then W~_{k+1} = W_k + {s_k} and
// x_{k+1}, the projection of the origin on conv(W~_{k+1}). `booleanMargin` (Boolean mode only):
// eps_col plus the radii, for the plane test of the gradient's support and the early collision.
[[gnu::always_inline]] inline End step(const MinkowskiDifference& difference, Iterate& it,
                                       const Vector3d& d, SupportPoint s, int k, double eps,
                                       const double* booleanMargin, SupportHints& hints,
                                       Simplex& simplex) {
  if (k > 0 || it.startsInD) {
    double g = dualityGap(it.x, s.w);
    if (g <= eps && it.momentum) {
      stopMomentum(it, k);
      if (k > 0) {  // at k = 0 the direction was x_0 already, and so was its plane test
        s = difference.supportCore(-it.x, hints);
        g = dualityGap(it.x, s.w);
        if (booleanMargin && separatesBeyond(it, it.x, s.w, *booleanMargin)) {
          return End::Separating;
        }
      }
    }
    if (g <= eps) return End::Converged;
  }
  // A support point already in W_k cannot make progress; momentum's may, the gradient's not.
  if (simplex.contains(s.w)) {
    if (!it.momentum) return End::Stalled;
    stopMomentum(it, k);
    s = difference.supportCore(-it.x, hints);
    if (simplex.contains(s.w)) return End::Stalled;
  }
  simplex.points[simplex.size++] = s;
  const double previousNorm2 = it.x.squaredNorm();
  it.x = projectOriginOnSimplex(simplex);
  const double norm2 = it.x.squaredNorm();
  it.previousSupport = s.w;
  it.previousDirection = d;
  if (simplex.size == 4 || norm2 == 0.0) return End::Overlap;
  // Beyond Alg. 2: x_k is a point of D, so |x_k| bounds the distance from above. Once it is
  // within eps_col, Alg. 2 run to convergence could only answer collision: answer it now.
  // Touching shapes would otherwise converge on a distance of zero, the slowest case.
  if (booleanMargin && norm2 <= *booleanMargin * *booleanMargin) {
    return End::WithinCollisionTolerance;
  }
  // Vanilla GJK decreases |x_k| strictly; when rounding stops that, x_k is as good as it gets.
  if (!it.momentum && k > 0 && norm2 >= previousNorm2) return End::Stalled;
  return End::Continue;
}

// --- The result ------------------------------------------------------------------------------

// Distance, witnesses (of the cores, then of the full shapes, moved out by the radii along x)
// and status from how the loop ended in iteration k (Continue: it ran out of iterations).
void finish(const MinkowskiDifference& difference, const Iterate& it, End end, int k, double eps,
            double epsCol, SupportHints hints, GjkResult& result) {
  const Pose& poseA = difference.poseA();
  const Simplex& simplex = result.simplex;
  const double inflation = difference.inflation();
  // Iterations count the support directions explored: a run that stops inside iteration k has
  // used k + 1 of them.
  if (end == End::Continue) end = End::MaxIterations;
  result.iterations = end == End::MaxIterations ? k : k + 1;
  result.variantUsed = it.variant;
  result.momentumStopIteration = it.momentumStop;
  const Vector3d& x = it.x;
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
                              : it.separatingDirection == x
                                  ? it.separatingGap / coreDistance
                                  : it.separatingGap / it.separatingDirection.norm();
    result.distance = (end == End::Separating ? lowerBound : coreDistance) - inflation;
    result.separation = rotate(poseA.q, x);
    // Hulls and boxes have no radius: nothing to move, and no division to wait on.
    if (coreDistance > 0.0 && inflation > 0.0) {
      const Vector3d u = x / coreDistance;
      witnessA -= difference.shapeA().convexRadius() * u;
      witnessB += difference.shapeB().convexRadius() * u;
    }
  }
  if (simplex.size == 0 && inflation == 0.0) {
    // A plane separated the shapes at the first support: no witnesses, A's origin stands for both.
    result.witnessA = result.witnessB = poseA.p;
  } else {
    result.witnessA = poseA.apply(witnessA);
    result.witnessB = poseA.apply(witnessB);
  }
  result.hints = hints;
  result.inCollision = end != End::Separating && result.distance <= epsCol;

  switch (end) {
    case End::Stalled: {
      // Rounding stopped progress: accept when the gap is within rounding of the tolerance.
      const SupportPoint s = difference.supportCore(-x, hints);
      const double g = dualityGap(x, s.w);
      const double roundoff = 1e-12 * std::max(1.0, x.squaredNorm() + s.w.squaredNorm());
      result.status = g <= std::max(eps, roundoff) || coreDistance <= epsCol
                          ? (result.inCollision ? GjkStatus::Intersecting : GjkStatus::Separated)
                          : GjkStatus::Degenerate;
      break;
    }
    case End::MaxIterations:
      result.status = GjkStatus::MaxIterations;
      break;
    default:
      result.status = result.inCollision ? GjkStatus::Intersecting : GjkStatus::Separated;
      break;
  }
}

// --- The entry points ------------------------------------------------------------------------

bool validOptions(const Vector3d& initialGuess, const GjkOptions& options) {
  return initialGuess.allFinite() && options.tolerance > 0.0 && options.maxIterations >= 1;
}

// eps_col of Alg. 2.
double collisionTolerance(const GjkOptions& options) {
  return options.collisionTolerance >= 0.0 ? options.collisionTolerance
                                           : defaults::collisionTolerance(options.tolerance);
}

// Distance (Alg. 4 / 6): iterate to the duality-gap tolerance.
GjkResult closestPoints(const MinkowskiDifference& difference, const Vector3d& initialGuess,
                        const GjkOptions& options, SupportHints hints, const WarmSimplex* warm) {
  GjkResult result;
  if (!validOptions(initialGuess, options)) return invalidInput(hints);
  Iterate it = firstIterate(difference, initialGuess, options);
  // The plane test runs on the cores: the bound plus the radii.
  const bool bounded = options.separationBound >= 0.0 &&
                       options.separationBound < std::numeric_limits<double>::infinity();
  const double bound = options.separationBound + difference.inflation();
  End end = End::Continue;
  int k = 0;
  if (warm && warm->size > 0) {
    end = seedSimplex(difference, *warm, it, result.simplex);
    if (end == End::Overlap) k = -1;  // no support explored: finish counts k + 1 of them
  }
  for (; end == End::Continue && k < options.maxIterations; ++k) {
    const Vector3d d = supportDirection(it, k, options);
    const SupportPoint s = difference.supportCore(-d, hints);
    if (k == 0) resolveAuto(difference, it, s);
    end = bounded && separatesBeyond(it, d, s.w, bound)
              ? End::Separating
              : step(difference, it, d, s, k, options.tolerance, nullptr, hints, result.simplex);
    if (end != End::Continue) break;
  }
  finish(difference, it, end, k, options.tolerance, collisionTolerance(options), hints, result);
  return result;
}

// Boolean (Alg. 2): stop at the first plane separating D from the origin by more than eps_col,
// or once x_k shows the shapes within eps_col.
GjkResult intersects(const MinkowskiDifference& difference, const Vector3d& initialGuess,
                     const GjkOptions& options, SupportHints hints, const WarmSimplex* warm) {
  GjkResult result;
  if (!validOptions(initialGuess, options)) return invalidInput(hints);
  const double epsCol = collisionTolerance(options);
  // GJK runs on the cores: shapes closer than eps_col collide, so add the radii.
  const double margin = epsCol + difference.inflation();
  Iterate it = firstIterate(difference, initialGuess, options);
  End end = End::Continue;
  int k = 0;
  if (warm && warm->size > 0) {
    end = seedSimplex(difference, *warm, it, result.simplex);
    if (end == End::Overlap) k = -1;  // no support explored: finish counts k + 1 of them
  }
  for (; end == End::Continue && k < options.maxIterations; ++k) {
    const Vector3d d = supportDirection(it, k, options);
    const SupportPoint s = difference.supportCore(-d, hints);
    if (k == 0) resolveAuto(difference, it, s);
    end = separatesBeyond(it, d, s.w, margin)
              ? End::Separating
              : step(difference, it, d, s, k, options.tolerance, &margin, hints, result.simplex);
    if (end != End::Continue) break;
  }
  finish(difference, it, end, k, options.tolerance, epsCol, hints, result);
  return result;
}

GjkResult solve(const MinkowskiDifference& difference, const Vector3d& initialGuess,
                const GjkOptions& options, SupportHints hints, const WarmSimplex* warm) {
  return options.mode == GjkMode::Boolean
             ? intersects(difference, initialGuess, options, hints, warm)
             : closestPoints(difference, initialGuess, options, hints, warm);
}

}  // namespace

GjkResult gjk(const MinkowskiDifference& difference, const Vector3d& initialGuess,
              const GjkOptions& options, SupportHints hints, const WarmSimplex* warm) {
  if (!difference.finite()) return invalidInput(hints);
  return solve(difference, initialGuess, options, hints, warm);
}

GjkResult gjk(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB,
              const Vector3d& initialGuess, const GjkOptions& options, SupportHints hints) {
  if (!poseA.isValid() || !poseB.isValid()) return invalidInput(hints);
  const MinkowskiDifference difference(a, poseA, b, poseB);
  // Valid poses give a finite rotation; only the translation can overflow.
  if (!difference.translationBinA().allFinite()) return invalidInput(hints);
  return solve(difference, initialGuess, options, hints, nullptr);
}

}  // namespace hb
