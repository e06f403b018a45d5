#include "collision/cta.hpp"

#include <Eigen/Geometry>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "collision/convex_region.hpp"
#include "collision/polygon_touch.hpp"
#include "collision/section_pair.hpp"

namespace hb {

namespace {

using Eigen::Matrix3d;
using Eigen::Matrix4d;
using Eigen::Vector2d;
using Eigen::Vector3d;
using Eigen::Vector4d;
using namespace cta;

constexpr double kInf = std::numeric_limits<double>::infinity();

std::shared_ptr<const ConvexHull> polyhedronOf(const Shape& shape) {
  if (shape.convexRadius() > 0.0)
    throw std::invalid_argument("cta: a rounded shape is not a polyhedron");
  if (shape.type() == ShapeType::ConvexHull) return shape.hullPtr();
  if (shape.type() != ShapeType::Box)
    throw std::invalid_argument(
        "cta: the collision-translation algorithm needs polyhedra (box, "
        "hull), not a " +
        std::string(toString(shape.type())));
  std::vector<Vector3d> corners;
  for (int i = 0; i < 8; ++i)
    corners.emplace_back((i & 1 ? 1 : -1) * shape.halfExtents().x(),
                         (i & 2 ? 1 : -1) * shape.halfExtents().y(),
                         (i & 4 ? 1 : -1) * shape.halfExtents().z());
  return std::make_shared<const ConvexHull>(ConvexHull::build(corners));
}

double mergeTolerance(double radius) {
  return 1e-12 * radius;
}

// ---- A placed polyhedron ----

struct Placed {
  const CtaPolyhedron* poly;
  PlacedStack stack;

  Vector3d vertex(int v) const {
    return stack.rotation * poly->hull().vertices()[v] + stack.translation;
  }
  Vector3d faceNormal(int f) const { return stack.rotation * poly->hull().faceNormal(f); }
  double faceOffset(int f) const {
    return poly->hull().faceOffset(f) + faceNormal(f).dot(stack.translation);
  }
  /// max over the polyhedron of n . x (world).
  double support(const Vector3d& n, int& hint) const {
    const int v = poly->hull().supportVertex(stack.rotation.transpose() * n, hint);
    return n.dot(vertex(v));
  }
  /// The four corners of side `side` of `slab` (bottom, bottom next, top next, top), world.
  std::array<Vector3d, 4> sideCorners(int slab, int side) const {
    const SectionStack& s = *stack.stack;
    const int next = (side + 1) % s.numCrossings(slab);
    const auto at = [&](int k, double h) {
      return Vector3d(stack.rotation * s.sectionVertex(slab, k, h) + stack.translation);
    };
    return {at(side, s.slabBottom(slab)), at(next, s.slabBottom(slab)), at(next, s.slabTop(slab)),
            at(side, s.slabTop(slab))};
  }
};

/// The dual side of the problem: for any unit n with n . d > 0, P translated by t d can only
/// meet Q once its highest point along n reaches Q's lowest, so
///   t >= (min_Q n . x - max_P n . x) / (n . d),
/// with equality for the plane separating P and Q at the first contact. The best of a few
/// candidate normals bounds the translation from below; a contact found at that bound is the
/// first one.
struct LowerBound {
  double time = -kInf;
  Vector3d normal = Vector3d::UnitX();
};

LowerBound lowerBound(const Placed& p, const Placed& q, const std::vector<Vector3d>& normals,
                      const Vector3d& d, SupportHints& hints, CtaStats& stats) {
  LowerBound best;
  for (Vector3d n : normals) {
    if (n.dot(d) < 0.0) n = -n;
    const double nd = n.dot(d);
    if (!(nd > 1e-9)) continue;
    const double t = (-q.support(-n, hints.b) - p.support(n, hints.a)) / nd;
    stats.supportQueries += 2;
    if (t > best.time) best = {t, n};
  }
  return best;
}

/// Normals of the features of a placed polyhedron within eps of `point`, from the stack's sides
/// and crossing edges around the point's height: the side faces' normals, the edges' directions
/// (crossing edges, and the sections' edges along the side faces), and the slicing axis (a cap).
void featuresNear(const Placed& pl, const Vector3d& point, double eps, std::vector<Vector3d>& faces,
                  std::vector<Vector3d>& edges) {
  const SectionStack& s = *pl.stack.stack;
  const Vector3d axis = pl.stack.axis();
  const double h = axis.dot(point) - pl.stack.offset();
  const int centre = s.slabAt(h);
  faces.push_back(axis);
  for (int slab = std::max(0, centre - 1); slab <= std::min(s.numSlabs() - 1, centre + 1); ++slab) {
    const int m = s.numCrossings(slab);
    for (int k = 0; k < m; ++k) {
      const int f = s.sideFace(slab, k);
      if (f < 0) continue;
      const Vector3d n = pl.faceNormal(f);
      if (std::abs(n.dot(point) - pl.faceOffset(f)) <= eps) {
        faces.push_back(n);
        edges.push_back(n.cross(axis));
      }
      const Vector3d dir = pl.stack.rotation * s.crossingSlope(slab, k);
      const Vector3d on = pl.stack.rotation * s.sectionVertex(slab, k, h) + pl.stack.translation;
      if ((point - on).cross(dir).norm() <= eps * dir.norm()) edges.push_back(dir.normalized());
    }
  }
}

/// A unit n perpendicular to d with P's whole line of translations on n . x > offset and Q on
/// n . x < offset, when their shadows along d are apart: 2-D GJK on the shadows' difference.
bool shadowSeparation(const Placed& p, const Placed& q, const Vector3d& d, double tolerance,
                      SupportHints& hints, CtaStats& stats, Plane& plane) {
  const Vector3d f1 = d.unitOrthogonal(), f2 = d.cross(f1);
  const auto support = [&](const Vector2d& v) {  // of shadow(P) - shadow(Q), minimising v . z
    const Vector3d n = -(v.x() * f1 + v.y() * f2);
    int va = p.poly->hull().supportVertex(p.stack.rotation.transpose() * n, hints.a);
    int vb = q.poly->hull().supportVertex(-(q.stack.rotation.transpose() * n), hints.b);
    stats.supportQueries += 2;
    const Vector3d w = p.vertex(va) - q.vertex(vb);
    return Vector2d(f1.dot(w), f2.dot(w));
  };
  std::vector<Vector2d> simplex{support(Vector2d(1.0, 0.0))};
  Vector2d v = simplex[0];
  for (int i = 0; i < 100; ++i) {
    const Vector2d w = support(v);
    if (v.squaredNorm() - v.dot(w) <= 1e-12 * v.squaredNorm()) break;
    simplex.push_back(w);
    // Closest point of the simplex's hull to the origin, keeping the points it needs.
    if (simplex.size() == 3) {
      const auto sign = [](const Vector2d& a, const Vector2d& b) {
        return a.x() * b.y() - a.y() * b.x();
      };
      const double s0 = sign(simplex[0], simplex[1]), s1 = sign(simplex[1], simplex[2]),
                   s2 = sign(simplex[2], simplex[0]);
      if ((s0 >= 0 && s1 >= 0 && s2 >= 0) || (s0 <= 0 && s1 <= 0 && s2 <= 0)) return false;
    }
    double bestNorm = kInf;
    std::vector<Vector2d> keep;
    for (std::size_t a = 0; a < simplex.size(); ++a)
      for (std::size_t b = a; b < simplex.size(); ++b) {
        const Vector2d e = simplex[b] - simplex[a];
        const double t = e.squaredNorm() > 0.0
                             ? std::clamp(-simplex[a].dot(e) / e.squaredNorm(), 0.0, 1.0)
                             : 0.0;
        const Vector2d z = simplex[a] + t * e;
        if (z.squaredNorm() < bestNorm) {
          bestNorm = z.squaredNorm();
          v = z;
          keep = (t > 0.0 && t < 1.0) ? std::vector<Vector2d>{simplex[a], simplex[b]}
                                      : std::vector<Vector2d>{t == 0.0 ? simplex[a] : simplex[b]};
        }
      }
    simplex = keep;
    if (v.squaredNorm() == 0.0) return false;
  }
  // shadow(P) - shadow(Q) lies in v . z >= |v|^2: P is on the side of larger v . x.
  const Vector3d n = (v.x() * f1 + v.y() * f2).normalized();
  const double lowP = -p.support(-n, hints.a), highQ = q.support(n, hints.b);
  stats.supportQueries += 2;
  if (!(lowP - highQ > tolerance)) return false;  // touching shadows: a grazing contact
  plane = {n, 0.5 * (lowP + highQ)};
  return true;
}

/// One minimisation: the least translation of P along d onto Q over all pairs of sections.
struct Minimum {
  bool found = false;  // a contact exists (else the shadows along d are apart)
  bool certified = false;
  double time = kInf;
  Vector3d pointP = Vector3d::Zero(), pointQ = Vector3d::Zero(), normal = Vector3d::UnitX();
  Vector2d at = Vector2d::Zero();  // (x, y) of the minimum
};

class Minimiser {
 public:
  Minimiser(const Placed& p, const Placed& q, const Vector3d& d, const CtaOptions& options,
            SupportHints& hints, CtaStats& stats)
      : p_(p), q_(q), d_(d), options_(options), hints_(hints), stats_(stats) {
    const SectionStack& sp = *p.stack.stack;
    const SectionStack& sq = *q.stack.stack;
    region_ = {{sp.minHeight(), sq.minHeight()},
               {sp.maxHeight(), sq.minHeight()},
               {sp.maxHeight(), sq.maxHeight()},
               {sp.minHeight(), sq.maxHeight()}};
  }

  Minimum run(const Vector2d* start, double focus) {
    Vector2d c = start ? clampToStacks(*start) : centroid(region_);
    bool focusing = start && options_.focus;
    const double stop = options_.tolerance;
    for (int step = 0; step < options_.maxSteps; ++step) {
      ++stats_.steps;
      if (evaluate(c) && best_.certified) return best_;
      if (region_.size() < 3 || diameter(region_) <= stop) return finish();
      c = centroid(region_);
      if (focusing) {
        // Stay in the square of half side `focus` around the start while the region allows.
        const Vector2d off = c - *start;
        const double reach = std::max(std::abs(off.x()), std::abs(off.y()));
        if (reach > focus) {
          const Vector2d onSquare = *start + (focus / reach) * off;
          if (inside(region_, onSquare))
            c = onSquare;
          else
            focusing = false;
        }
      }
    }
    return finish();
  }

 private:
  /// z moved off the planes through the vertices, where sections have coinciding vertices, by
  /// a billionth of its slab.
  Vector2d clampToStacks(const Vector2d& z) const {
    const auto inside = [](const SectionStack& s, double h) {
      const int slab = s.slabAt(h);
      const double margin = 1e-9 * (s.slabTop(slab) - s.slabBottom(slab));
      return std::clamp(h, s.slabBottom(slab) + margin, s.slabTop(slab) - margin);
    };
    return {inside(*p_.stack.stack, z.x()), inside(*q_.stack.stack, z.y())};
  }

  /// Solves the sections at c, cuts the region, and for a side-face contact shifts to the least
  /// translation of those faces. True when a contact was certified.
  bool evaluate(Vector2d c) {
    c = clampToStacks(c);
    const SectionPairAnswer s = solve(c);
    if (!s.collide) {
      // Every pair of sections that collides has G = max_R m . r - min_S m . s >= 0; G is
      // concave in (x, y), so its tangent plane at c bounds it from above.
      const SectionStack& sp = *p_.stack.stack;
      const SectionStack& sq = *q_.stack.stack;
      const double g = s.supportP - s.supportQ;
      const Vector2d grad(
          s.normal.dot(p_.stack.rotation * sp.crossingSlope(s.slabP, s.crossingP)),
          -s.normal.dot(q_.stack.rotation * sq.crossingSlope(s.slabQ, s.crossingQ)));
      cut(region_, -grad, g - grad.dot(c));
      return false;
    }
    record(c, s);
    if (s.kind == SectionContactKind::Edge) {
      // Cell shift: the two side faces' own least translation, then the sections through it.
      const auto fp = p_.sideCorners(s.slabP, s.sideP);
      const auto fq = q_.sideCorners(s.slabQ, s.sideQ);
      Touch t = touchPolygons(fp, p_.faceNormal(s.faceP[0]), fq, q_.faceNormal(s.faceQ[0]), d_,
                              1e-12 * (p_.poly->radius() + q_.poly->radius()));
      // Only a touch that improves on the best can be the minimum: certify those alone.
      if (std::isfinite(t.time) && t.time <= best_.time + options_.tolerance) {
        t.normals.push_back(p_.faceNormal(s.faceP[0]));
        t.normals.push_back(-q_.faceNormal(s.faceQ[0]));
        const LowerBound bound = lowerBound(p_, q_, t.normals, d_, hints_, stats_);
        const Vector2d shifted(p_.stack.axis().dot(t.pointP) - p_.stack.offset(),
                               q_.stack.axis().dot(t.pointQ) - q_.stack.offset());
        if (bound.time >= t.time - options_.tolerance) {
          best_ = {true, true, t.time, t.pointP, t.pointQ, bound.normal, shifted};
          return true;
        }
        const Vector2d c2 = clampToStacks(shifted);
        const SectionPairAnswer s2 = solve(c2);
        if (s2.collide) record(c2, s2);
      }
    }
    return false;
  }

  SectionPairAnswer solve(const Vector2d& c) {
    ++stats_.sectionPairs;
    const SectionPairAnswer s = collideSections(p_.stack, c.x(), q_.stack, c.y(), d_);
    stats_.chordSearches += s.chordSearches;
    return s;
  }

  /// A contact of the sections at c: keep the best, and cut with phi's subgradient there (a
  /// deep cut: the minimum has phi <= best).
  void record(const Vector2d& c, const SectionPairAnswer& s) {
    if (s.time < best_.time) {
      best_.found = true;
      best_.time = s.time;
      best_.pointP = s.pointP;
      best_.pointQ = s.pointQ;
      best_.at = c;
    }
    const Vector2d grad = gradient(c, s);
    const double slack = options_.tolerance * 1e-3;
    cut(region_, grad, best_.time - s.time + grad.dot(c) + slack);
  }

  /// phi's gradient at c: the contact point solves four linear equations (the two section
  /// planes and the two constraints that hold), affine in (x, y).
  Vector2d gradient(const Vector2d& c, const SectionPairAnswer& s) {
    Matrix4d k = Matrix4d::Zero();
    const Vector3d a = p_.stack.axis(), b = q_.stack.axis();
    k.block<1, 3>(0, 0) = a.transpose();
    k.block<1, 3>(1, 0) = b.transpose();
    k(1, 3) = b.dot(d_);
    int row = 2;
    for (const int f : s.faceP)
      if (f >= 0 && row < 4) k.block<1, 3>(row++, 0) = p_.faceNormal(f).transpose();
    for (const int f : s.faceQ)
      if (f >= 0 && row < 4) {
        const Vector3d n = q_.faceNormal(f);
        k.block<1, 3>(row, 0) = n.transpose();
        k(row++, 3) = n.dot(d_);
      }
    Eigen::FullPivLU<Matrix4d> lu(k);
    if (row == 4 && lu.isInvertible()) {
      const Vector4d dx = lu.solve(Vector4d::UnitX()), dy = lu.solve(Vector4d::UnitY());
      return {dx(3), dy(3)};
    }
    // Degenerate constraints: central differences of phi.
    const double h = 1e-7 * (p_.poly->radius() + q_.poly->radius());
    const auto at = [&](const Vector2d& z) {
      const SectionPairAnswer e = solve(clampToStacks(z));
      return e.collide ? e.time : s.time;
    };
    return {(at(c + Vector2d(h, 0)) - at(c - Vector2d(h, 0))) / (2 * h),
            (at(c + Vector2d(0, h)) - at(c - Vector2d(0, h))) / (2 * h)};
  }

  /// The region is spent: the best contact found is the minimum; its normal is the best of the
  /// candidate planes through it.
  Minimum finish() {
    if (!best_.found) return best_;
    // The features at the best contact, and the planes they span.
    const double eps = 1e-6 * (p_.poly->radius() + q_.poly->radius());
    std::vector<Vector3d> facesP, edgesP, facesQ, edgesQ, normals;
    featuresNear(p_, best_.pointP, eps, facesP, edgesP);
    featuresNear(q_, best_.pointQ, eps, facesQ, edgesQ);
    normals = facesP;
    normals.insert(normals.end(), facesQ.begin(), facesQ.end());
    for (const Vector3d& e : edgesP)
      for (const Vector3d& f : edgesQ) {
        const Vector3d n = e.cross(f);
        if (n.squaredNorm() > 1e-12) normals.push_back(n.normalized());
      }
    const LowerBound bound = lowerBound(p_, q_, normals, d_, hints_, stats_);
    best_.normal = bound.time > -kInf ? bound.normal : d_;
    best_.certified = bound.time >= best_.time - 1e3 * options_.tolerance;
    if (best_.certified) {  // exact where the contact's plane is among the normals
      best_.time = bound.time;
      best_.pointP = best_.pointQ - best_.time * d_;
    }
    return best_;
  }

  const Placed& p_;
  const Placed& q_;
  Vector3d d_;
  const CtaOptions& options_;
  SupportHints& hints_;
  CtaStats& stats_;
  Region region_;
  Minimum best_;
};

/// Axes of A's and B's stacks, pairwise far from parallel with each other and with d (the
/// sections' shadows and the times grow as 1 / the sines of the angles): the smallest stacks
/// among those well enough conditioned. Stacks many times larger than a polyhedron's smallest
/// (the diagonals of a lattice: O(n^1.5) crossings against O(n)) are used only where every
/// small one is parallel to d or to the other's; stacks past the memory budget never
/// (CtaPolyhedron::isBuildable). {-1, -1} when no pair is buildable.
std::pair<int, int> chooseAxes(const CtaPolyhedron& a, const Matrix3d& ra, const CtaPolyhedron& b,
                               const Matrix3d& rb, const Vector3d& d) {
  constexpr double kWellConditioned = 1e-3, kDegenerate = 1e-6;
  struct Choice {
    std::pair<int, int> axes{-1, -1};
    std::size_t size = 0;
    double score = -1.0;
  };
  Choice cheapest, bestSmall, best;
  for (int ia = 0; ia < CtaPolyhedron::kAxes; ++ia)
    for (int ib = 0; ib < CtaPolyhedron::kAxes; ++ib) {
      const Vector3d x = ra * CtaPolyhedron::axis(ia), y = rb * CtaPolyhedron::axis(ib);
      const double score = std::min({std::abs(x.dot(d)), std::abs(y.dot(d)), x.cross(y).norm()});
      const Choice c{{ia, ib}, a.stackSize(ia) + b.stackSize(ib), score};
      if (!a.isBuildable(ia) || !b.isBuildable(ib)) continue;
      if (score > best.score) best = c;
      if (!a.isSmallStack(ia) || !b.isSmallStack(ib)) continue;
      if (score > bestSmall.score) bestSmall = c;
      if (score >= kWellConditioned && (cheapest.axes.first < 0 || c.size < cheapest.size))
        cheapest = c;
    }
  if (cheapest.axes.first >= 0) return cheapest.axes;
  return bestSmall.score >= kDegenerate ? bestSmall.axes : best.axes;
}

/// The half width of a warm start's focus square: how far A's contact point moved across d
/// relative to B since the warm start's query (at least the tolerance).
double warmFocus(const CtaWarmStart& warm, const Pose& poseA, const Pose& poseB, const Vector3d& d,
                 double tolerance) {
  const Vector3d before = warm.poseB.applyInverse(warm.poseA.apply(warm.contactOnA));
  const Vector3d now = poseB.applyInverse(poseA.apply(warm.contactOnA));
  Vector3d shift = poseB.rotation() * (now - before);
  shift -= shift.dot(d) * d;
  return std::max(shift.norm(), tolerance);
}

/// The GJK ray cast of the two hulls (the same question, settled to its tolerance).
// A first contact at or behind the start: the last one, searched along -d, decides between
// overlapping now (true) and B lying wholly behind A (false, a Miss with the plane between them).
bool overlapsNow(const Placed& pa, const Placed& pb, const Vector3d& d, const CtaOptions& options,
                 SupportHints& hints, CtaStats& stats, const Minimum& forward, CastResult& result) {
  const Minimum backward = Minimiser(pa, pb, -d, options, hints, stats).run(nullptr, 0.0);
  const double last = -backward.time;
  if (last >= -options.tolerance) {
    result.status = CastStatus::Overlapping;
    result.distance = 0.0;
    result.witnessA = forward.pointP;
    result.witnessB = forward.pointQ;
    result.normal = forward.normal;
    return true;
  }
  // At the last contact a plane separates them with A ahead along d; A starts -last (n . d)
  // beyond it, and the plane is put halfway.
  result.status = CastStatus::Miss;
  result.distance = kInf;
  const Vector3d n = -backward.normal;
  result.separatingPlane = {n, n.dot(backward.pointQ) - 0.5 * last * n.dot(d)};
  return false;
}

// The next cast's warm start: this one's minimum on the stacks of axes ia and ib.
void remember(const Minimum& m, int ia, int ib, const Pose& poseA, const Pose& poseB,
              CtaWarmStart& warm) {
  warm.valid = m.found;
  warm.axisA = ia;
  warm.axisB = ib;
  warm.solution = m.at;
  warm.contactOnA = poseA.applyInverse(m.pointP);
  warm.poseA = poseA;
  warm.poseB = poseB;
}

CastResult gjkCast(const CtaPolyhedron& a, const Pose& poseA, const CtaPolyhedron& b,
                   const Pose& poseB, const Vector3d& d) {
  return castShape(Shape::convexHull(a.hullPtr()), poseA, Shape::convexHull(b.hullPtr()), poseB, d);
}

}  // namespace

CtaPolyhedron::CtaPolyhedron(const Shape& shape) : CtaPolyhedron(polyhedronOf(shape)) {}

CtaPolyhedron::CtaPolyhedron(std::shared_ptr<const ConvexHull> hull) : hull_(std::move(hull)) {
  if (!hull_) throw std::invalid_argument("cta: no hull");
  for (const Vector3d& v : hull_->vertices()) radius_ = std::max(radius_, v.norm());
  for (int i = 0; i < kAxes; ++i)
    stackSizes_[i] = countCrossings(*hull_, axis(i), mergeTolerance(radius_));
}

bool CtaPolyhedron::isBuildable(int i) const {
  return stackSizes_[i] <=
         std::max(kCrossingBudgetFloor, kCrossingsPerVertex * hull_->vertices().size());
}

bool CtaPolyhedron::isSmallStack(int i) const {
  const std::size_t least = *std::min_element(stackSizes_.begin(), stackSizes_.end());
  return isBuildable(i) && stackSizes_[i] <= std::max<std::size_t>(4 * least, 1u << 20);
}

void CtaPolyhedron::prepare() const {
  for (int i = 0; i < kAxes; ++i)
    if (isSmallStack(i)) stack(i);
}

Vector3d CtaPolyhedron::axis(int i) {
  if (i < 3) return Vector3d::Unit(i);
  return Vector3d(i & 1 ? -1.0 : 1.0, i & 2 ? -1.0 : 1.0, 1.0) / std::sqrt(3.0);
}

const SectionStack& CtaPolyhedron::stack(int i) const {
  if (!isBuildable(i)) throw std::length_error("cta: a section stack past the memory budget");
  std::call_once(built_[i], [&] {
    stacks_[i] = std::make_unique<SectionStack>(*hull_, axis(i), mergeTolerance(radius_));
  });
  return *stacks_[i];
}

CastResult castCta(const CtaPolyhedron& a, const Pose& poseA, const CtaPolyhedron& b,
                   const Pose& poseB, const Vector3d& direction, const CtaOptions& options,
                   CtaWarmStart* warm, CtaStats* statsOut) {
  CastResult result;
  CtaStats stats;
  const Vector3d d = unitVector(direction);
  if (!poseA.isValid() || !poseB.isValid() || d.isZero()) {
    if (statsOut) *statsOut = stats;
    return result;
  }
  const Matrix3d ra = poseA.rotation(), rb = poseB.rotation();
  const std::pair<int, int> axes = chooseAxes(a, ra, b, rb, d);
  if (axes.first < 0) {
    ++stats.largeHullCasts;
    result = gjkCast(a, poseA, b, poseB, d);
    if (warm) warm->valid = false;
    if (statsOut) *statsOut = stats;
    return result;
  }
  const int ia = axes.first, ib = axes.second;
  const Placed pa{&a, {&a.hull(), &a.stack(ia), ra, poseA.p}};
  const Placed pb{&b, {&b.hull(), &b.stack(ib), rb, poseB.p}};
  SupportHints hints = warm ? warm->hints : SupportHints{};

  // Warm start: the last minimum, and a focus square around it.
  const bool coherent = warm && warm->valid && warm->axisA == ia && warm->axisB == ib;
  const double focus = coherent ? warmFocus(*warm, poseA, poseB, d, options.tolerance) : 0.0;

  Minimum forward =
      Minimiser(pa, pb, d, options, hints, stats).run(coherent ? &warm->solution : nullptr, focus);
  result.iterations = stats.steps;
  const auto finish = [&] {
    result.hints = hints;
    result.iterations = stats.steps;
    if (warm) warm->hints = hints;
    if (statsOut) *statsOut = stats;
    return result;
  };

  // Where the shadows along d only touch (A grazes B), the region of section pairs that collide
  // has no interior, and the minimisation closes on points near the contact that no plane
  // certifies: those queries are the GJK cast's, which settles grazing contacts to its tolerance.
  const auto castByGjk = [&] {
    ++stats.gjkCasts;
    if (warm) warm->valid = false;
    result = gjkCast(a, poseA, b, poseB, d);
    return finish();
  };
  if (!forward.found) {  // the shadows along d are apart, or touch
    if (!shadowSeparation(pa, pb, d, options.tolerance, hints, stats, result.separatingPlane)) {
      return castByGjk();
    }
    result.status = CastStatus::Miss;
    result.distance = kInf;
    if (warm) warm->valid = false;
    return finish();
  }
  if (!forward.certified) return castByGjk();
  if (warm) remember(forward, ia, ib, poseA, poseB, *warm);
  const double tol = options.tolerance;
  if (forward.time > tol) {
    result.status = CastStatus::Hit;
    result.distance = forward.time;
    result.normal = forward.normal;
    result.witnessA = forward.pointP + forward.time * d;
    result.witnessB = forward.pointQ;
    return finish();
  }
  // The first contact is at or behind the start.
  if (!overlapsNow(pa, pb, d, options, hints, stats, forward, result) && warm) warm->valid = false;
  return finish();
}

}  // namespace hb
