// Fitting oriented bounding boxes to convex hulls: the PCA box, and boxes with a face on a hull
// face plane whose cross-section is the minimum-area rectangle of the hull's shadow on that plane,
// searched by branch and bound over cheap lower bounds.

#include "collision/obb.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <span>
#include <utility>
#include <vector>

#include "collision/convex_hull.hpp"
#include "collision/min_area_rectangle.hpp"
#include "collision/portable_math.hpp"
#include "collision/silhouette.hpp"

namespace hb {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector2d;
using Eigen::Vector3d;

// fitObb's lower bounds on a face plane's box come from the hull's supports along this many
// directions round the plane, taken again once the planes have turned by more than this angle
// (radians). They only decide how many planes are measured exactly (docs/design.md); the result
// does not depend on them.
constexpr int kBoundDirections = 32;
constexpr double kBoundResampleAngle = 0.1;
// Cells per cube face edge when ordering the normals for the bounds.
constexpr int kNormalGrid = 16;
// Relative round-off allowed for in a volume bound before it rules a plane out.
constexpr double kBoundMargin = 1e-12;

// The tightest box with the given axes (columns, a rotation) around the points.
Obb boxWithAxes(const Matrix3d& axes, std::span<const Vector3d> points) {
  Vector3d lo = Vector3d::Constant(std::numeric_limits<double>::infinity());
  Vector3d hi = -lo;
  for (const Vector3d& p : points) {
    const Vector3d local = axes.transpose() * p;
    lo = lo.cwiseMin(local);
    hi = hi.cwiseMax(local);
  }
  Obb box;
  box.axes = axes;
  box.center = axes * (0.5 * (lo + hi));
  box.halfExtents = 0.5 * (hi - lo);
  return box;
}

// Principal axes of the points, largest spread first, completed to a right-handed frame.
Matrix3d principalAxes(std::span<const Vector3d> points) {
  Vector3d mean = Vector3d::Zero();
  for (const Vector3d& p : points) mean += p;
  mean /= static_cast<double>(points.size());
  Matrix3d covariance = Matrix3d::Zero();
  for (const Vector3d& p : points) covariance += (p - mean) * (p - mean).transpose();
  const Eigen::SelfAdjointEigenSolver<Matrix3d> eigen(covariance);  // ascending eigenvalues
  Matrix3d axes;
  axes.col(0) = eigen.eigenvectors().col(2);
  axes.col(1) = eigen.eigenvectors().col(1);
  axes.col(2) = axes.col(0).cross(axes.col(1));
  return axes;
}

// Face normals of the hull, one per plane direction: n and -n give the same projection.
std::vector<Vector3d> distinctNormalDirections(const ConvexHull& hull) {
  std::vector<Vector3d> normals;
  normals.reserve(hull.numFaces());
  for (int f = 0; f < hull.numFaces(); ++f) {
    Vector3d n = hull.faceNormal(f);
    int largest;
    n.cwiseAbs().maxCoeff(&largest);
    if (n[largest] < 0.0) n = -n;
    normals.push_back(n);
  }
  std::sort(normals.begin(), normals.end(), [](const Vector3d& a, const Vector3d& b) {
    return std::lexicographical_compare(a.data(), a.data() + 3, b.data(), b.data() + 3);
  });
  normals.erase(std::unique(normals.begin(), normals.end(),
                            [](const Vector3d& a, const Vector3d& b) {
                              return (a - b).squaredNorm() < 1e-24;
                            }),
                normals.end());
  return normals;
}

// Cell of a normal (largest coordinate positive, as from distinctNormalDirections) on a cube map
// with `grid` cells per face edge, numbered row by row in alternating directions so that cells
// one apart are neighbours: sorted by cell, normals turn little from one to the next.
int normalCell(const Vector3d& n, int grid) {
  int major;
  n.cwiseAbs().maxCoeff(&major);
  const auto bin = [grid](double q) {  // q in [-1, 1]
    return std::clamp(static_cast<int>((q + 1.0) * 0.5 * grid), 0, grid - 1);
  };
  const int i = bin(n[(major + 1) % 3] / n[major]);
  int j = bin(n[(major + 2) % 3] / n[major]);
  if (i % 2 == 1) j = grid - 1 - j;
  return (major * grid + i) * grid + j;
}

// Minimum-area rectangles of a hull's shadows: for a view direction, the silhouette traced on the
// hull, projected relative to the interior point and sorted by angle around it, its convex
// outline, then rotating calipers. Keeps its buffers from one direction to the next.
class ShadowRectangles {
 public:
  /// `tinyEdge`: outline edges up to this long are round-off (metres).
  ShadowRectangles(const ConvexHull& hull, double tinyEdge)
      : hull_(hull), silhouette_(hull), tinyEdge_(tinyEdge) {}

  /// The smallest rectangle around the shadow on the plane normal to n (unit); (u, w, n) is a
  /// right-handed frame and the rectangle's axis is in (u, w) coordinates.
  Rectangle smallest(const Vector3d& n, const Vector3d& u, const Vector3d& w) {
    const std::vector<Vector3d>& vertices = hull_.vertices();
    const Vector3d& inside = hull_.interiorPoint();
    const auto project = [&](int v) {
      const Vector3d d = vertices[v] - inside;
      const Vector2d p(u.dot(d), w.dot(d));
      // The interior point itself is no corner (and has no angle).
      if (p.x() != 0.0 || p.y() != 0.0) shadow_.push_back({p, pseudoAngle(p)});
    };
    // The support along u is on the silhouette, so the walk usually starts there. The traced
    // loop winds once around the interior point unless faces parallel to n, on a side decided
    // by round-off, cut off a sliver of their own; then every vertex is projected.
    shadow_.clear();
    if (silhouette_.trace(n, hull_.supportVertex(u, hintSide_), loop_)) {
      for (int v : loop_) project(v);
    }
    if (!windsOnceAround(shadow_)) {
      shadow_.clear();
      for (int v = 0; v < hull_.numVertices(); ++v) project(v);
    }
    sortByAngle(shadow_);
    convexHullOfSorted(shadow_, outline_);
    removeTinyEdges(outline_, tinyEdge_);
    return minimumAreaRectangle(outline_, angles_);
  }

 private:
  const ConvexHull& hull_;
  const SilhouetteTracer silhouette_;
  const double tinyEdge_;
  int hintSide_ = 0;
  std::vector<int> loop_;
  std::vector<ShadowPoint> shadow_;
  std::vector<Vector2d> outline_;
  std::vector<double> angles_;
};

// Lower bounds on the area of the smallest rectangle around a hull's shadow. The hull's
// supports along directions evenly spread round a plane lie on that plane's shadow outline;
// projected on any plane they lie inside its shadow, so the smallest rectangle around their
// outline is no larger than the shadow's, and close to it while the planes are a few degrees
// apart. The sample is retaken once the plane has turned further than that from the one it was
// taken for, so planes should come in an order that turns little from one to the next.
class ShadowRectangleBound {
 public:
  explicit ShadowRectangleBound(const ConvexHull& hull)
      : hull_(hull), resampleCosine_(portable::cos(kBoundResampleAngle)) {
    for (int k = 0; k < kBoundDirections; ++k) {
      const double angle = 2.0 * std::numbers::pi * k / kBoundDirections;
      circle_[k] = Vector2d(portable::cos(angle), portable::sin(angle));
    }
  }

  /// A lower bound on the area of the smallest rectangle around the shadow on the plane normal
  /// to n (unit).
  double area(const Vector3d& n) {
    const Vector3d u = n.unitOrthogonal();
    const Vector3d w = n.cross(u);
    if (sample_.empty() || std::abs(n.dot(sampledFor_)) < resampleCosine_) {
      // Neighbouring directions' supports are a few edges apart: each climb starts from the last.
      sample_.clear();
      int v = hull_.supportVertex(u, hint_);
      for (const Vector2d& c : circle_) {
        v = hull_.supportVertexFrom(c.x() * u + c.y() * w, v);
        if (sample_.empty() || (v != sample_.back() && v != sample_.front())) sample_.push_back(v);
      }
      sampledFor_ = n;
    }
    const Vector3d& inside = hull_.interiorPoint();
    points_.clear();
    for (int v : sample_) {
      const Vector3d d = hull_.vertices()[v] - inside;
      const Vector2d p(u.dot(d), w.dot(d));
      if (p.x() != 0.0 || p.y() != 0.0) points_.push_back({p, pseudoAngle(p)});
    }
    // The exact hull of the points, without removing round-off sized edges: whatever the
    // calipers then make of the polygon, each candidate area is a product of two of the
    // points' extents, so the minimum stays a lower bound.
    sortByAngle(points_);
    convexHullOfSorted(points_, outline_);
    const double area = minimumAreaRectangle(outline_, angles_).area;
    return area >= 0.0 && area < std::numeric_limits<double>::infinity() ? area : 0.0;
  }

 private:
  const ConvexHull& hull_;
  const double resampleCosine_;
  std::array<Vector2d, kBoundDirections> circle_;
  int hint_ = 0;
  Vector3d sampledFor_ = Vector3d::Zero();
  std::vector<int> sample_;
  std::vector<ShadowPoint> points_;
  std::vector<Vector2d> outline_;
  std::vector<double> angles_;
};

// A face plane of the hull: its normal, the extent of the hull along it (the height of the box
// with a face on the plane) and a lower bound on that box's volume.
struct FacePlane {
  Vector3d normal;
  double height;
  double bound;
};

// The hull's face planes (one per direction), sorted by their bounds.
std::vector<FacePlane> boundedPlanes(const ConvexHull& hull) {
  // In cube-map order, so that the bound's sample is rarely retaken and the climbs are short.
  std::vector<std::pair<int, Vector3d>> byCell;
  for (const Vector3d& n : distinctNormalDirections(hull)) {
    byCell.emplace_back(normalCell(n, kNormalGrid), n);
  }
  std::sort(byCell.begin(), byCell.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });

  const std::vector<Vector3d>& vertices = hull.vertices();
  ShadowRectangleBound rectangleBound(hull);
  std::vector<FacePlane> planes;
  planes.reserve(byCell.size());
  int top = 0, bottom = 0;
  for (const auto& [cell, n] : byCell) {
    top = hull.supportVertexFrom(n, top);
    bottom = hull.supportVertexFrom(-n, bottom);
    const double height = n.dot(vertices[top]) - n.dot(vertices[bottom]);
    planes.push_back({n, height, height * rectangleBound.area(n)});
  }
  std::sort(planes.begin(), planes.end(),
            [](const FacePlane& a, const FacePlane& b) { return a.bound < b.bound; });
  return planes;
}

}  // namespace

Obb fitObb(std::span<const Eigen::Vector3d> points) {
  // The orientation comes from the hull; the extents from every point, so all are inside even
  // where Qhull dropped a point within its round-off of a face.
  const ConvexHull hull = ConvexHull::build(points);
  return boxWithAxes(fitObb(hull).axes, points);
}

Obb fitObb(const ConvexHull& hull) {
  const std::vector<Vector3d>& vertices = hull.vertices();
  if (vertices.empty()) throw HullError("fitObb: empty hull");
  if (hull.numFaces() > kExactObbFitFaces) {
    // The exact search measures a share of the face planes, each in time growing with the
    // hull: on a 200k-vertex hull 5 s. The supports along directions spread evenly over the
    // sphere (a Fibonacci lattice) span a hull close to this one; its box's axes, with the
    // extents taken over every vertex, give a box within a few percent of the smallest.
    std::vector<Vector3d> supports;
    supports.reserve(kObbSampleDirections);
    int hint = -1;
    const double golden = std::numbers::pi * (3.0 - std::sqrt(5.0));
    for (int k = 0; k < kObbSampleDirections; ++k) {
      const double z = 1.0 - (2.0 * k + 1.0) / kObbSampleDirections;
      const double r = std::sqrt(std::max(0.0, 1.0 - z * z));
      const Vector3d d(r * portable::cos(golden * k), r * portable::sin(golden * k), z);
      supports.push_back(vertices[hull.supportVertex(d, hint)]);
    }
    std::sort(supports.begin(), supports.end(), [](const Vector3d& a, const Vector3d& b) {
      return std::lexicographical_compare(a.data(), a.data() + 3, b.data(), b.data() + 3);
    });
    supports.erase(std::unique(supports.begin(), supports.end()), supports.end());
    const Obb sampled = fitObb(ConvexHull::build(supports));
    return boxWithAxes(sampled.axes, vertices);
  }
  const Obb pca = boxWithAxes(principalAxes(vertices), vertices);
  Obb best = pca;
  double bestVolume = pca.volume();

  // A box with a face on a hull face plane: its extent along the normal comes from two support
  // queries, its cross-section is the minimum-area rectangle of the hull's shadow on the plane.
  // Branch and bound: the planes are measured in order of a cheap lower bound on their boxes'
  // volumes, up to the first bound that is no better than the best volume found, since every
  // later plane's box is at least as large.
  ShadowRectangles shadows(hull, 1e-12 * pca.halfExtents.norm());
  for (const FacePlane& plane : boundedPlanes(hull)) {
    if (plane.bound * (1.0 - kBoundMargin) >= bestVolume) break;
    const Vector3d& n = plane.normal;
    const Vector3d u = n.unitOrthogonal();
    const Vector3d w = n.cross(u);
    const Rectangle rectangle = shadows.smallest(n, u, w);
    if (rectangle.area * plane.height < bestVolume) {
      bestVolume = rectangle.area * plane.height;
      // (e, p, n) is right-handed because (u, w, n) is and p is e turned by +90 degrees.
      const Vector2d p(-rectangle.axis.y(), rectangle.axis.x());
      best.axes.col(0) = rectangle.axis.x() * u + rectangle.axis.y() * w;
      best.axes.col(1) = p.x() * u + p.y() * w;
      best.axes.col(2) = n;
    }
  }
  // Recomputed from the vertices, so round-off in the candidate's area cannot make it worse
  // than PCA.
  const Obb fitted = boxWithAxes(best.axes, vertices);
  return fitted.volume() <= pca.volume() ? fitted : pca;
}

}  // namespace hb
