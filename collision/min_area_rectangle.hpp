#pragma once
// The smallest-area rectangle around a planar point set, in the steps the OBB fit takes for a
// hull's shadow: the points' order by angle around a point strictly inside them, their convex
// outline by Graham's scan, and rotating calipers over the outline's edges. Points are given
// relative to the interior point, which is therefore the origin.

#include <Eigen/Core>
#include <limits>
#include <vector>

namespace hb {

/// A cheap stand-in for the polar angle of d != 0, in [0, 4): increasing with the angle, and a
/// quarter turn adds exactly 1.
double pseudoAngle(const Eigen::Vector2d& d);

/// A point of a shadow, relative to a point strictly inside the shadow, with its pseudo-angle.
struct ShadowPoint {
  Eigen::Vector2d p;
  double angle;
};

/// True when the closed polyline through the points turns once counter-clockwise around the
/// origin: the steps between neighbours' angles, each taken the short way, add up to one turn.
bool windsOnceAround(const std::vector<ShadowPoint>& loop);

/// Sorts by angle, the nearer first on ties. Linear time on points that are already sorted up to
/// a rotation and round-off (a traced silhouette), O(n log n) otherwise.
void sortByAngle(std::vector<ShadowPoint>& points);

/// Convex hull of points sorted by angle (sortByAngle) around the origin, which must lie strictly
/// inside it: counter-clockwise from the rightmost point (the topmost of those), without collinear
/// or repeated points.
void convexHullOfSorted(const std::vector<ShadowPoint>& points, std::vector<Eigen::Vector2d>& hull);

/// Drops polygon vertices within `tolerance` of the previously kept one, and trailing vertices
/// within `tolerance` of the first.
void removeTinyEdges(std::vector<Eigen::Vector2d>& polygon, double tolerance);

/// Orientation and area of a rectangle around a polygon (its position is left to the caller).
struct Rectangle {
  Eigen::Vector2d axis = Eigen::Vector2d::UnitX();  // unit direction of one side
  double area = std::numeric_limits<double>::infinity();
};

/// Smallest-area rectangle around a convex counter-clockwise polygon. Infinite area (and the x
/// axis) when the polygon has fewer than three vertices or an edge of zero length. `angles` is
/// scratch space, kept by the caller so that repeated calls do not allocate.
Rectangle minimumAreaRectangle(const std::vector<Eigen::Vector2d>& polygon,
                               std::vector<double>& angles);

}  // namespace hb
