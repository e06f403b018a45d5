#pragma once
// Independent 2-D references for the tests of the OBB fit and its parts: Andrew's monotone chain
// (sort, then lower and upper chains), kept as plain and short as possible.

#include <Eigen/Core>
#include <algorithm>
#include <cstddef>
#include <vector>

namespace hb::test {

/// Twice the signed area of (o, a, b): positive when they turn counter-clockwise.
inline double cross2(const Eigen::Vector2d& o, const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  return (a - o).x() * (b - o).y() - (a - o).y() * (b - o).x();
}

/// The counter-clockwise convex hull of the points, without collinear or repeated points,
/// starting at the leftmost (lowest) point.
inline std::vector<Eigen::Vector2d> monotoneChain(std::vector<Eigen::Vector2d> points) {
  using Eigen::Vector2d;
  std::sort(points.begin(), points.end(), [](const Vector2d& a, const Vector2d& b) {
    return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y());
  });
  std::vector<Vector2d> hull(2 * points.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    while (k >= 2 && cross2(hull[k - 2], hull[k - 1], points[i]) <= 0.0) --k;
    hull[k++] = points[i];
  }
  for (std::size_t i = points.size() - 1, lower = k + 1; i-- > 0;) {
    while (k >= lower && cross2(hull[k - 2], hull[k - 1], points[i]) <= 0.0) --k;
    hull[k++] = points[i];
  }
  hull.resize(k - 1);  // the last point is the first again
  return hull;
}

}  // namespace hb::test
