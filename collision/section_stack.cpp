#include "collision/section_stack.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <unordered_map>

#include "collision/portable_math.hpp"

namespace hb {

namespace {

using Eigen::Vector3d;

/// Sorted heights with those closer than `tolerance` to the previous kept one dropped.
std::vector<double> distinctHeights(const ConvexHull& hull, const Vector3d& axis,
                                    double tolerance) {
  std::vector<double> h;
  h.reserve(hull.vertices().size());
  for (const Vector3d& v : hull.vertices()) h.push_back(axis.dot(v));
  std::sort(h.begin(), h.end());
  std::vector<double> kept;
  for (const double x : h)
    if (kept.empty() || x - kept.back() > tolerance) kept.push_back(x);
  return kept;
}

struct Edge {
  int lower, upper;  // vertex indices, lower height first
  int bottom, top;   // height indices of the two ends
  int faces[2] = {-1, -1};
};

// Every hull edge once, lower end first along `axis`, with its ends' height indices and the two
// faces along it.
template <class HeightIndex>
std::vector<Edge> hullEdges(const ConvexHull& hull, const Vector3d& axis,
                            const HeightIndex& heightIndex) {
  std::vector<Edge> edges;
  std::unordered_map<std::uint64_t, int> edgeOf;
  for (int f = 0; f < hull.numFaces(); ++f) {
    const auto face = hull.face(f);
    for (std::size_t i = 0; i < face.size(); ++i) {
      int u = face[i], w = face[(i + 1) % face.size()];
      if (u > w) std::swap(u, w);
      const std::uint64_t key = (static_cast<std::uint64_t>(u) << 32) | static_cast<unsigned>(w);
      auto [it, added] = edgeOf.try_emplace(key, static_cast<int>(edges.size()));
      if (added) {
        const Vector3d& pu = hull.vertices()[u];
        const Vector3d& pw = hull.vertices()[w];
        const bool uLow = axis.dot(pu) <= axis.dot(pw);
        Edge e{uLow ? u : w, uLow ? w : u, 0, 0};
        e.bottom = heightIndex(hull.vertices()[e.lower]);
        e.top = heightIndex(hull.vertices()[e.upper]);
        e.faces[0] = f;
        edges.push_back(e);
      } else {
        edges[it->second].faces[1] = f;
      }
    }
  }
  return edges;
}

}  // namespace

std::size_t countCrossings(const ConvexHull& hull, const Vector3d& axis, double mergeTolerance) {
  const Vector3d unit = axis.normalized();
  const std::vector<double> heights = distinctHeights(hull, unit, mergeTolerance);
  const auto index = [&](const Vector3d& v) {
    return std::upper_bound(heights.begin(), heights.end(), unit.dot(v) + mergeTolerance) -
           heights.begin();
  };
  std::vector<std::ptrdiff_t> at(hull.vertices().size());
  for (std::size_t v = 0; v < at.size(); ++v) at[v] = index(hull.vertices()[v]);
  std::size_t total = 0;
  for (int v = 0; v < hull.numVertices(); ++v)
    for (const int w : hull.neighbours(v))
      if (v < w) total += static_cast<std::size_t>(std::abs(at[v] - at[w]));
  return total;
}

SectionStack::SectionStack(const ConvexHull& hull, const Vector3d& axis, double mergeTolerance)
    : axis_(axis.normalized()), heights_(distinctHeights(hull, axis_, mergeTolerance)) {
  if (heights_.size() < 2) throw std::invalid_argument("SectionStack: a flat hull has no slabs");
  const auto heightIndex = [&](const Vector3d& v) {
    // The kept height at or just below axis . v (within the merge tolerance).
    const auto it =
        std::upper_bound(heights_.begin(), heights_.end(), axis_.dot(v) + mergeTolerance);
    return static_cast<int>(it - heights_.begin()) - 1;
  };

  const std::vector<Edge> edges = hullEdges(hull, axis_, heightIndex);

  // Sweep the slabs bottom up, keeping the edges that cross the current one.
  std::vector<int> byBottom(edges.size());
  for (std::size_t i = 0; i < edges.size(); ++i) byBottom[i] = static_cast<int>(i);
  std::sort(byBottom.begin(), byBottom.end(),
            [&](int l, int r) { return edges[l].bottom < edges[r].bottom; });
  Vector3d e1 = axis_.unitOrthogonal();
  Vector3d e2 = axis_.cross(e1);
  std::vector<int> active;
  std::vector<std::pair<double, int>> around;
  std::size_t next = 0;
  crossingStart_.push_back(0);
  for (int slab = 0; slab + 1 < static_cast<int>(heights_.size()); ++slab) {
    std::erase_if(active, [&](int e) { return edges[e].top <= slab; });
    while (next < byBottom.size() && edges[byBottom[next]].bottom <= slab) {
      const Edge& e = edges[byBottom[next++]];
      if (e.top > slab) active.push_back(static_cast<int>(&e - edges.data()));
    }
    // Counter-clockwise about the axis, by angle around the mid-height section's centroid.
    const double mid = 0.5 * (heights_[slab] + heights_[slab + 1]);
    std::vector<Vector3d> points;
    Vector3d centre = Vector3d::Zero();
    for (const int e : active) {
      const Vector3d& a = hull.vertices()[edges[e].lower];
      const Vector3d& b = hull.vertices()[edges[e].upper];
      const double t = (mid - axis_.dot(a)) / (axis_.dot(b) - axis_.dot(a));
      points.push_back(a + t * (b - a));
      centre += points.back();
    }
    centre /= static_cast<double>(std::max<std::size_t>(1, points.size()));
    around.clear();
    for (std::size_t i = 0; i < active.size(); ++i) {
      const Vector3d r = points[i] - centre;
      around.emplace_back(portable::atan2(e2.dot(r), e1.dot(r)), active[i]);
    }
    std::sort(around.begin(), around.end());
    const std::size_t first = crossings_.size();
    for (const auto& [angle, e] : around) {
      const Edge& edge = edges[e];
      Crossing c;
      c.lower = edge.lower;
      c.upper = edge.upper;
      c.lowerPoint = hull.vertices()[edge.lower];
      c.span = hull.vertices()[edge.upper] - c.lowerPoint;
      c.lowerHeight = axis_.dot(c.lowerPoint);
      c.inverseRise = 1.0 / axis_.dot(c.span);
      crossings_.push_back(c);
    }
    // The face between consecutive crossings is the one their edges share.
    const std::size_t m = crossings_.size() - first;
    for (std::size_t k = 0; k < m; ++k) {
      const Edge& a = edges[around[k].second];
      const Edge& b = edges[around[(k + 1) % m].second];
      for (const int fa : a.faces)
        if (fa >= 0 && (fa == b.faces[0] || fa == b.faces[1])) crossings_[first + k].nextFace = fa;
    }
    crossingStart_.push_back(static_cast<int>(crossings_.size()));
  }
}

int SectionStack::slabAt(double height) const {
  const auto it = std::upper_bound(heights_.begin() + 1, heights_.end() - 1, height);
  return static_cast<int>(it - heights_.begin()) - 1;
}

}  // namespace hb
