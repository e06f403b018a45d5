#include "collision/collide.hpp"

namespace hb {
namespace {

bool hasPointOrSegmentCore(const Shape& s) {
  return s.type() == ShapeType::Sphere || s.type() == ShapeType::Capsule;
}

// Unit vector perpendicular to u closest to the preferred direction.
Eigen::Vector3d perpendicularTowards(const Eigen::Vector3d& u, const Eigen::Vector3d& preferred) {
  Eigen::Vector3d n = preferred - preferred.dot(u) * u;
  if (n.squaredNorm() < 1e-20) n = u.unitOrthogonal();
  return n.normalized();
}

// Normal of the flat core difference of two point/segment cores, oriented like `preferred`
// (A towards B): the segments' common perpendicular, or for a point and a segment (or parallel
// segments) the perpendicular to the segment nearest `preferred`, or `preferred` for two points.
Eigen::Vector3d flatCoreNormal(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB,
                               const Eigen::Vector3d& preferred) {
  const bool segA = a.type() == ShapeType::Capsule, segB = b.type() == ShapeType::Capsule;
  const Eigen::Vector3d ua = poseA.q * Eigen::Vector3d::UnitZ();
  const Eigen::Vector3d ub = poseB.q * Eigen::Vector3d::UnitZ();
  if (segA && segB) {
    const Eigen::Vector3d c = ua.cross(ub);
    if (c.squaredNorm() > 1e-12) {
      const Eigen::Vector3d n = c.normalized();
      return n.dot(preferred) >= 0.0 ? n : Eigen::Vector3d(-n);
    }
    return perpendicularTowards(ua, preferred);
  }
  if (segA) return perpendicularTowards(ua, preferred);
  if (segB) return perpendicularTowards(ub, preferred);
  return preferred;
}

// Smooth shapes whose cores overlap: the exact minimum translational distance by RTR, from the
// warm start's side. False (the RTR status kept in `result`) when it did not converge.
bool smoothDepth(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB,
                 const RtrOptions& options, const Eigen::Vector3d& guessNormal,
                 CollisionResult& result) {
  RtrResult r = minimumTranslationalDistance(a, poseA, b, poseB, options, guessNormal);
  // RTR finds a local minimum: the global one when the depth is below the bodies' least
  // radii of curvature (An et al., Theorem 1), not always beyond. A second start from the
  // centres' direction (their eq. 14) catches most of the others; the shallower answer is
  // the better one (every direction bounds the depth from above).
  const Eigen::Vector3d centres = poseB.p - poseA.p;
  if (centres.squaredNorm() > 0.0 && r.normal.dot(centres.normalized()) < 0.99) {
    const RtrResult second = minimumTranslationalDistance(a, poseA, b, poseB, options, centres);
    if (second.status == RtrStatus::Converged &&
        (r.status != RtrStatus::Converged || second.distance > r.distance)) {
      const int first = r.iterations;
      r = second;
      r.iterations += first;
    }
  }
  result.rtrStatus = r.status;
  result.rtrIterations = r.iterations;
  if (r.status != RtrStatus::Converged) return false;
  result.distance = r.distance;
  result.normal = r.normal;
  result.witnessA = r.witnessA;
  result.witnessB = r.witnessB;
  return true;
}

// Overlapping cores: the depth by EPA from GJK's last simplex, around the cores of inflated
// shapes (exact, and fast) with the radii added.
void epaDepth(const MinkowskiDifference& difference, const GjkResult& g, EpaOptions options,
              CollisionResult& result) {
  const double inflation = difference.inflation();
  SupportHints epaHints = g.hints;
  options.onCores = inflation > 0.0;
  const EpaResult e = epa(difference, g.simplex, options, epaHints);
  result.epaStatus = e.status;
  result.epaIterations = e.iterations;
  result.hints = epaHints;
  const double depth = e.depth + (options.onCores ? inflation : 0.0);
  // Shapes within eps_col but apart: EPA finds no depth, and GJK's distance is the answer.
  if (e.status == EpaStatus::Degenerate || !(depth > 0.0 || g.distance <= 0.0)) return;
  result.distance = -depth;
  result.normal = e.normal;
  result.witnessA = e.witnessA;
  result.witnessB = e.witnessB;
  if (options.onCores) {
    result.witnessA += difference.shapeA().convexRadius() * e.normal;
    result.witnessB -= difference.shapeB().convexRadius() * e.normal;
    // Cores touching within eps_col but apart: EPA reports depth 0 and its witnesses keep the
    // cores' gap, so the distance is that gap minus the radii (witnessA - witnessB =
    // -distance n holds exactly).
    if (e.depth == 0.0) result.distance = (e.witnessB - e.witnessA).dot(e.normal) - inflation;
  }
}

}  // namespace

CollisionResult collide(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB,
                        const Eigen::Vector3d& initialGuess, const CollisionOptions& options,
                        SupportHints hints, const WarmSimplex* warm) {
  CollisionResult result;
  result.hints = hints;
  if (!poseA.isValid() || !poseB.isValid() || !initialGuess.allFinite()) {
    result.gjkStatus = GjkStatus::InvalidInput;
    return result;
  }
  const MinkowskiDifference difference(a, poseA, b, poseB);
  const GjkResult g = gjk(difference, initialGuess, options.gjk, hints, warm);
  result.gjkStatus = g.status;
  result.gjkIterations = g.iterations;
  result.hints = g.hints;
  result.simplex = keepSimplex(difference, g.simplex);
  if (g.status == GjkStatus::InvalidInput) return result;

  // Fallback normal when no separation vector exists: against the warm start (A towards B).
  const Eigen::Vector3d guessNormal = initialGuess.squaredNorm() > 0.0
                                          ? Eigen::Vector3d(-initialGuess.normalized())
                                          : Eigen::Vector3d(-Eigen::Vector3d::UnitX());
  if (g.coresOverlap) {
    result.collide = true;
    result.distance = g.distance;
    result.normal = guessNormal;
    result.witnessA = g.witnessA;
    result.witnessB = g.witnessB;
    if (!options.computePenetration) return result;
    const double inflation = difference.inflation();
    if (hasPointOrSegmentCore(a) && hasPointOrSegmentCore(b)) {
      // Cores of points and segments have a flat difference: the origin inside it is 0 away
      // from its boundary along the flat's normal, so the depth is exactly the radii's sum.
      result.normal = flatCoreNormal(a, poseA, b, poseB, guessNormal);
      result.distance = -inflation;
      result.witnessA = g.witnessA + a.convexRadius() * result.normal;
      result.witnessB = g.witnessB - b.convexRadius() * result.normal;
      return result;
    }
    if (options.depthMethod != DepthMethod::Epa && hasSmoothSupport(a) && hasSmoothSupport(b) &&
        smoothDepth(a, poseA, b, poseB, options.rtr, guessNormal, result)) {
      return result;
    }
    epaDepth(difference, g, options.epa, result);
    return result;
  }
  result.collide = g.collide();
  result.distance = g.distance;
  const double n = g.separation.norm();
  // separation = wA - wB points from B to A; the normal points from A to B.
  result.normal = n > 0.0 ? Eigen::Vector3d(-g.separation / n) : guessNormal;
  result.witnessA = g.witnessA;
  result.witnessB = g.witnessB;
  return result;
}

}  // namespace hb
