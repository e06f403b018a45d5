#include "collision/collide.hpp"

namespace hb {

CollisionResult collide(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB,
                        const Eigen::Vector3d& initialGuess, const CollisionOptions& options,
                        SupportHints hints) {
  CollisionResult result;
  result.hints = hints;
  if (!poseA.isValid() || !poseB.isValid() || !initialGuess.allFinite()) {
    result.gjkStatus = GjkStatus::InvalidInput;
    return result;
  }
  const MinkowskiDifference difference(a, poseA, b, poseB);
  const GjkResult g = gjk(difference, initialGuess, options.gjk, hints);
  result.gjkStatus = g.status;
  result.gjkIterations = g.iterations;
  result.hints = g.hints;
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
    if (options.computePenetration) {
      SupportHints epaHints = g.hints;
      const EpaResult e = epa(difference, g.simplex, options.epa, epaHints);
      result.epaStatus = e.status;
      result.epaIterations = e.iterations;
      result.hints = epaHints;
      // Shapes within eps_col but apart: EPA finds no depth, and GJK's distance is the answer.
      if (e.status != EpaStatus::Degenerate && (e.depth > 0.0 || g.distance <= 0.0)) {
        result.distance = -e.depth;
        result.normal = e.normal;
        result.witnessA = e.witnessA;
        result.witnessB = e.witnessB;
      }
    }
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
