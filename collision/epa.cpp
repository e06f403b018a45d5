// Expanding Polytope Algorithm (van den Bergen, "Proximity queries and penetration depth
// computation on 3D game objects", GDC 2001; also van den Bergen, "Collision Detection in
// Interactive 3D Environments", 2004, Sec. 4.3.6).
//
// The polytope P lives inside the full Minkowski difference D = A - B and contains the origin.
// Each iteration takes the face of P closest to the origin, asks D for its support point along
// that face's normal, and stops when the support gains less than the tolerance over the face:
// then the face's plane is (within tolerance) a supporting plane of D and its distance is the
// penetration depth. Otherwise the faces the new point sees are removed and the hole is closed
// by a fan of faces from the new point to the horizon.
//
// Cores and radii: GJK's simplex holds support points of the cores. They lie inside the full
// difference (D_core is contained in D_full), so they are valid starting vertices; every new
// vertex comes from supportFull. Core vertices end up strictly inside P as soon as it expands
// past them, and a converged closest face lies within the tolerance of D_full's boundary, so no
// core vertex can remain on it unless the radii are below the tolerance. Keeping GJK's points
// (rather than re-evaluating supports along their directions) preserves the property that makes
// EPA work at all: their hull contains the origin.
// With EpaOptions::onCores the polytope grows inside the core difference instead; the caller
// then adds the convex radii (the depth of D_core inflated by r is that of D_core plus r).

#include "collision/epa.hpp"
#include "collision/portable_math.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>

namespace hb {
namespace {

using Eigen::Vector3d;

constexpr int kMaxVertices = defaults::kEpaMaxVertices;
constexpr int kMaxFaces = defaults::kEpaMaxFaces;
// Geometric tests are relative to the size of the polytope: vertices closer than this fraction
// of it to a line or plane count as lying on it.
constexpr double kRelativeEpsilon = 1e-10;
// A triangle whose edges make a smaller sine than this has no reliable normal.
constexpr double kSliverSine = 1e-12;

// A face's plane. No default initialisers: the fixed arrays below are filled as they are used,
// and constructing a few hundred of them per query would cost more than the algorithm.
struct FacePlane {
  Vector3d n;     // outward unit normal
  double d;       // signed distance of the plane from the origin
  bool internal;  // the origin projects inside the triangle
};

struct Face {
  std::array<int, 3> v;    // vertex indices, counter-clockwise seen from outside
  std::array<int, 3> adj;  // adj[k]: the face across edge (v[k], v[k+1])
  FacePlane plane;
  bool alive;  // set when the slot is used; slots past numFaceSlots_ are never read
};

struct HorizonEdge {
  int from;
  int to;
  int outer;  // the face beyond the edge that stays
};

// Plane of triangle (a, b, c): outward unit normal, distance from the origin, and whether the
// origin projects inside it. False for slivers, whose normal is unreliable.
bool planeOf(const Vector3d& a, const Vector3d& b, const Vector3d& c, FacePlane& plane) {
  const Vector3d e1 = b - a;
  const Vector3d e2 = c - a;
  const Vector3d cross = e1.cross(e2);
  const double len = cross.norm();
  if (!(len > kSliverSine * e1.norm() * e2.norm()) || !std::isfinite(len)) return false;
  const Vector3d n = cross / len;
  plane.n = n;
  // Averaging the three vertices keeps d consistent whichever vertex rounding favours.
  plane.d = n.dot(a + b + c) / 3.0;
  // Signed areas of the projection p = d n with each edge, relative to the triangle's.
  const Vector3d p = plane.d * n;
  const double slack = -1e-9 * len;
  plane.internal = n.dot((b - a).cross(p - a)) >= slack && n.dot((c - b).cross(p - b)) >= slack &&
                   n.dot((a - c).cross(p - c)) >= slack;
  return true;
}

// Barycentric weights of the point of triangle (a, b, c) closest to p (Ericson, "Real-Time
// Collision Detection", Sec. 5.1.5): inside the triangle they are the projection's; outside,
// the closest edge or vertex's, so witnesses stay on the polytope's surface.
std::array<double, 3> closestPointWeights(const Vector3d& a, const Vector3d& b, const Vector3d& c,
                                          const Vector3d& p) {
  const Vector3d ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0.0 && d2 <= 0.0) return {1.0, 0.0, 0.0};
  const Vector3d bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0.0 && d4 <= d3) return {0.0, 1.0, 0.0};
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
    const double t = d1 / (d1 - d3);
    return {1.0 - t, t, 0.0};
  }
  const Vector3d cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0.0 && d5 <= d6) return {0.0, 0.0, 1.0};
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
    const double t = d2 / (d2 - d6);
    return {1.0 - t, 0.0, t};
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {
    const double t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return {0.0, 1.0 - t, t};
  }
  const double sum = va + vb + vc;
  if (!(sum > 0.0)) return {1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0};
  return {va / sum, vb / sum, vc / sum};
}

// Distance of p from the line through a with unit direction u.
double distanceToLine(const Vector3d& p, const Vector3d& a, const Vector3d& u) {
  const Vector3d r = p - a;
  return (r - r.dot(u) * u).norm();
}

// A unit vector perpendicular to the unit vector u.
Vector3d perpendicular(const Vector3d& u) {
  const Vector3d axis = std::abs(u.x()) < 0.57735 ? Vector3d::UnitX() : Vector3d::UnitY();
  return u.cross(axis).normalized();
}

class Polytope {
 public:
  Polytope(const MinkowskiDifference& difference, SupportHints& hints, bool onCores)
      : difference_(difference), hints_(hints), onCores_(onCores) {}

  // Takes GJK's points (keeping only those that raise the affine dimension), then adds supports
  // of D until there are four affinely independent vertices.
  bool buildTetrahedron(const Simplex& simplex);
  // The classic loop. Returns how it ended, the iterations run and the face that answers (the
  // closest one when it ended; -1 if there is none).
  EpaStatus expand(const EpaOptions& options, int& iterations, int& closest);

  const Face& face(int f) const { return faces_[f]; }
  const SupportPoint& vertex(int i) const { return vertices_[i]; }

 private:
  bool tryAdd(const SupportPoint& p);
  double offsetFromHull(const Vector3d& w) const;
  bool initialFaces();
  int closestFace() const;
  enum class Step { Expanded, Full, Failed };
  Step addVertex(int visibleFrom, const SupportPoint& s);
  // Below this gain a point counts as lying on a face's plane (rounding at the problem's scale).
  double visibilityEpsilon() const { return kRelativeEpsilon * scale_; }
  bool isVisible(int f, const Vector3d& w) const {
    return faces_[f].plane.n.dot(w) - faces_[f].plane.d > visibilityEpsilon();
  }

  SupportPoint support(const Vector3d& dir) const {
    return onCores_ ? difference_.supportCore(dir, hints_) : difference_.supportFull(dir, hints_);
  }

  const MinkowskiDifference& difference_;
  SupportHints& hints_;
  bool onCores_;
  std::array<SupportPoint, kMaxVertices> vertices_;
  int numVertices_ = 0;
  std::array<Face, kMaxFaces> faces_;
  int numFaceSlots_ = 0;  // slots ever used; dead ones are recycled through freeFaces_
  int numAlive_ = 0;
  std::array<int, kMaxFaces> freeFaces_;  // the first numFree_ are valid
  int numFree_ = 0;
  double scale_ = 0.0;  // largest |w| seen: the size of the problem
};

double Polytope::offsetFromHull(const Vector3d& w) const {
  const Vector3d& p0 = vertices_[0].w;
  switch (numVertices_) {
    case 0:
      return std::numeric_limits<double>::infinity();
    case 1:
      return (w - p0).norm();
    case 2:
      return distanceToLine(w, p0, (vertices_[1].w - p0).normalized());
    default: {
      const Vector3d n = (vertices_[1].w - p0).cross(vertices_[2].w - p0).normalized();
      return std::abs(n.dot(w - p0));
    }
  }
}

bool Polytope::tryAdd(const SupportPoint& p) {
  if (!p.w.allFinite() || !p.a.allFinite() || !p.b.allFinite()) return false;
  const double scale = std::max(scale_, p.w.norm());
  if (numVertices_ > 0 && !(offsetFromHull(p.w) > kRelativeEpsilon * scale)) return false;
  vertices_[numVertices_++] = p;
  scale_ = scale;
  return true;
}

bool Polytope::buildTetrahedron(const Simplex& simplex) {
  for (int i = 0; i < simplex.size && i < 4 && numVertices_ < 4; ++i) tryAdd(simplex.points[i]);
  if (numVertices_ == 0 && !tryAdd(support(Vector3d::UnitX()))) {
    return false;
  }
  // Grow by the support point that lies furthest from the current affine hull, trying a few
  // directions: D is a solid, so one of them always leaves a point, line or plane.
  while (numVertices_ < 4) {
    std::array<Vector3d, 6> dirs;
    int numDirs = 0;
    if (numVertices_ == 1) {
      for (int axis = 0; axis < 3; ++axis) {
        dirs[numDirs++] = Vector3d::Unit(axis);
        dirs[numDirs++] = -Vector3d::Unit(axis);
      }
    } else if (numVertices_ == 2) {
      // Six directions 60 degrees apart around the segment.
      const Vector3d e = (vertices_[1].w - vertices_[0].w).normalized();
      const Vector3d u = perpendicular(e);
      const Vector3d v = e.cross(u);
      for (int k = 0; k < 6; ++k) {
        const double angle = k * (std::numbers::pi / 3.0);
        dirs[numDirs++] = portable::cos(angle) * u + portable::sin(angle) * v;
      }
    } else {
      // The triangle's normal, towards the origin first so that the tetrahedron encloses it.
      const Vector3d& p0 = vertices_[0].w;
      Vector3d n = (vertices_[1].w - p0).cross(vertices_[2].w - p0).normalized();
      if (n.dot(p0) > 0.0) n = -n;
      dirs[numDirs++] = n;
      dirs[numDirs++] = -n;
    }
    SupportPoint best{Vector3d::Zero(), Vector3d::Zero(), Vector3d::Zero()};
    double bestOffset = -1.0;
    for (int k = 0; k < numDirs; ++k) {
      const SupportPoint s = support(dirs[k]);
      if (!s.w.allFinite()) return false;
      const double offset = offsetFromHull(s.w);
      // With the origin off the triangle's plane, the first side is the one that encloses it.
      if (numVertices_ == 3 && offset > kRelativeEpsilon * std::max(scale_, s.w.norm())) {
        best = s;
        break;
      }
      if (offset > bestOffset) {
        bestOffset = offset;
        best = s;
      }
    }
    if (!tryAdd(best)) return false;
  }
  return initialFaces();
}

bool Polytope::initialFaces() {
  // Order the vertices so that vertex 3 lies behind face (0, 1, 2); the four faces below are
  // then all counter-clockwise from outside.
  const Vector3d& p0 = vertices_[0].w;
  if ((vertices_[1].w - p0).cross(vertices_[2].w - p0).dot(vertices_[3].w - p0) > 0.0) {
    std::swap(vertices_[1], vertices_[2]);
  }
  static constexpr int kTetra[4][3] = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
  for (int f = 0; f < 4; ++f) {
    Face& face = faces_[f];
    face.v = {kTetra[f][0], kTetra[f][1], kTetra[f][2]};
    if (!planeOf(vertices_[face.v[0]].w, vertices_[face.v[1]].w, vertices_[face.v[2]].w,
                 face.plane)) {
      return false;
    }
    face.alive = true;
  }
  // Each directed edge (i, j) of one face is (j, i) in exactly one other.
  for (int f = 0; f < 4; ++f) {
    for (int k = 0; k < 3; ++k) {
      const int i = faces_[f].v[k], j = faces_[f].v[(k + 1) % 3];
      for (int g = 0; g < 4; ++g) {
        for (int m = 0; m < 3; ++m) {
          if (faces_[g].v[m] == j && faces_[g].v[(m + 1) % 3] == i) faces_[f].adj[k] = g;
        }
      }
    }
  }
  numFaceSlots_ = 4;
  numAlive_ = 4;
  return true;
}

// Linear scan: with at most a few hundred faces it beats maintaining a heap. The minimum signed
// distance is the closest face when the origin is inside P; when rounding (or a touching contact)
// leaves the origin just outside, it is the face the origin is furthest in front of, and
// expanding along its normal either swallows the origin or proves it lies outside D.
// Coplanar triangles (a face of a box or hull split in several) tie up to rounding; among them
// the one the origin projects into is preferred, so the witness points come out exact.
int Polytope::closestFace() const {
  int best = -1;
  for (int f = 0; f < numFaceSlots_; ++f) {
    if (faces_[f].alive && (best < 0 || faces_[f].plane.d < faces_[best].plane.d)) best = f;
  }
  if (best < 0 || faces_[best].plane.internal) return best;
  const double tie = faces_[best].plane.d + visibilityEpsilon();
  for (int f = 0; f < numFaceSlots_; ++f) {
    const Face& face = faces_[f];
    if (face.alive && face.plane.internal && face.plane.d <= tie) return f;
  }
  return best;
}

Polytope::Step Polytope::addVertex(int visibleFrom, const SupportPoint& s) {
  if (numVertices_ >= kMaxVertices) return Step::Full;
  const Vector3d& w = s.w;

  // Faces seen from w, by flood fill from the closest face (which w sees): keeping the removed
  // region connected keeps the surface a closed 2-manifold. The horizon is every edge between a
  // visible face and a face that stays.
  std::array<int, kMaxFaces> stack;
  std::array<int, kMaxFaces> visible;
  std::array<bool, kMaxFaces> marked{};
  std::array<HorizonEdge, kMaxFaces> horizon;
  int stackSize = 0, numVisible = 0, numHorizon = 0;
  stack[stackSize++] = visibleFrom;
  marked[visibleFrom] = true;
  while (stackSize > 0) {
    const int f = stack[--stackSize];
    visible[numVisible++] = f;
    for (int k = 0; k < 3; ++k) {
      const int g = faces_[f].adj[k];
      if (marked[g]) continue;
      if (isVisible(g, w)) {
        marked[g] = true;
        stack[stackSize++] = g;
      } else {
        if (numHorizon >= kMaxFaces) return Step::Full;
        horizon[numHorizon++] = {faces_[f].v[k], faces_[f].v[(k + 1) % 3], g};
      }
    }
  }
  if (numAlive_ - numVisible + numHorizon > kMaxFaces) return Step::Full;

  // Validate the new fan before touching the polytope: every new face needs a normal, and each
  // horizon vertex must start exactly one horizon edge so that the fan closes up.
  std::array<FacePlane, kMaxFaces> planes;
  std::array<int, kMaxFaces> next;  // next[i]: the horizon edge starting where edge i ends
  for (int i = 0; i < numHorizon; ++i) {
    const HorizonEdge& e = horizon[i];
    if (!planeOf(vertices_[e.from].w, vertices_[e.to].w, w, planes[i])) {
      return Step::Failed;
    }
    next[i] = -1;
    for (int j = 0; j < numHorizon; ++j) {
      if (horizon[j].from != e.to) continue;
      if (next[i] >= 0) return Step::Failed;
      next[i] = j;
    }
    if (next[i] < 0) return Step::Failed;
  }

  // Commit: recycle the visible faces' slots, then stitch the fan to the horizon and to itself.
  for (int i = 0; i < numVisible; ++i) {
    faces_[visible[i]].alive = false;
    freeFaces_[numFree_++] = visible[i];
  }
  numAlive_ -= numVisible;
  const int newVertex = numVertices_;
  vertices_[numVertices_++] = s;
  scale_ = std::max(scale_, w.norm());
  std::array<int, kMaxFaces> created;
  for (int i = 0; i < numHorizon; ++i) {
    created[i] = numFree_ > 0 ? freeFaces_[--numFree_] : numFaceSlots_++;
    Face& face = faces_[created[i]];
    face.v = {horizon[i].from, horizon[i].to, newVertex};
    face.plane = planes[i];
    face.alive = true;
    ++numAlive_;
  }
  for (int i = 0; i < numHorizon; ++i) {
    Face& face = faces_[created[i]];
    const HorizonEdge& e = horizon[i];
    face.adj[0] = e.outer;
    face.adj[1] = created[next[i]];  // edge (to, w) is edge (w, to) of the next fan face
    Face& outer = faces_[e.outer];
    for (int m = 0; m < 3; ++m) {
      if (outer.v[m] == e.to && outer.v[(m + 1) % 3] == e.from) outer.adj[m] = created[i];
    }
    faces_[created[next[i]]].adj[2] = created[i];
  }
  return Step::Expanded;
}

EpaStatus Polytope::expand(const EpaOptions& options, int& iterations, int& closest) {
  const double requested = std::isfinite(options.tolerance) ? options.tolerance : 0.0;
  iterations = 0;
  for (;;) {
    closest = closestFace();
    if (closest < 0) return EpaStatus::Degenerate;
    if (iterations >= options.maxIterations) return EpaStatus::MaxIterations;
    ++iterations;
    const FacePlane& plane = faces_[closest].plane;
    const SupportPoint s = support(plane.n);
    if (!s.w.allFinite() || !s.a.allFinite() || !s.b.allFinite()) return EpaStatus::Degenerate;
    // Gain = support value minus the face's distance: how far D reaches beyond the face. It
    // cannot usefully go below what rounding resolves at this scale (and the closest face must
    // be visible from s for the expansion to make progress).
    if (plane.n.dot(s.w) - plane.d <= std::max(requested, visibilityEpsilon())) {
      return EpaStatus::Converged;
    }
    switch (addVertex(closest, s)) {
      case Step::Expanded:
        break;
      case Step::Full:
        return EpaStatus::PolytopeFull;
      case Step::Failed:
        return EpaStatus::Degenerate;
    }
  }
}

}  // namespace

std::string_view toString(EpaStatus s) {
  switch (s) {
    case EpaStatus::Converged:
      return "converged";
    case EpaStatus::MaxIterations:
      return "max_iterations";
    case EpaStatus::PolytopeFull:
      return "polytope_full";
    case EpaStatus::Degenerate:
      return "degenerate";
  }
  return "unknown";
}

EpaResult epa(const MinkowskiDifference& difference, const Simplex& gjkSimplex,
              const EpaOptions& options, SupportHints& hints) {
  EpaResult result;
  const Pose& poseA = difference.poseA();

  // Fallback: no depth, the direction GJK's simplex suggests (against its closest point, which
  // points from B to A), GJK's witnesses.
  Vector3d x = Vector3d::Zero(), wa = Vector3d::Zero(), wb = Vector3d::Zero();
  for (int i = 0; i < gjkSimplex.size && i < 4; ++i) {
    x += gjkSimplex.weights[i] * gjkSimplex.points[i].w;
    wa += gjkSimplex.weights[i] * gjkSimplex.points[i].a;
    wb += gjkSimplex.weights[i] * gjkSimplex.points[i].b;
  }
  const double xn = x.norm();
  const Vector3d fallbackNormal =
      xn > 0.0 && std::isfinite(xn) ? Vector3d(-x / xn) : Vector3d(Vector3d::UnitX());
  result.normal = poseA.q * fallbackNormal;
  if (wa.allFinite() && wb.allFinite()) {
    result.witnessA = poseA.apply(wa);
    result.witnessB = poseA.apply(wb);
  }
  if (!poseA.isValid() || !result.normal.allFinite()) {
    result.normal = Vector3d::UnitX();
    result.witnessA.setZero();
    result.witnessB.setZero();
    return result;
  }

  // The polytope is large (a few tens of kilobytes) but lives on the stack: no heap per query.
  Polytope polytope(difference, hints, options.onCores);
  if (!polytope.buildTetrahedron(gjkSimplex)) return result;
  int closest = -1;
  const EpaStatus status = polytope.expand(options, result.iterations, closest);
  // A numerical failure mid-expansion keeps the fallback, as documented for Degenerate.
  if (status == EpaStatus::Degenerate || closest < 0) return result;
  result.status = status;

  // The answer is the closest face: its distance is the depth, and the origin's projection on it,
  // in barycentric coordinates, gives the witness points on A and on B. On a cap (MaxIterations,
  // PolytopeFull) the distance is a lower bound of the depth. A face just in front of the origin
  // (negative distance: GJK stopped within eps_col of touching and the origin is outside D)
  // means touching: depth 0, and the witnesses keep their gap, witnessA - witnessB = -gap n.
  const Face& face = polytope.face(closest);
  const FacePlane& plane = face.plane;
  const SupportPoint& p0 = polytope.vertex(face.v[0]);
  const SupportPoint& p1 = polytope.vertex(face.v[1]);
  const SupportPoint& p2 = polytope.vertex(face.v[2]);
  const std::array<double, 3> lambda = closestPointWeights(p0.w, p1.w, p2.w, plane.d * plane.n);
  Vector3d a = lambda[0] * p0.a + lambda[1] * p1.a + lambda[2] * p2.a;
  Vector3d b = lambda[0] * p0.b + lambda[1] * p1.b + lambda[2] * p2.b;
  // a - b should be the origin's projection d n. On a sliver face (boxes of aspect ratio 1e6)
  // rounding can put the projection outside the triangle, and the nearest edge's weights then
  // give witnesses metres off it: split the difference between them, so that witnessA -
  // witnessB = -distance n holds whatever the face's shape.
  const Vector3d offset = plane.d * plane.n - (a - b);
  if (offset.norm() > 1e-12 * (a.norm() + b.norm() + std::abs(plane.d))) {
    a += 0.5 * offset;
    b -= 0.5 * offset;
  }
  result.depth = std::max(0.0, plane.d);
  result.normal = (poseA.q * plane.n).normalized();
  result.witnessA = poseA.apply(a);
  result.witnessB = poseA.apply(b);
  return result;
}

}  // namespace hb
