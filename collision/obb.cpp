// Oriented bounding boxes: fitting (PCA and face-aligned minimum-area rectangles), posing, and
// the separating-axis overlap test.

#include "collision/obb.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

namespace hb {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector2d;
using Eigen::Vector3d;

// Added to |R| in the separating-axis test: when an edge of one box is (nearly) parallel to an
// edge of the other, their cross product is (nearly) zero and round-off alone could make that
// degenerate axis report a separation (Ericson, Sec. 4.4.1).
constexpr double kParallelEpsilon = 1e-9;

// Slack on the silhouette filter below; erring this way only adds candidate shadow points.
constexpr double kSilhouetteTolerance = 1e-8;

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

double cross2(const Vector2d& o, const Vector2d& a, const Vector2d& b) {
  return (a.x() - o.x()) * (b.y() - o.y()) - (a.y() - o.y()) * (b.x() - o.x());
}

// Convex hull of 2-D points by Andrew's monotone chain: counter-clockwise, without collinear or
// repeated points. `points` is sorted in place; the hull goes to `hull`.
void convexHull2d(std::vector<Vector2d>& points, std::vector<Vector2d>& hull) {
  std::sort(points.begin(), points.end(), [](const Vector2d& a, const Vector2d& b) {
    return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y());
  });
  hull.clear();
  if (points.size() < 3) {
    hull = points;
    return;
  }
  // Lower chain left to right, then upper chain right to left; a point that does not make a
  // strict left turn is dropped.
  for (const Vector2d& p : points) {
    while (hull.size() >= 2 && cross2(hull[hull.size() - 2], hull.back(), p) <= 0.0) {
      hull.pop_back();
    }
    hull.push_back(p);
  }
  const std::size_t lowerSize = hull.size();
  for (auto it = points.rbegin() + 1; it != points.rend(); ++it) {
    while (hull.size() > lowerSize && cross2(hull[hull.size() - 2], hull.back(), *it) <= 0.0) {
      hull.pop_back();
    }
    hull.push_back(*it);
  }
  hull.pop_back();  // the first point again
}

// Drops polygon vertices within `tolerance` of the previously kept one. Points that coincide up
// to round-off (the two ends of an edge parallel to the view, say) can survive the monotone
// chain, and the direction of the round-off sized edge between them would be noise.
void removeTinyEdges(std::vector<Vector2d>& polygon, double tolerance) {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < polygon.size(); ++i) {
    if (kept == 0 || (polygon[i] - polygon[kept - 1]).norm() > tolerance)
      polygon[kept++] = polygon[i];
  }
  while (kept > 1 && (polygon[kept - 1] - polygon[0]).norm() <= tolerance) --kept;
  polygon.resize(kept);
}

struct Rectangle {
  Vector2d axis = Vector2d::UnitX();  // unit direction of one side
  double area = std::numeric_limits<double>::infinity();
};

// Smallest-area rectangle around a convex CCW polygon. One of its sides lies on a polygon edge
// (Freeman and Shapira, 1975), so only those orientations are tried. Rotating calipers: for edge
// i with direction e and inward normal p the rectangle is bounded by the edge itself and by the
// vertices extreme along +e, +p and -e, which come in that order after the edge and only move
// forward as i goes round, so the sweep is linear. Indices are kept unwrapped (mod m on access)
// so "forward of" is a plain comparison.
Rectangle minimumAreaRectangle(const std::vector<Vector2d>& polygon) {
  Rectangle best;
  const int m = static_cast<int>(polygon.size());
  if (m < 3) return best;
  const auto at = [&](int k) -> const Vector2d& { return polygon[k % m]; };
  // Moves `k` forward while that increases dir . q (at most one full turn).
  const auto advance = [&](int k, const Vector2d& dir) {
    for (int steps = 0; steps < m && dir.dot(at(k + 1)) > dir.dot(at(k)); ++steps) ++k;
    return k;
  };

  int right = 0, top = 0, left = 0;
  for (int i = 0; i < m; ++i) {
    const Vector2d edge = at(i + 1) - at(i);
    if (edge.squaredNorm() == 0.0) continue;
    const Vector2d e = edge.normalized();
    const Vector2d p(-e.y(), e.x());
    right = advance(std::max(right, i + 1), e);
    top = advance(std::max(top, right), p);
    left = advance(std::max(left, top), -e);
    const double width = e.dot(at(right) - at(left));
    const double height = p.dot(at(top) - at(i));
    if (width * height < best.area) {
      best.area = width * height;
      best.axis = e;
    }
  }
  return best;
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

// Finds, for a view direction n, a small superset of the hull vertices on the silhouette (the
// only ones that can be corners of the hull's shadow on the plane normal to n).
//
// Each vertex gets a cone (unit axis, sine of its half-angle) holding the normals of its faces.
// A silhouette vertex has faces facing both ways along n, so the great circle n . x = 0 cuts
// its cone, which implies |n . axis| <= sine ("reach"). Vertices are grouped by cone axis in a
// cube map, and each group is bounded by a cone of its own, so whole groups far from the great
// circle are skipped: a query costs the groups plus the vertices near the silhouette.
class SilhouetteFilter {
 public:
  explicit SilhouetteFilter(const ConvexHull& hull) {
    const int count = hull.numVertices();
    std::vector<Vector3d> axis(count, Vector3d::Zero());
    for (int f = 0; f < hull.numFaces(); ++f) {
      for (int v : hull.face(f)) axis[v] += hull.faceNormal(f);
    }
    std::vector<double> reach(count, 0.0);
    for (Vector3d& a : axis) a = a.norm() > 1e-12 ? a.normalized() : Vector3d::UnitX();
    for (int f = 0; f < hull.numFaces(); ++f) {
      const Vector3d& n = hull.faceNormal(f);
      for (int v : hull.face(f)) {
        // Wider than a hemisphere: always a candidate. Otherwise the cross product's norm is
        // the sine, accurate for the small angles of flat regions.
        reach[v] = axis[v].dot(n) <= 0.0 ? kAlways : std::max(reach[v], axis[v].cross(n).norm());
      }
    }
    for (double& r : reach) r = std::min(kAlways, r + kSilhouetteTolerance);

    // Cube-map cells of about 16 vertices each; members stored cell by cell.
    const int grid = std::max(1, static_cast<int>(std::ceil(std::sqrt(count / 96.0))));
    const int numCells = 6 * grid * grid;
    std::vector<int> cellOf(count);
    std::vector<int> cellStart(numCells + 1, 0);
    for (int v = 0; v < count; ++v) {
      cellOf[v] = cubeMapCell(axis[v], grid);
      ++cellStart[cellOf[v] + 1];
    }
    for (int c = 0; c < numCells; ++c) cellStart[c + 1] += cellStart[c];
    std::vector<int> fill(cellStart.begin(), cellStart.end() - 1);
    x_.resize(count);
    y_.resize(count);
    z_.resize(count);
    reach_.resize(count);
    vertex_.resize(count);
    for (int v = 0; v < count; ++v) {
      const int k = fill[cellOf[v]]++;
      x_[k] = axis[v].x();
      y_[k] = axis[v].y();
      z_[k] = axis[v].z();
      reach_[k] = reach[v];
      vertex_[k] = v;
    }

    // A cell's bound: its members' axes lie within angle rho of the cell axis, and each member
    // passes within angle gamma of the great circle, so the cell matters only if the cell axis
    // is within rho + gamma of it.
    for (int c = 0; c < numCells; ++c) {
      if (cellStart[c] == cellStart[c + 1]) continue;
      Vector3d centre = Vector3d::Zero();
      for (int k = cellStart[c]; k < cellStart[c + 1]; ++k) centre += Vector3d(x_[k], y_[k], z_[k]);
      Cell cell{Vector3d::UnitX(), kAlways, cellStart[c], cellStart[c + 1]};
      if (centre.norm() > 1e-12) {
        cell.axis = centre.normalized();
        double rho = 0.0, gamma = 0.0;
        for (int k = cell.begin; k < cell.end; ++k) {
          const Vector3d a(x_[k], y_[k], z_[k]);
          rho = std::max(rho, std::atan2(cell.axis.cross(a).norm(), cell.axis.dot(a)));
          gamma = std::max(gamma, std::asin(std::min(1.0, reach_[k])));
        }
        const double angle = rho + gamma + kSilhouetteTolerance;
        if (angle < 0.5 * std::numbers::pi) cell.reach = std::sin(angle);
      }
      cells_.push_back(cell);
    }
  }

  /// Appends the candidate vertices for view direction n (unit) to `out`.
  void collect(const Vector3d& n, std::vector<int>& out) const {
    out.clear();
    const double nx = n.x(), ny = n.y(), nz = n.z();
    for (const Cell& cell : cells_) {
      if (std::abs(n.dot(cell.axis)) > cell.reach) continue;
      for (int k = cell.begin; k < cell.end; ++k) {
        if (std::abs(nx * x_[k] + ny * y_[k] + nz * z_[k]) <= reach_[k]) {
          out.push_back(vertex_[k]);
        }
      }
    }
  }

 private:
  static constexpr double kAlways = 2.0;  // a reach no |cos| exceeds

  struct Cell {
    Vector3d axis;
    double reach;
    int begin, end;
  };

  static int cubeMapCell(const Vector3d& a, int grid) {
    int major;
    a.cwiseAbs().maxCoeff(&major);
    const int face = 2 * major + (a[major] > 0.0 ? 1 : 0);
    const double s = a[(major + 1) % 3] / std::abs(a[major]);  // in [-1, 1]
    const double t = a[(major + 2) % 3] / std::abs(a[major]);
    const auto bin = [grid](double q) {
      return std::clamp(static_cast<int>((q + 1.0) * 0.5 * grid), 0, grid - 1);
    };
    return (face * grid + bin(s)) * grid + bin(t);
  }

  std::vector<double> x_, y_, z_, reach_;  // cone axes and reaches, cell by cell
  std::vector<int> vertex_;
  std::vector<Cell> cells_;
};

}  // namespace

bool Obb::contains(const Eigen::Vector3d& x, double tolerance) const {
  const Vector3d local = axes.transpose() * (x - center);
  return (local.cwiseAbs() - halfExtents).maxCoeff() <= tolerance;
}

Obb Obb::transformed(const Pose& pose) const {
  Obb box = *this;
  box.center = pose.apply(center);
  box.axes = pose.rotation() * axes;
  return box;
}

std::array<Eigen::Vector3d, 8> Obb::corners() const {
  // Corner k takes the + side of axis i when bit i of k is set.
  std::array<Vector3d, 8> result;
  for (int k = 0; k < 8; ++k) {
    Vector3d local;
    for (int i = 0; i < 3; ++i) local[i] = (k >> i & 1) ? halfExtents[i] : -halfExtents[i];
    result[k] = center + axes * local;
  }
  return result;
}

Obb fitObb(std::span<const Eigen::Vector3d> points) {
  // The orientation comes from the hull; the extents from every point, so all are inside even
  // where Qhull dropped a point within its round-off of a face.
  const ConvexHull hull = ConvexHull::build(points);
  return boxWithAxes(fitObb(hull).axes, points);
}

Obb fitObb(const ConvexHull& hull) {
  const std::vector<Vector3d>& vertices = hull.vertices();
  if (vertices.empty()) throw HullError("fitObb: empty hull");
  const Obb pca = boxWithAxes(principalAxes(vertices), vertices);
  Obb best = pca;
  double bestVolume = pca.volume();

  // A box with a face on a hull face plane: its extent along the normal comes from two support
  // queries, its cross-section is the minimum-area rectangle of the hull's shadow on the plane.
  // Only silhouette vertices can be corners of the shadow, so only they are projected.
  const double tinyEdge = 1e-12 * pca.halfExtents.norm();
  const SilhouetteFilter silhouette(hull);
  std::vector<int> candidates;
  std::vector<Vector2d> shadow;
  std::vector<Vector2d> outline;
  int hintTop = 0, hintBottom = 0;
  for (const Vector3d& n : distinctNormalDirections(hull)) {
    const double top = n.dot(vertices[hull.supportVertex(n, hintTop)]);
    const double bottom = n.dot(vertices[hull.supportVertex(-n, hintBottom)]);
    const double height = top - bottom;

    silhouette.collect(n, candidates);
    const Vector3d u = n.unitOrthogonal();
    const Vector3d w = n.cross(u);
    shadow.clear();
    for (int v : candidates) shadow.emplace_back(u.dot(vertices[v]), w.dot(vertices[v]));
    convexHull2d(shadow, outline);
    removeTinyEdges(outline, tinyEdge);
    const Rectangle rectangle = minimumAreaRectangle(outline);
    if (rectangle.area * height < bestVolume) {
      bestVolume = rectangle.area * height;
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

Obb localObb(const Shape& shape) {
  Obb box;  // centred on the local origin, axis-aligned
  const double r = shape.radius();
  switch (shape.type()) {
    case ShapeType::Sphere:
      box.halfExtents = Vector3d::Constant(r);
      break;
    case ShapeType::Box:
      box.halfExtents = shape.halfExtents();
      break;
    case ShapeType::Capsule:
      box.halfExtents = Vector3d(r, r, shape.halfLength() + r);
      break;
    case ShapeType::Cylinder:
    case ShapeType::Cone:
      box.halfExtents = Vector3d(r, r, shape.halfLength());
      break;
    case ShapeType::Ellipsoid:
      box.halfExtents = shape.radii();
      break;
    case ShapeType::ConvexHull:
      box = fitObb(shape.hull());
      break;
  }
  return box;
}

// Separating-axis test of two boxes (Ericson, "Real-Time Collision Detection", Sec. 4.4.1):
// they are disjoint iff their projections are disjoint on one of the 15 axes a_i, b_j and
// a_i x b_j. Everything is expressed in a's frame, where a's axes are the unit vectors and b's
// are the columns of R. Separation must be strict, so touching boxes overlap.
bool obbOverlap(const Obb& a, const Obb& b) {
  const Matrix3d r = a.axes.transpose() * b.axes;
  const Matrix3d absR = r.cwiseAbs().array() + kParallelEpsilon;
  const Vector3d t = a.axes.transpose() * (b.center - a.center);
  const Vector3d& ea = a.halfExtents;
  const Vector3d& eb = b.halfExtents;

  for (int i = 0; i < 3; ++i) {  // L = a_i
    if (std::abs(t[i]) > ea[i] + absR.row(i).dot(eb)) return false;
  }
  for (int j = 0; j < 3; ++j) {  // L = b_j
    if (std::abs(r.col(j).dot(t)) > absR.col(j).dot(ea) + eb[j]) return false;
  }
  // L = a_i x b_j has components (in a's frame) L_i = 0, L_i1 = -R(i2, j), L_i2 = R(i1, j) with
  // (i, i1, i2) cyclic; on b's side, b_k . L = a_i . (b_j x b_k) picks R(i, j2) for k = j1 and
  // -R(i, j1) for k = j2.
  for (int i = 0; i < 3; ++i) {
    const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
    for (int j = 0; j < 3; ++j) {
      const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      const double radiusA = ea[i1] * absR(i2, j) + ea[i2] * absR(i1, j);
      const double radiusB = eb[j1] * absR(i, j2) + eb[j2] * absR(i, j1);
      const double distance = std::abs(t[i2] * r(i1, j) - t[i1] * r(i2, j));
      if (distance > radiusA + radiusB) return false;
    }
  }
  return true;
}

}  // namespace hb
