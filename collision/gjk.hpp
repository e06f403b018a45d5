#pragma once
// The GJK family as Frank–Wolfe methods on the Minkowski difference D = A - B
// (Montaut et al., "GJK++", IEEE T-RO 2024):
//  - Vanilla: Alg. 4, fully-corrective Frank–Wolfe on simplices (= GJK);
//  - Polyak / Nesterov: Alg. 6, momentum on the support direction with delta_k = (k+1)/(k+3),
//    Nesterov with normalised directions on non-strictly convex differences (Alg. 7, on by
//    default; ellipsoids keep the plain rule of eq. 28b); momentum is switched off for
//    good at the first k with g(x_k) = 2<x_k, x_k - s_k> <= eps (eq. 32) and the run continues as
//    vanilla GJK;
//  - Auto: picks one of the above per problem before the first iteration (see chooseGjkVariant).
// Stopping: the duality gap g_FW(x_k) <= eps (eq. 17-18), or in Boolean mode the separating-plane
// test of Alg. 2, <d_k/|d_k|, s_k> > eps_col, and collision as soon as |x_k| <= eps_col (an
// iterate of D bounds the distance from above: Alg. 2 run on could only answer collision).
// GJK runs on the cores of the shapes (their convex radii are added back to the results).

#include <Eigen/Core>
#include <limits>
#include <optional>

#include "collision/defaults.hpp"
#include "collision/minkowski_difference.hpp"
#include "collision/simplex.hpp"
#include "collision/warm_simplex.hpp"

namespace hb {

enum class GjkVariant { Vanilla, Polyak, Nesterov, Auto };
/// The momentum weight delta_k of Alg. 6: the paper's (k+1)/(k+3), or (k+2)/(k+3) (coal's
/// normalised Nesterov), which trusts the momentum more from the first iteration.
enum class MomentumSchedule { Paper, Late };
enum class GjkMode { Distance, Boolean };
enum class GjkStatus {
  Separated,      ///< converged (or separating plane found): the shapes do not collide
  Intersecting,   ///< converged: distance <= eps_col (touching or overlapping)
  MaxIterations,  ///< iteration cap hit; the result is the last iterate
  Degenerate,     ///< numerical stall before the tolerance was reached; result is the best iterate
  InvalidInput,   ///< non-finite or non-unit pose, or non-finite initial guess
};

std::string_view toString(GjkVariant v);
std::string_view toString(MomentumSchedule s);  ///< "paper", "late"
/// The schedule toString names `name`, if any.
std::optional<MomentumSchedule> momentumScheduleNamed(std::string_view name);
std::string_view toString(GjkStatus s);

struct GjkOptions {
  GjkVariant variant = GjkVariant::Vanilla;
  GjkMode mode = GjkMode::Distance;
  double tolerance = defaults::kGjkTolerance;  ///< eps on the duality gap (squared metres)
  int maxIterations = defaults::kGjkMaxIterations;
  /// Alg. 7: normalised Nesterov directions where the Minkowski difference is not strictly
  /// convex (no ellipsoid among the shapes); strictly convex differences always use eq. 28b.
  bool normalizeNesterov = true;
  /// Momentum is switched off after this many iterations at the latest. By then delta_k >= 0.94
  /// and the direction barely follows the gradient: on strictly convex shapes in contact the
  /// fixed-point test of eq. 32 may take over a hundred iterations to fire, while vanilla GJK
  /// converges in tens.
  int momentumMaxIterations = defaults::kGjkMomentumMaxIterations;
  /// The momentum weight's schedule; Auto chooses its own per problem with its variant.
  MomentumSchedule schedule = MomentumSchedule::Paper;
  /// eps_col of Alg. 2 (metres); negative means sqrt(tolerance).
  double collisionTolerance = -1.0;
  /// Distance mode: stop as soon as a plane separates the shapes by more than this (metres, >= 0),
  /// the way Alg. 2 stops at eps_col. The distance is then a lower bound above it, the
  /// separation and witnesses those of the last iterate. A caller that asks only whether two
  /// shapes come within a margin needs no more; infinity runs every query to the tolerance.
  double separationBound = std::numeric_limits<double>::infinity();
};

struct GjkResult {
  GjkStatus status = GjkStatus::InvalidInput;
  /// Distance between the full shapes: core distance minus the convex radii. Negative for
  /// inflated shapes whose cores are apart (exact depth); when the cores overlap it is
  /// -(sum of convex radii), an upper bound (EPA gives the depth). In Boolean mode with a
  /// separating plane, a lower bound.
  double distance = 0.0;
  /// World-frame separation vector x = witnessA - witnessB of the cores (0 when they overlap).
  Eigen::Vector3d separation = Eigen::Vector3d::Zero();
  /// World-frame witness points on the full shapes.
  Eigen::Vector3d witnessA = Eigen::Vector3d::Zero();
  Eigen::Vector3d witnessB = Eigen::Vector3d::Zero();
  /// Final simplex, in A's frame (the frame of the MinkowskiDifference), for EPA.
  Simplex simplex;
  int iterations = 0;
  /// Iteration at which momentum was switched off (-1: never on or never stopped).
  int momentumStopIteration = -1;
  /// The variant that ran (differs from the requested one for Auto).
  GjkVariant variantUsed = GjkVariant::Vanilla;
  SupportHints hints;
  /// True when the shapes collide (distance <= eps_col). Also set, from the last iterate, when
  /// the run ended on MaxIterations or Degenerate.
  bool inCollision = false;
  /// True when the cores overlap (the origin is inside the simplex), so the depth needs EPA.
  bool coresOverlap = false;
  bool collide() const { return inCollision; }
};

/// Runs GJK on the pair. `initialGuess` is x0 in world coordinates (any length; zero falls back
/// to (1,0,0), non-finite gives InvalidInput); `hints` are the starting vertex hints. `warm`
/// (optional, non-empty): the pair's kept simplex (warm_simplex.hpp), which then starts the run
/// in place of x0: W_0 is the kept simplex and x_0 its closest point to the origin, a point of D,
/// so the duality-gap test runs from the first support on. Allocates nothing.
GjkResult gjk(const MinkowskiDifference& difference, const Eigen::Vector3d& initialGuess,
              const GjkOptions& options, SupportHints hints = {},
              const WarmSimplex* warm = nullptr);

/// Convenience overload building the MinkowskiDifference; returns InvalidInput for bad poses.
GjkResult gjk(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB,
              const Eigen::Vector3d& initialGuess, const GjkOptions& options,
              SupportHints hints = {});

}  // namespace hb
