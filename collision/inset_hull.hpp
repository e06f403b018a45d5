#pragma once
// The core of a hull rounded by a convex radius r: the intersection of the hull's face planes,
// each moved inward by r. The core inflated by a ball of radius r is the hull with its edges and
// corners rounded by r; its faces stay in their planes (those wider than 2r).

#include "collision/convex_hull.hpp"

namespace hb {

/// The hull's face planes moved inward by r (metres), intersected: a ConvexHull with its own
/// faces, adjacency and direction table. Throws HullError when r is negative, not finite or not
/// below hull.innerRadius() (the core would not contain the centroid), or when the core is too
/// thin for a 3-D hull.
ConvexHull insetHull(const ConvexHull& hull, double r);

}  // namespace hb
