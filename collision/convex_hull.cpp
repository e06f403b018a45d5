// Convex hull construction (Qhull) and vertex support queries (linear scan or hill-climbing).

#include "collision/convex_hull.hpp"

#include <Eigen/Geometry>
#include <Eigen/SVD>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <sstream>
#include <utility>

#include "collision/defaults.hpp"
#include "collision/portable_math.hpp"
#include "collision/qhull_facets.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;

// Points whose spread across some direction is below this fraction of their extent are treated
// as flat: Qhull would either fail on them or return a sliver with meaningless normals.
constexpr double kFlatTolerance = 1e-9;

[[noreturn]] void fail(const std::string& what) {
  throw HullError("ConvexHull::build: " + what);
}

std::string formatPoint(const Vector3d& p) {
  std::ostringstream s;
  s << '(' << p.x() << ", " << p.y() << ", " << p.z() << ')';
  return s.str();
}

// Upper-triangular R of the QR factorisation of the n x 3 matrix of centred points, folding one
// row at a time into R with Givens rotations (numerically as good as Householder, no n x 3
// matrix needed).
Eigen::Matrix3d triangularFactor(std::span<const Vector3d> points, const Vector3d& centroid) {
  Eigen::Matrix3d r = Eigen::Matrix3d::Zero();
  for (const Vector3d& p : points) {
    Vector3d row = p - centroid;
    for (int k = 0; k < 3; ++k) {
      if (row[k] == 0.0) continue;
      const double rho = portable::hypot(r(k, k), row[k]);
      const double c = r(k, k) / rho;
      const double s = row[k] / rho;
      for (int j = k; j < 3; ++j) {
        const double rkj = r(k, j);
        r(k, j) = c * rkj + s * row[j];
        row[j] = c * row[j] - s * rkj;
      }
    }
  }
  return r;
}

// Rejects inputs without a proper 3-D hull before Qhull sees them, so the message can name the
// problem instead of relaying a Qhull precision error.
void checkInput(std::span<const Vector3d> points, Vector3d& centroid) {
  const std::size_t n = points.size();
  if (n < 4) fail("needs at least 4 points, got " + std::to_string(n));
  for (std::size_t i = 0; i < n; ++i) {
    if (!points[i].allFinite()) {
      fail("point " + std::to_string(i) + " has a non-finite coordinate " + formatPoint(points[i]));
    }
  }

  std::vector<std::array<double, 3>> sorted(n);
  for (std::size_t i = 0; i < n; ++i) sorted[i] = {points[i].x(), points[i].y(), points[i].z()};
  std::sort(sorted.begin(), sorted.end());
  const auto distinct = std::unique(sorted.begin(), sorted.end()) - sorted.begin();
  if (distinct < 4) {
    fail("only " + std::to_string(distinct) + " distinct points among " + std::to_string(n) +
         " (duplicates); a 3-D hull needs at least 4");
  }

  centroid.setZero();
  for (const Vector3d& p : points) centroid += p;
  centroid /= static_cast<double>(n);

  // The right singular vectors of the centred points are the directions of largest, middle and
  // smallest spread; the largest deviation from the best line and plane, relative to the
  // extent, decides the rank. The points' matrix A = QR has the right singular vectors of its
  // 3x3 factor R, so a 3x3 SVD suffices.
  double extent = 0.0;
  for (const Vector3d& p : points) extent = std::max(extent, (p - centroid).norm());
  const Eigen::JacobiSVD<Eigen::Matrix3d> svd(triangularFactor(points, centroid),
                                              Eigen::ComputeFullV);
  const Vector3d lineDir = svd.matrixV().col(0);
  const Vector3d planeNormal = svd.matrixV().col(2);
  double lineDeviation = 0.0;
  double planeDeviation = 0.0;
  for (const Vector3d& p : points) {
    const Vector3d d = p - centroid;
    lineDeviation = std::max(lineDeviation, (d - d.dot(lineDir) * lineDir).norm());
    planeDeviation = std::max(planeDeviation, std::abs(d.dot(planeNormal)));
  }
  if (lineDeviation <= kFlatTolerance * extent) {
    fail("the " + std::to_string(n) + " points are collinear (no 3-D hull)");
  }
  if (planeDeviation <= kFlatTolerance * extent) {
    std::ostringstream what;
    what << "the " << n << " points are coplanar (no 3-D hull): largest distance to their plane "
         << planeDeviation << " m for an extent of " << extent << " m";
    fail(what.str());
  }
}

// Sorts a planar convex polygon's vertices by angle around their centroid, which is inside the
// polygon, so the order is counter-clockwise seen from the tip of `normal`.
void orderCounterClockwise(std::vector<int>& polygon, const Vector3d& normal,
                           const std::vector<Vector3d>& vertices) {
  Vector3d centre = Vector3d::Zero();
  for (int v : polygon) centre += vertices[v];
  centre /= static_cast<double>(polygon.size());
  const Vector3d u = normal.unitOrthogonal();
  const Vector3d w = normal.cross(u);
  std::vector<std::pair<double, int>> byAngle;
  byAngle.reserve(polygon.size());
  for (int v : polygon) {
    const Vector3d d = vertices[v] - centre;
    byAngle.emplace_back(portable::atan2(d.dot(w), d.dot(u)), v);
  }
  std::sort(byAngle.begin(), byAngle.end());
  for (std::size_t i = 0; i < polygon.size(); ++i) polygon[i] = byAngle[i].second;
}

}  // namespace

ConvexHull ConvexHull::build(std::span<const Eigen::Vector3d> points, double tolerance) {
  if (!(tolerance >= 0.0 && std::isfinite(tolerance))) {
    fail("the tolerance must be finite and >= 0, got " + std::to_string(tolerance));
  }
  Vector3d centroid;
  checkInput(points, centroid);
  std::vector<PolytopeFace> facets = qhullFacets(points, centroid, "ConvexHull::build", tolerance);

  // Keep only the points Qhull used as vertices, in input order, and renumber them.
  std::vector<Vector3d> vertices;
  std::vector<int> vertexOf(points.size(), -1);
  for (const PolytopeFace& f : facets) {
    for (int i : f.vertices) vertexOf[i] = 0;
  }
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (vertexOf[i] == 0) {
      vertexOf[i] = static_cast<int>(vertices.size());
      vertices.push_back(points[i]);
    }
  }
  if (vertices.size() < 4 || facets.size() < 4) {
    fail("Qhull returned a degenerate hull (" + std::to_string(vertices.size()) + " vertices, " +
         std::to_string(facets.size()) + " faces)");
  }
  for (PolytopeFace& f : facets) {
    if (f.vertices.size() < 3) fail("Qhull returned a facet with fewer than 3 vertices");
    for (int& v : f.vertices) v = vertexOf[v];
  }
  return fromFaces(std::move(vertices), std::move(facets));
}

ConvexHull ConvexHull::fromFaces(std::vector<Eigen::Vector3d> vertices,
                                 std::vector<PolytopeFace> faces) {
  const auto failFaces = [](const std::string& what) {
    throw HullError("ConvexHull::fromFaces: " + what);
  };
  const int count = static_cast<int>(vertices.size());
  if (count < 4 || faces.size() < 4) {
    failFaces("needs at least 4 vertices and 4 faces, got " + std::to_string(count) + " and " +
              std::to_string(faces.size()));
  }
  std::vector<char> used(count, 0);
  for (std::size_t k = 0; k < faces.size(); ++k) {
    const PolytopeFace& f = faces[k];
    if (f.vertices.size() < 3)
      failFaces("face " + std::to_string(k) + " has fewer than 3 vertices");
    if (!f.normal.allFinite()) failFaces("face " + std::to_string(k) + " has a non-finite normal");
    for (const int v : f.vertices) {
      if (v < 0 || v >= count)
        failFaces("face " + std::to_string(k) + ": vertex index out of range");
      used[v] = 1;
    }
  }
  for (int v = 0; v < count; ++v) {
    if (!used[v]) failFaces("vertex " + std::to_string(v) + " is on no face");
    if (!vertices[v].allFinite()) failFaces("vertex " + std::to_string(v) + " is not finite");
  }

  ConvexHull hull;
  hull.vertices_ = std::move(vertices);
  hull.faceStart_.reserve(faces.size() + 1);
  hull.faceStart_.push_back(0);
  std::vector<std::pair<int, int>> edges;  // both directions of every polygon edge
  for (PolytopeFace& f : faces) {
    std::vector<int>& polygon = f.vertices;
    orderCounterClockwise(polygon, f.normal, hull.vertices_);

    // The offset puts the plane through the face's outermost vertex, so every vertex (and every
    // input point, up to Qhull's round-off and build's tolerance) satisfies n . x <= offset.
    double offset = -std::numeric_limits<double>::infinity();
    for (int v : polygon) offset = std::max(offset, f.normal.dot(hull.vertices_[v]));
    hull.faceNormals_.push_back(f.normal);
    hull.faceOffsets_.push_back(offset);
    hull.faceVertices_.insert(hull.faceVertices_.end(), polygon.begin(), polygon.end());
    hull.faceStart_.push_back(static_cast<int>(hull.faceVertices_.size()));

    for (std::size_t i = 0; i < polygon.size(); ++i) {
      const int a = polygon[i];
      const int b = polygon[(i + 1) % polygon.size()];
      edges.emplace_back(a, b);
      edges.emplace_back(b, a);
    }
  }

  // Each hull edge appears once in each of its two faces: sort and deduplicate, then pack the
  // neighbour lists in CSR form.
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  const int numVertices = hull.numVertices();
  hull.adjacencyStart_.assign(numVertices + 1, 0);
  for (const auto& [a, b] : edges) ++hull.adjacencyStart_[a + 1];
  for (int v = 0; v < numVertices; ++v) hull.adjacencyStart_[v + 1] += hull.adjacencyStart_[v];
  hull.adjacency_.reserve(edges.size());
  for (const auto& [a, b] : edges) hull.adjacency_.push_back(b);  // already grouped by a

  Vector3d mean = Vector3d::Zero();
  for (const Vector3d& v : hull.vertices_) mean += v;
  hull.interiorPoint_ = mean / static_cast<double>(numVertices);
  hull.measureInnerBall();
  hull.buildDirectionTable();
  return hull;
}

// The hull is the union of the cones from the interior point over its faces, each face a fan
// of triangles: the centroid is the volume-weighted mean of those tetrahedra's centroids.
void ConvexHull::measureInnerBall() {
  const Vector3d& o = interiorPoint_;
  double volume = 0.0;
  Vector3d moment = Vector3d::Zero();
  for (int f = 0; f < numFaces(); ++f) {
    const std::span<const int> polygon = face(f);
    const Vector3d& a = vertices_[polygon[0]];
    for (std::size_t i = 1; i + 1 < polygon.size(); ++i) {
      const Vector3d& b = vertices_[polygon[i]];
      const Vector3d& c = vertices_[polygon[i + 1]];
      const double v = (a - o).dot((b - o).cross(c - o)) / 6.0;
      volume += v;
      moment += v * (o + a + b + c) / 4.0;
    }
  }
  centroid_ = volume > 0.0 ? Vector3d(moment / volume) : o;
  innerRadius_ = std::numeric_limits<double>::infinity();
  for (int f = 0; f < numFaces(); ++f) {
    innerRadius_ = std::min(innerRadius_, faceOffsets_[f] - faceNormals_[f].dot(centroid_));
  }
}

// Cell (face, i, j) of the cube of directions: face 2a (+) or 2a + 1 (-) is the one where axis a
// has the largest magnitude, i and j index the two other coordinates divided by it, in [-1, 1].
// Each cell stores the support of its centre direction, so a climb started there is at most a
// few edges from the answer. A cell is exact when that vertex beats each of its neighbours at
// the cell's four corners by a margin far above rounding: the cell is the cone spanned by its
// corners and the vertex's normal cone is convex, so the vertex is then the support of every
// direction in the cell, and no neighbour can look better in floating point either.
void ConvexHull::buildDirectionTable() {
  // About 54 cells per vertex, up to 64 x 64 cells per face (96 KB); on the largest hulls most
  // cells then need a short climb (docs/design.md).
  const int n = std::clamp(3 * static_cast<int>(std::ceil(std::sqrt(numVertices()))), 8, 64);
  constexpr double kExactMargin = 1e-9;  // relative to |v| + |u|; rounding is ~1e-16
  directionCells_ = n;
  directionTable_.assign(6 * n * n, 0);
  const auto direction = [n](int face, double i, double j) {
    const int a = face / 2;
    Vector3d dir;
    dir[a] = face % 2 == 0 ? 1.0 : -1.0;
    dir[(a + 1) % 3] = -1.0 + i * 2.0 / n;
    dir[(a + 2) % 3] = -1.0 + j * 2.0 / n;
    return dir;
  };
  int previous = -1;
  for (int face = 0; face < 6; ++face) {
    for (int i = 0; i < n; ++i) {
      for (int jj = 0; jj < n; ++jj) {
        const int j = (i % 2 == 0) ? jj : n - 1 - jj;  // serpentine: neighbouring cells in turn
        const Vector3d dir = direction(face, i + 0.5, j + 0.5);
        const int v = previous < 0 ? supportVertexScan(dir)
                                   : climbFrom(dir, previous, dir.dot(vertices_[previous]));
        previous = v;
        bool exact = true;
        for (int corner = 0; corner < 4 && exact; ++corner) {
          const Vector3d c = direction(face, i + corner % 2, j + corner / 2).normalized();
          for (const int u : neighbours(v)) {
            const double margin = kExactMargin * (vertices_[v].norm() + vertices_[u].norm());
            if (!(c.dot(vertices_[v] - vertices_[u]) > margin)) {
              exact = false;
              break;
            }
          }
        }
        directionTable_[(face * n + i) * n + j] = 2 * v + (exact ? 1 : 0);
      }
    }
  }
}

int ConvexHull::supportVertexScan(const Eigen::Vector3d& dir) const {
  const Vector3d* v = vertices_.data();
  const int n = numVertices();
  int best = n > 0 ? 0 : -1;
  double bestDot = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < n; ++i) {
    const double d = dir.dot(v[i]);
    if (d > bestDot) {
      bestDot = d;
      best = i;
    }
  }
  return best;
}

int ConvexHull::directionCell(const Eigen::Vector3d& dir) const {
  const int n = directionCells_;
  const double half = 0.5 * n;
  int a = 0;
  double m = std::abs(dir.x());
  if (std::abs(dir.y()) > m) {
    a = 1;
    m = std::abs(dir.y());
  }
  if (std::abs(dir.z()) > m) {
    a = 2;
    m = std::abs(dir.z());
  }
  if (!(m > 0.0)) return -1;  // zero, or NaN along the first axis
  const double scale = half / m;
  // Coordinates in [0, n] (up to rounding); n itself and NaN go to the last cell.
  const double u = dir[a == 2 ? 0 : a + 1] * scale + half;
  const double w = dir[a == 0 ? 2 : a - 1] * scale + half;
  const int i = u < n ? static_cast<int>(u) : n - 1;
  const int j = w < n ? static_cast<int>(w) : n - 1;
  const int face = 2 * a + (dir[a] < 0.0 ? 1 : 0);
  return (face * n + i) * n + j;
}

int ConvexHull::tableVertex(const Eigen::Vector3d& dir) const {
  const int cell = directionCell(dir);
  return cell < 0 ? -1 : directionTable_[cell] >> 1;
}

// On a convex polytope a vertex with no strictly better neighbour along the hull edges is a
// global maximiser of a linear function, so steepest ascent over the edge graph is exact. Each
// move strictly increases dir . v, so no vertex is visited twice and the loop terminates even
// with ties, a zero direction or NaN (which never compares greater).
int ConvexHull::climbFrom(const Eigen::Vector3d& dir, int current, double currentDot) const {
  const Vector3d* v = vertices_.data();
  const int* start = adjacencyStart_.data();
  const int* adjacency = adjacency_.data();
  for (;;) {
    int next = current;
    double nextDot = currentDot;
    for (int k = start[current], end = start[current + 1]; k < end; ++k) {
      const int j = adjacency[k];
      const double d = dir.dot(v[j]);
      if (d > nextDot) {
        nextDot = d;
        next = j;
      }
    }
    if (next == current) return current;
    current = next;
    currentDot = nextDot;
  }
}

int ConvexHull::supportVertexClimb(const Eigen::Vector3d& dir, int hint) const {
  const int n = numVertices();
  if (n == 0) return -1;
  const Vector3d* v = vertices_.data();
  const int cell = directionCell(dir);
  if (cell < 0) {
    const int start = hint >= 0 && hint < n ? hint : 0;
    return climbFrom(dir, start, dir.dot(v[start]));
  }
  const int entry = directionTable_[cell];
  const int start = entry >> 1;
  if (entry & 1) return start;  // the unique support: no vertex ties with it
  const int best = climbFrom(dir, start, dir.dot(v[start]));
  // Between maximisers that tie, the hint wins: successive GJK iterations then return a support
  // already in the simplex, which stops them, rather than a different but equal one.
  if (hint >= 0 && hint < n && hint != best && dir.dot(v[hint]) >= dir.dot(v[best])) return hint;
  return best;
}

int ConvexHull::supportVertex(const Eigen::Vector3d& dir, int& hint) const {
  hint = numVertices() < defaults::kHullScanThreshold ? supportVertexScan(dir)
                                                      : supportVertexClimb(dir, hint);
  return hint;
}

int ConvexHull::mostAlignedFace(const Eigen::Vector3d& dir) const {
  int best = numFaces() > 0 ? 0 : -1;
  double bestDot = -std::numeric_limits<double>::infinity();
  for (int f = 0; f < numFaces(); ++f) {
    const double d = dir.dot(faceNormals_[f]);
    if (d > bestDot) {
      bestDot = d;
      best = f;
    }
  }
  return best;
}

}  // namespace hb
