#pragma once
// The facets of the convex hull of a 3-D point set, straight from Qhull: what ConvexHull builds
// its faces from, and what the inset hull reads its vertices from (as facets of a dual hull).

#include <Eigen/Core>
#include <span>
#include <vector>

#include "collision/convex_hull.hpp"

namespace hb {

/// The facets of the points' hull: outward unit normals and the input indices of their vertices
/// (unordered). Runs Qhull with its default options in 3-D, which pre-merge coplanar facets
/// ("C-0"); no "Qt", so coplanar triangles come back as one polygonal facet. `centre` is subtracted
/// from every point first, which keeps Qhull's round-off relative to the cloud's size, not its
/// position. `outsideTolerance` > 0 (metres) runs Qhull's "W" option: a point less than that
/// far outside the hull built so far is never added, so the facets are those of the hull of
/// fewer points, with every input point at most about that far outside it. Throws HullError,
/// its message starting with `caller`, when Qhull fails.
std::vector<PolytopeFace> qhullFacets(std::span<const Eigen::Vector3d> points,
                                      const Eigen::Vector3d& centre, const char* caller,
                                      double outsideTolerance = 0.0);

}  // namespace hb
