// Contact manifold by feature clipping (Ericson, "Real-Time Collision Detection", Sec. 8.3.2 on
// polygon clipping; the reference/incident face scheme of box-box contact generation).
//
//  1. The support feature of each shape along the normal (A along +n, B along -n), in world
//     coordinates: a face polygon, an edge segment, or just a point.
//  2. The more aligned of the faces is the reference; the other feature (the incident one) is
//     clipped against the reference face's side planes, taken along n (Sutherland–Hodgman).
//  3. Every surviving incident point gets its depth along n below the reference plane; points
//     deeper than -margin are kept, with their projection along n on the reference face as the
//     partner. Two nearly parallel segments give the ends of their overlap instead.
//  4. At most four points survive: the deepest, the one furthest from it, then the two that
//     span the largest area.
// Point features, crossing edges or an empty clip give the narrow phase's witness pair.
// Every point satisfies pointA - pointB = depth * normal.
// Boxes and hulls rounded by a convex radius are clipped with their own (outer) faces: those
// are the rounded shape's flat faces, and their vertex patches are a quarter of the core's.
// Edges and corners then count as sharp, so a point there may be deeper than the narrow phase's
// rounded distance by the rounding (at most r (sqrt(3) - 1) at a box corner).

#include "collision/contact_manifold.hpp"
#include "collision/portable_math.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

namespace hb {
namespace {

using Eigen::Vector3d;

// A face counts as the support feature when its normal is within ~18 degrees of the direction,
// an edge when it is within ~18 degrees of perpendicular to it. Any face of a shape is part of
// its surface, so a loose threshold only adds candidates that the depth test then filters; it
// keeps a resting box's four points through small rocking, and gives speculative points at the
// raised side of a slightly tilted box.
constexpr double kFaceCosine = 0.95;
constexpr double kEdgeSine = 0.31224989991991992;  // sqrt(1 - kFaceCosine^2)
// Disks (cylinder caps, cone bases) become inscribed polygons with this many vertices.
constexpr int kDiskPoints = 12;
// Hull faces with more vertices are subsampled (the result is an inscribed polygon).
constexpr int kMaxFeaturePoints = 64;
// Clipping a convex n-gon by m half-planes leaves at most n + m vertices.
constexpr int kMaxClipPoints = 2 * kMaxFeaturePoints;
constexpr int kMaxPoints = defaults::kMaxManifoldPoints;

struct Feature {
  // size 1: a point (no usable feature), 2: a segment, >= 3: a convex polygon counter-clockwise
  // about `normal`, its outward unit normal.
  std::array<Vector3d, kMaxFeaturePoints> points;
  int size = 0;
  Vector3d normal = Vector3d::Zero();
  double alignment = -1.0;  // polygon normal . direction
};

void setPoint(Feature& f, const Vector3d& p) {
  f.points[0] = p;
  f.size = 1;
}

void setSegment(Feature& f, const Vector3d& p, const Vector3d& q) {
  f.points[0] = p;
  f.points[1] = q;
  f.size = 2;
}

// Disk of radius r at height z (local frame), counter-clockwise about sign(zNormal) * z.
void setDisk(Feature& f, double r, double z, double zNormal, const Vector3d& d) {
  const double orientation = zNormal > 0.0 ? 1.0 : -1.0;
  for (int k = 0; k < kDiskPoints; ++k) {
    const double angle = orientation * 2.0 * std::numbers::pi * k / kDiskPoints;
    f.points[k] = {r * portable::cos(angle), r * portable::sin(angle), z};
  }
  f.size = kDiskPoints;
  f.normal = {0.0, 0.0, orientation};
  f.alignment = f.normal.dot(d);
}

void boxFeature(const Shape& s, const Vector3d& d, Feature& f) {
  const Vector3d& h = s.halfExtents();
  const Vector3d sign(d.x() < 0.0 ? -1.0 : 1.0, d.y() < 0.0 ? -1.0 : 1.0, d.z() < 0.0 ? -1.0 : 1.0);
  int i = 0, k = 0;
  d.cwiseAbs().maxCoeff(&i);
  d.cwiseAbs().minCoeff(&k);
  if (std::abs(d[i]) >= kFaceCosine) {
    // Face of axis i; (j, m, i) is right-handed, so this order is counter-clockwise about +i.
    const int j = (i + 1) % 3, m = (i + 2) % 3;
    static constexpr double kCorner[4][2] = {{1, 1}, {-1, 1}, {-1, -1}, {1, -1}};
    for (int c = 0; c < 4; ++c) {
      const int slot = sign[i] > 0.0 ? c : 3 - c;
      Vector3d p;
      p[i] = sign[i] * h[i];
      p[j] = kCorner[c][0] * h[j];
      p[m] = kCorner[c][1] * h[m];
      f.points[slot] = p;
    }
    f.size = 4;
    f.normal = sign[i] * Vector3d::Unit(i);
    f.alignment = std::abs(d[i]);
  } else if (std::abs(d[k]) <= kEdgeSine) {
    // Edge along axis k: the other two coordinates at their supporting corner.
    Vector3d p = sign.cwiseProduct(h);
    Vector3d q = p;
    p[k] = -h[k];
    q[k] = h[k];
    setSegment(f, p, q);
  } else {
    setPoint(f, sign.cwiseProduct(h));
  }
}

// A hull's support feature is the patch of vertices within a tolerance of its supporting plane
// along d, gathered by a walk over the hull's edges from the support vertex, as a convex polygon
// flattened onto that plane. Hull faces alone would not do: the flat faces of scanned objects
// (the bottom of a can) are hundreds of nearly coplanar facets, and any one of them is a sliver
// whose contacts all lie on one side, so the object rocks and sinks. The tolerance is at least
// kPatchTolerance and grows with the penetration, so that a long object sunk deeper at one end
// still gets contacts at the other.
constexpr double kPatchTolerance = 1e-3;  // metres
constexpr int kMaxPatchVertices = 4096;

struct PatchScratch {
  std::vector<int> stamp;  // per hull vertex: last walk that visited it
  int walk = 0;
  std::vector<int> stack;
  std::vector<std::array<double, 2>> planar;
  std::vector<int> chain;
};

void hullFeature(const ConvexHull& hull, const Vector3d& d, double tolerance, Feature& f) {
  thread_local PatchScratch scratch;
  int hint = -1;
  const int top = hull.supportVertex(d, hint);
  const std::vector<Vector3d>& v = hull.vertices();
  const double height = d.dot(v[top]);
  if (static_cast<int>(scratch.stamp.size()) < hull.numVertices()) {
    scratch.stamp.assign(hull.numVertices(), 0);
  }
  if (++scratch.walk == 0) {  // wrapped around: reset the stamps
    std::fill(scratch.stamp.begin(), scratch.stamp.end(), 0);
    scratch.walk = 1;
  }
  // In-plane basis (u, w) with u x w = d, so counter-clockwise in (u, w) is about d.
  const Vector3d u = d.unitOrthogonal();
  const Vector3d w = d.cross(u);
  scratch.planar.clear();
  scratch.stack.assign(1, top);
  scratch.stamp[top] = scratch.walk;
  while (!scratch.stack.empty() && static_cast<int>(scratch.planar.size()) < kMaxPatchVertices) {
    const int i = scratch.stack.back();
    scratch.stack.pop_back();
    scratch.planar.push_back({u.dot(v[i]), w.dot(v[i])});
    for (const int j : hull.neighbours(i)) {
      if (scratch.stamp[j] == scratch.walk || d.dot(v[j]) < height - tolerance) continue;
      scratch.stamp[j] = scratch.walk;
      scratch.stack.push_back(j);
    }
  }
  // Convex hull of the patch in the plane (monotone chain), counter-clockwise.
  auto& pts = scratch.planar;
  // Lexicographic, as std::array's operator< but without its generic loop.
  std::sort(pts.begin(), pts.end(),
            [](const std::array<double, 2>& a, const std::array<double, 2>& b) {
              return a[0] < b[0] || (a[0] == b[0] && a[1] < b[1]);
            });
  pts.erase(std::unique(pts.begin(), pts.end()), pts.end());
  const int n = static_cast<int>(pts.size());
  auto cross = [&](int o, int a, int b) {
    return (pts[a][0] - pts[o][0]) * (pts[b][1] - pts[o][1]) -
           (pts[a][1] - pts[o][1]) * (pts[b][0] - pts[o][0]);
  };
  auto& chain = scratch.chain;
  chain.assign(2 * n + 1, 0);
  int k = 0;
  for (int i = 0; i < n; ++i) {
    while (k >= 2 && cross(chain[k - 2], chain[k - 1], i) <= 0.0) --k;
    chain[k++] = i;
  }
  for (int i = n - 2, lower = k + 1; i >= 0; --i) {
    while (k >= lower && cross(chain[k - 2], chain[k - 1], i) <= 0.0) --k;
    chain[k++] = i;
  }
  const int corners = n >= 3 ? k - 1 : n;  // the chain closes on its first point
  auto lift = [&](int i) { return Vector3d(pts[i][0] * u + pts[i][1] * w + height * d); };
  if (corners >= 3) {
    const int count = std::min(corners, kMaxFeaturePoints);
    // Evenly spaced corners keep the polygon convex and counter-clockwise.
    for (int c = 0; c < count; ++c) f.points[c] = lift(chain[(c * corners) / count]);
    f.size = count;
    f.normal = d;
    f.alignment = 1.0;
  } else if (corners == 2) {
    setSegment(f, lift(chain[0]), lift(chain[1]));
  } else {
    setPoint(f, v[top]);
  }
}

void capsuleFeature(const Shape& s, const Vector3d& d, Feature& f) {
  // The core segment moved out by the radius along d: the line where the capsule meets a plane.
  const double h = s.halfLength();
  const Vector3d out = s.radius() * d;
  if (std::abs(d.z()) <= kEdgeSine) {
    setSegment(f, Vector3d(0.0, 0.0, -h) + out, Vector3d(0.0, 0.0, h) + out);
  } else {
    setPoint(f, Vector3d(0.0, 0.0, d.z() < 0.0 ? -h : h) + out);
  }
}

void cylinderFeature(const Shape& s, const Vector3d& d, Feature& f) {
  const double h = s.halfLength(), r = s.radius();
  const double radial = portable::hypot(d.x(), d.y());
  if (std::abs(d.z()) >= kFaceCosine) {
    setDisk(f, r, d.z() < 0.0 ? -h : h, d.z(), d);
  } else if (std::abs(d.z()) <= kEdgeSine && radial > 0.0) {
    // The side line through the rim point furthest along d.
    const double x = r * d.x() / radial, y = r * d.y() / radial;
    setSegment(f, {x, y, -h}, {x, y, h});
  } else {
    const double k = radial > 0.0 ? r / radial : 0.0;
    setPoint(f, {k * d.x(), k * d.y(), d.z() < 0.0 ? -h : h});
  }
}

void coneFeature(const Shape& s, const Vector3d& d, Feature& f) {
  const double h = s.halfLength(), r = s.radius();
  const double radial = portable::hypot(d.x(), d.y());
  if (-d.z() >= kFaceCosine) {
    setDisk(f, r, -h, -1.0, d);
    return;
  }
  if (radial > 0.0) {
    // The slant line from the rim point along d's radial direction to the apex; it supports d
    // when d is close to the slant's outward normal (2h u, r).
    const Vector3d u(d.x() / radial, d.y() / radial, 0.0);
    const Vector3d rim = r * u - Vector3d(0.0, 0.0, h);
    const Vector3d apex(0.0, 0.0, h);
    const Vector3d slant = (apex - rim).normalized();
    const Vector3d outward = 2.0 * h * u + Vector3d(0.0, 0.0, r);
    if (std::abs(slant.dot(d)) <= kEdgeSine && outward.dot(d) > 0.0) {
      setSegment(f, rim, apex);
      return;
    }
  }
  setPoint(f, Vector3d::Zero());
}

// The support feature of a posed shape along the world direction dir (unit), in world coordinates.
void supportFeature(const Shape& shape, const Pose& pose, const Vector3d& dir, double depth,
                    Feature& f) {
  const Vector3d d = pose.q.conjugate() * dir;
  switch (shape.type()) {
    case ShapeType::Box:
      boxFeature(shape, d, f);
      break;
    case ShapeType::ConvexHull:
      hullFeature(shape.hull(), d, std::max(kPatchTolerance, depth + kPatchTolerance), f);
      break;
    case ShapeType::Capsule:
      capsuleFeature(shape, d, f);
      break;
    case ShapeType::Cylinder:
      cylinderFeature(shape, d, f);
      break;
    case ShapeType::Cone:
      coneFeature(shape, d, f);
      break;
    case ShapeType::Sphere:
    case ShapeType::Ellipsoid:
    case ShapeType::Superquadric:
    case ShapeType::SupportPoints:
      setPoint(f, Vector3d::Zero());
      break;
  }
  for (int i = 0; i < f.size; ++i) f.points[i] = pose.apply(f.points[i]);
  if (f.size >= 3) f.normal = pose.q * f.normal;
}

// Sutherland–Hodgman against one half-space {p : side . (p - origin) >= 0}.
int clipPolygon(const Vector3d* in, int n, const Vector3d& side, const Vector3d& origin,
                Vector3d* out) {
  int m = 0;
  if (n == 0) return 0;
  Vector3d s = in[n - 1];
  double ds = side.dot(s - origin);
  for (int i = 0; i < n; ++i) {
    const Vector3d& e = in[i];
    const double de = side.dot(e - origin);
    // One endpoint strictly outside, the other inside: ds - de is never zero here.
    if ((de >= 0.0) != (ds >= 0.0)) out[m++] = s + (ds / (ds - de)) * (e - s);
    if (de >= 0.0) out[m++] = e;
    s = e;
    ds = de;
  }
  return m;
}

// The same for a segment; returns false when it is clipped away entirely.
bool clipSegment(Vector3d& p, Vector3d& q, const Vector3d& side, const Vector3d& origin) {
  const double dp = side.dot(p - origin), dq = side.dot(q - origin);
  if (dp < 0.0 && dq < 0.0) return false;
  if (dp < 0.0) p = p + (dp / (dp - dq)) * (q - p);
  if (dq < 0.0) q = q + (dq / (dq - dp)) * (p - q);
  return true;
}

struct Candidates {
  std::array<ContactPoint, kMaxClipPoints> points;
  int size = 0;
  void add(const ContactPoint& c) {
    if (size < kMaxClipPoints) points[size++] = c;
  }
};

// Clips the incident feature to the reference face's prism along n and measures each point's
// depth along n (A towards B) below the reference plane.
void clipAgainstReference(const Feature& ref, const Feature& inc, bool referenceIsA,
                          const Vector3d& n, double margin, Candidates& out) {
  std::array<Vector3d, kMaxClipPoints> bufferA, bufferB;
  int count = inc.size;
  std::copy(inc.points.begin(), inc.points.begin() + inc.size, bufferA.begin());
  Vector3d* current = bufferA.data();
  Vector3d* next = bufferB.data();
  // The side planes contain the contact normal rather than the face's own normal: every point
  // kept then projects along the normal into the face polygon itself, not just onto its plane,
  // so the partner point lies on the reference shape and the depth is where the normal ray
  // leaves it. (The two differ when the face is tilted, within kFaceCosine, from the normal.)
  const Vector3d facing = referenceIsA ? n : Vector3d(-n);
  for (int i = 0; i < ref.size && count > 0; ++i) {
    const Vector3d& v0 = ref.points[i];
    const Vector3d& v1 = ref.points[(i + 1) % ref.size];
    // Seen along `facing` the polygon is still counter-clockwise (facing . normal > 0), so the
    // inside is on the left: facing x edge.
    const Vector3d side = facing.cross(v1 - v0);
    if (inc.size == 2) {
      if (!clipSegment(current[0], current[1], side, v0)) count = 0;
    } else {
      count = clipPolygon(current, count, side, v0, next);
      std::swap(current, next);
    }
  }
  // Depth: how far along n (for B's points; -n for A's) the point must move to reach the
  // reference plane; alignment = normal . (+-n) >= kFaceCosine keeps the division safe.
  const Vector3d& r0 = ref.points[0];
  for (int i = 0; i < count; ++i) {
    const Vector3d& x = current[i];
    const double depth = -ref.normal.dot(x - r0) / ref.alignment;
    if (!(depth >= -margin)) continue;
    if (referenceIsA) {
      out.add({x + depth * n, x, depth});
    } else {
      out.add({x, x - depth * n, depth});
    }
  }
}

// Two segments: nearly parallel ones touch along the overlap of their projections, whose ends
// are the contact points; crossing ones touch at their closest points (the witness pair).
void segmentSegment(const Feature& fa, const Feature& fb, const Vector3d& n, double margin,
                    Candidates& out) {
  const Vector3d& a0 = fa.points[0];
  const Vector3d ea = fa.points[1] - a0;
  const Vector3d eb = fb.points[1] - fb.points[0];
  const double la = ea.norm(), lb = eb.norm();
  if (!(la > 0.0 && lb > 0.0)) return;
  const Vector3d u = ea / la;
  if (std::abs(u.dot(eb)) < kFaceCosine * lb) return;
  const double t0 = u.dot(fb.points[0] - a0), t1 = u.dot(fb.points[1] - a0);
  const double lo = std::max(0.0, std::min(t0, t1)), hi = std::min(la, std::max(t0, t1));
  if (!(hi > lo + 1e-9 * la)) return;
  for (const double t : {lo, hi}) {
    // A's point and the point of B's segment level with it along u. Unless the segments are
    // exactly parallel those two are also offset sideways; B's partner is placed straight below
    // A's point so that pointA - pointB = depth * n holds, as for every other contact.
    const Vector3d pa = a0 + t * u;
    const Vector3d pb = fb.points[0] + ((t - t0) / (t1 - t0)) * eb;
    const double depth = n.dot(pa - pb);
    if (depth >= -margin) out.add({pa, pa - depth * n, depth});
  }
}

// Twice the signed area of (p, q, x) seen along n.
double area2(const Vector3d& p, const Vector3d& q, const Vector3d& x, const Vector3d& n) {
  return (q - p).cross(x - p).dot(n);
}

// At most four of the candidates: the deepest point (it carries the most weight for the solver),
// the one furthest from it, the one making the largest triangle with both, and the one adding
// the most area outside that triangle. Coincident candidates are merged first.
void reduce(const Candidates& c, const Vector3d& n, ContactManifold& m) {
  std::array<Vector3d, kMaxClipPoints> pos;
  int deepest = 0;
  for (int i = 0; i < c.size; ++i) {
    pos[i] = 0.5 * (c.points[i].pointA + c.points[i].pointB);
    pos[i] -= pos[i].dot(n) * n;
    if (c.points[i].depth > c.points[deepest].depth) deepest = i;
  }
  double spread2 = 0.0;
  int far = deepest;
  for (int i = 0; i < c.size; ++i) {
    const double d2 = (pos[i] - pos[deepest]).squaredNorm();
    if (d2 > spread2) {
      spread2 = d2;
      far = i;
    }
  }
  // Points closer than a millionth of the manifold's size are one point to a solver.
  const double merge = std::max(1e-6 * std::sqrt(spread2), 1e-12);
  std::array<int, kMaxPoints> chosen{};
  int count = 0;
  chosen[count++] = deepest;
  if (far != deepest && spread2 > merge * merge) chosen[count++] = far;
  if (count == 2) {
    int third = -1;
    double bestArea = merge * std::sqrt(spread2);
    for (int i = 0; i < c.size; ++i) {
      const double area = std::abs(area2(pos[deepest], pos[far], pos[i], n));
      if (area > bestArea) {
        bestArea = area;
        third = i;
      }
    }
    if (third >= 0) {
      chosen[count++] = third;
      // The triangle counter-clockwise about n; a point outside edge (p, q) adds the area of
      // (p, q, x), and the hull's growth is the sum over the edges it lies outside.
      const bool ccw = area2(pos[deepest], pos[far], pos[third], n) > 0.0;
      const std::array<int, 3> tri =
          ccw ? std::array<int, 3>{deepest, far, third} : std::array<int, 3>{deepest, third, far};
      int fourth = -1;
      double bestGain = merge * std::sqrt(spread2);
      for (int i = 0; i < c.size; ++i) {
        double gain = 0.0;
        for (int e = 0; e < 3; ++e) {
          gain += std::max(0.0, -area2(pos[tri[e]], pos[tri[(e + 1) % 3]], pos[i], n));
        }
        if (gain > bestGain) {
          bestGain = gain;
          fourth = i;
        }
      }
      if (fourth >= 0) chosen[count++] = fourth;
    }
  }
  for (int i = 0; i < count; ++i) m.points[i] = c.points[chosen[i]];
  m.size = count;
}

}  // namespace

ContactManifold buildContactManifold(const Shape& a, const Pose& poseA, const Shape& b,
                                     const Pose& poseB, const Vector3d& normal,
                                     const Vector3d& witnessA, const Vector3d& witnessB,
                                     double signedDistance, double margin) {
  ContactManifold m;
  if (!(signedDistance <= margin)) return m;  // also rejects NaN

  // A unit normal, recovered from the witnesses if the caller's is unusable.
  Vector3d n = normal;
  if (!(n.allFinite() && n.norm() > 0.0)) {
    n = signedDistance < 0.0 ? Vector3d(witnessA - witnessB) : Vector3d(witnessB - witnessA);
  }
  n = n.allFinite() && n.norm() > 0.0 ? Vector3d(n.normalized()) : Vector3d(Vector3d::UnitZ());
  m.normal = n;
  const auto witnessPair = [&] {
    m.points[0] = {witnessA, witnessB, -signedDistance};
    m.size = 1;
  };

  Feature fa, fb;
  const double depth = std::max(0.0, -signedDistance);
  supportFeature(a, poseA, n, depth, fa);
  supportFeature(b, poseB, -n, depth, fb);
  Candidates candidates;
  if (fa.size >= 3 || fb.size >= 3) {
    // The better aligned face is the reference; a tie goes to A.
    const bool referenceIsA = fa.size >= 3 && (fb.size < 3 || fa.alignment >= fb.alignment);
    const Feature& ref = referenceIsA ? fa : fb;
    const Feature& inc = referenceIsA ? fb : fa;
    if (inc.size >= 2) clipAgainstReference(ref, inc, referenceIsA, n, margin, candidates);
  } else if (fa.size == 2 && fb.size == 2) {
    segmentSegment(fa, fb, n, margin, candidates);
  }
  if (candidates.size == 0) {
    witnessPair();
    return m;
  }
  reduce(candidates, n, m);
  return m;
}

}  // namespace hb
