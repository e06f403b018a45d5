#pragma once
// Expanding Polytope Algorithm: penetration depth, normal and witness points of two overlapping
// shapes, grown from GJK's terminal simplex (van den Bergen, "Proximity queries and penetration
// depth computation on 3D game objects", GDC 2001). Works on the full (inflated) shapes.

#include <Eigen/Core>
#include <string_view>

#include "collision/defaults.hpp"
#include "collision/minkowski_difference.hpp"
#include "collision/simplex.hpp"

namespace hb {

enum class EpaStatus {
  Converged,      ///< the closest face's support gained less than the tolerance
  MaxIterations,  ///< iteration cap; the result is the best face so far
  PolytopeFull,   ///< vertex or face cap reached; the result is the best face so far
  Degenerate,     ///< the simplex could not be grown to a tetrahedron around the origin, or a
                  ///< numerical failure; the result is a fallback (depth 0, GJK's direction)
};

std::string_view toString(EpaStatus s);

struct EpaOptions {
  int maxIterations = defaults::kEpaMaxIterations;
  double tolerance = defaults::kEpaTolerance;  ///< metres
  /// Expand inside the difference of the cores (convex radii left out). For an origin inside
  /// the core difference, the full depth is the core depth plus the radii, with the same
  /// normal: exact, and far faster than expanding around a rounded difference.
  bool onCores = false;
};

struct EpaResult {
  EpaStatus status = EpaStatus::Degenerate;
  double depth = 0.0;                                  ///< >= 0, metres
  Eigen::Vector3d normal = Eigen::Vector3d::UnitX();   ///< world, unit, from A towards B
  Eigen::Vector3d witnessA = Eigen::Vector3d::Zero();  ///< world, deepest point of A inside B
  Eigen::Vector3d witnessB = Eigen::Vector3d::Zero();  ///< world, deepest point of B inside A
  int iterations = 0;
};

/// Runs EPA from GJK's final simplex (in the difference's frame: A's frame). Simplices with fewer
/// than four points are grown into a tetrahedron first. Allocates nothing (fixed-size storage).
EpaResult epa(const MinkowskiDifference& difference, const Simplex& gjkSimplex,
              const EpaOptions& options, SupportHints& hints);

}  // namespace hb
