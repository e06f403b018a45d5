#pragma once
// A pair's last GJK simplex, kept from one narrow phase to the next. Each of its support points
// is stored as the two core points it came from, each in its own shape's frame: at any later
// poses their difference is still a point of the Minkowski difference, so the kept simplex is a
// valid start for Frank–Wolfe (its closest point to the origin lies in D). A resting pair's
// last simplex is usually still the optimal one, and GJK seeded with it stops at the first
// duality-gap test; an overlapping pair's tetrahedron usually still encloses the origin, and EPA
// starts from it without a GJK iteration.

#include <Eigen/Core>
#include <array>

#include "collision/simplex.hpp"

namespace hb {

struct WarmSimplex {
  std::array<Eigen::Vector3d, 4> a;  ///< points of A's core, in A's frame
  std::array<Eigen::Vector3d, 4> b;  ///< points of B's core, in B's frame
  int size = 0;                      ///< 0: nothing kept
};

/// `simplex` (GJK's, in the frame of `difference`) kept for later poses.
WarmSimplex keepSimplex(const MinkowskiDifference& difference, const Simplex& simplex);

/// The kept simplex at the poses of `difference`, as GJK's simplex (A's frame, weights unset),
/// without repeated points.
Simplex placeSimplex(const MinkowskiDifference& difference, const WarmSimplex& kept);

}  // namespace hb
