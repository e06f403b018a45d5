// Minimum-area rectangles of planar point sets: angular sorting, Graham's scan over the sorted
// points, and rotating calipers.

#include "collision/min_area_rectangle.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace hb {
namespace {

using Eigen::Vector2d;

double cross2(const Vector2d& o, const Vector2d& a, const Vector2d& b) {
  return (a.x() - o.x()) * (b.y() - o.y()) - (a.y() - o.y()) * (b.x() - o.x());
}

bool comesBefore(const ShadowPoint& a, const ShadowPoint& b) {
  return a.angle < b.angle || (a.angle == b.angle && a.p.squaredNorm() < b.p.squaredNorm());
}

}  // namespace

double pseudoAngle(const Vector2d& d) {
  const double t = d.y() / (std::abs(d.x()) + std::abs(d.y()));  // in [-1, 1]
  if (d.x() < 0.0) return 2.0 - t;
  return d.y() < 0.0 ? 4.0 + t : t;
}

bool windsOnceAround(const std::vector<ShadowPoint>& loop) {
  double turn = 0.0;
  for (std::size_t i = 0; i < loop.size(); ++i) {
    double step = loop[i + 1 < loop.size() ? i + 1 : 0].angle - loop[i].angle;
    if (step > 2.0) step -= 4.0;
    if (step <= -2.0) step += 4.0;
    turn += step;
  }
  return std::abs(turn - 4.0) < 1.0;
}

// A silhouette arrives sorted up to round-off once rotated to start at its smallest angle, so
// insertion sort takes linear time; when it has to move points far, std::sort finishes the job.
void sortByAngle(std::vector<ShadowPoint>& points) {
  if (points.empty()) return;
  std::rotate(points.begin(), std::min_element(points.begin(), points.end(), comesBefore),
              points.end());
  const std::size_t budget = 4 * points.size();
  std::size_t moves = 0;
  for (std::size_t i = 1; i < points.size(); ++i) {
    const ShadowPoint x = points[i];
    std::size_t j = i;
    for (; j > 0 && comesBefore(x, points[j - 1]); --j) points[j] = points[j - 1];
    points[j] = x;
    moves += i - j;
    if (moves > budget) {
      std::sort(points.begin(), points.end(), comesBefore);
      return;
    }
  }
}

// Graham's scan, which needs no sort of its own since the points come sorted by angle around a
// point inside their hull.
void convexHullOfSorted(const std::vector<ShadowPoint>& points, std::vector<Vector2d>& hull) {
  hull.clear();
  const std::size_t n = points.size();
  if (n == 0) return;
  // The scan starts at the rightmost point (topmost of those): a hull vertex, so never popped.
  std::size_t first = 0;
  for (std::size_t i = 1; i < n; ++i) {
    const Vector2d& p = points[i].p;
    const Vector2d& q = points[first].p;
    if (p.x() > q.x() || (p.x() == q.x() && p.y() > q.y())) first = i;
  }
  hull.push_back(points[first].p);
  for (std::size_t k = 1; k <= n; ++k) {
    const std::size_t i = first + k < n ? first + k : first + k - n;
    const Vector2d& p = points[i].p;  // k == n: the first point again, closing the loop
    while (hull.size() >= 2 && cross2(hull[hull.size() - 2], hull.back(), p) <= 0.0) {
      hull.pop_back();
    }
    if (k < n) hull.push_back(p);
  }
}

// Points that coincide up to round-off (the two ends of an edge parallel to the view, say) can
// survive the scan, and the direction of the round-off sized edge between them would be noise.
void removeTinyEdges(std::vector<Vector2d>& polygon, double tolerance) {
  const double tolerance2 = tolerance * tolerance;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < polygon.size(); ++i) {
    if (kept == 0 || (polygon[i] - polygon[kept - 1]).squaredNorm() > tolerance2)
      polygon[kept++] = polygon[i];
  }
  while (kept > 1 && (polygon[kept - 1] - polygon[0]).squaredNorm() <= tolerance2) --kept;
  polygon.resize(kept);
}

// One side of the smallest rectangle lies on a polygon edge (Freeman and Shapira, 1975), so only
// those orientations are tried. Rotating calipers: for edge i with direction e the rectangle is
// bounded by the edge and by the vertices extreme along e, along e turned by 90 degrees (into the
// polygon) and along -e. Going round a convex polygon the edge directions turn steadily, so the
// vertex extreme along e turned by 90 j degrees is where the edges' direction passes that of e
// turned by 90 (j + 1) degrees. Directions are compared as pseudo-angles, unwrapped along the
// polygon and continued for a second lap, so the three extreme vertices are found by pointers
// that only move forward, at most a lap ahead of i.
Rectangle minimumAreaRectangle(const std::vector<Vector2d>& polygon, std::vector<double>& angles) {
  Rectangle best;
  const int m = static_cast<int>(polygon.size());
  if (m < 3) return best;
  const auto at = [&](int k) -> const Vector2d& { return polygon[k < m ? k : k - m]; };
  angles.resize(2 * m);
  for (int k = 0; k < m; ++k) {
    const Vector2d e = at(k + 1) - polygon[k];
    if (e.squaredNorm() == 0.0) return best;  // not a proper polygon
    angles[k] = pseudoAngle(e);
    // Convex: each turn is less than half a turn, so only the lap's wrap drops by more than 2.
    if (k > 0 && angles[k] < angles[k - 1] - 2.0) angles[k] += 4.0;
  }
  for (int k = 0; k < m; ++k) angles[k + m] = angles[k] + 4.0;

  // The first vertex from k on whose outgoing edge has turned `quarters` from edge i; at the
  // latest vertex i + m, a full turn on.
  const auto advance = [&](int k, int i, double quarters) {
    const double target = angles[i] + quarters;
    while (angles[k] < target) ++k;
    return k;
  };
  int right = advance(1, 0, 1.0);
  int top = advance(right, 0, 2.0);
  int left = advance(top, 0, 3.0);
  for (int i = 0; i < m; ++i) {
    if (i > 0) {
      right = advance(std::max(right, i + 1), i, 1.0);
      top = advance(top, i, 2.0);
      left = advance(left, i, 3.0);
    }
    const Vector2d e = at(i + 1) - polygon[i];
    const Vector2d p(-e.y(), e.x());
    const double length2 = e.squaredNorm();
    // e is not normalised: the rectangle's area is this product divided by length2.
    const double product = e.dot(at(right) - at(left)) * p.dot(at(top) - polygon[i]);
    if (product < best.area * length2) {
      best.area = product / length2;
      best.axis = e / std::sqrt(length2);
    }
  }
  return best;
}

}  // namespace hb
