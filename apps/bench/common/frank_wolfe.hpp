#pragma once
// Frank–Wolfe on the Minkowski difference D = A - B: the baselines GJK is measured against in
// Table II of the RSS 2022 paper (Montaut et al., "Collision Detection Accelerated: An Optimization
// Perspective"; Sec. II of GJK++, T-RO 2024). Research baselines for `heavyball bench gjk`, not
// part of the collision module.
//
// Minimise f(x) = |x|^2 over D, starting from a point x_0 of D. Each iteration takes the support
// s_k = S_D(x_k) = argmin_{s in D} <x_k, s>, stops when the duality gap
// g_FW(x_k) = 2 <x_k, x_k - s_k> <= eps (then |x_k - x*|^2 <= eps, as for GJK), and otherwise
// moves x_k towards s_k:
//  - OpenLoop: the original step without search, x_{k+1} = gamma_k x_k + (1 - gamma_k) s_k with
//    gamma_k = (k+1)/(k+2) (eq. 11 of the RSS paper);
//  - LineSearch: x_{k+1} = projection of the origin on the segment [x_k, s_k] (Alg. 1). Alg. 3 is
//    the same iteration written with active sets: W_k = {x_k} is augmented to {x_k, s_k}, the
//    origin is projected on its hull, and only x_{k+1} is kept. No away steps, no corrections:
//    only GJK (Alg. 4) keeps the supports, as a simplex.
// Boolean mode adds Alg. 2: stop as soon as <x_k, s_k> > eps_col |x_k| (a plane separates D from
// the origin); and since every iterate lies in D, |x_k| <= eps_col proves the collision at once.

#include <Eigen/Core>

#include "collision/defaults.hpp"
#include "collision/gjk.hpp"
#include "collision/minkowski_difference.hpp"
#include "collision/shape.hpp"

namespace hb::bench {

enum class FrankWolfeStep { OpenLoop, LineSearch };

enum class FrankWolfeStatus {
  Separated,      ///< converged or separating plane found: the shapes do not collide
  Intersecting,   ///< converged, or (Boolean) an iterate within eps_col of the origin
  MaxIterations,  ///< iteration cap hit; the result is the last iterate
  InvalidInput,   ///< non-finite or non-unit pose, non-finite start, bad options
};

/// Frank–Wolfe converges as O(1/k) where the closest point lies inside a face of a polytope: the
/// RSS paper reports 14.3k +- 9.7k iterations for cubes in close proximity, and millions are
/// common (docs/gjk-benchmark.md). The cap bounds a run's cost (a few ms here); runs stopped by it
/// report MaxIterations.
inline constexpr int kFrankWolfeMaxIterations = 100000;

struct FrankWolfeOptions {
  FrankWolfeStep step = FrankWolfeStep::LineSearch;
  GjkMode mode = GjkMode::Distance;
  double tolerance = defaults::kGjkTolerance;  ///< eps on the duality gap (squared metres)
  int maxIterations = kFrankWolfeMaxIterations;
  /// eps_col of Alg. 2 (metres); negative means sqrt(tolerance).
  double collisionTolerance = -1.0;
};

struct FrankWolfeResult {
  FrankWolfeStatus status = FrankWolfeStatus::InvalidInput;
  /// Distance between the full shapes, GJK's conventions: |x_k| minus the convex radii; -(sum of
  /// the radii) when the cores are within eps_col (depth unknown); in Boolean mode with a
  /// separating plane, a lower bound. After MaxIterations an upper bound (x_k lies in D).
  double distance = 0.0;
  bool collide = false;  ///< distance <= eps_col
  /// Support points computed (GJK counts iterations the same way).
  int iterations = 0;
  /// Last duality gap computed (squared metres); infinite when none was.
  double dualityGap = 0.0;
  /// World-frame iterate x_k: a point of the core difference.
  Eigen::Vector3d separation = Eigen::Vector3d::Zero();
};

/// Runs Frank–Wolfe on the pair. `start` is x_0 in world coordinates and must be a point of the
/// core difference (see interiorPoint); support hints start empty.
FrankWolfeResult frankWolfe(const MinkowskiDifference& difference, const Eigen::Vector3d& start,
                            const FrankWolfeOptions& options);

/// A point of the shape's core, in its local frame: the mean of a hull's vertices, the origin of
/// every other shape (all are centred on it; a cone's origin is halfway up its axis). x_0 =
/// world(interior of A) - world(interior of B) lies in D, as the paper's x_0 = c1 - c2 does.
Eigen::Vector3d interiorPoint(const Shape& shape);

}  // namespace hb::bench
