#include "collision/section_pair.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace hb {

namespace {

using Eigen::Vector2d;
using Eigen::Vector3d;

constexpr double kInf = std::numeric_limits<double>::infinity();

/// Index of a maximum of f over the cycle 0..m-1, where f is unimodal along the cycle (a linear
/// function over the vertices of a convex polygon): O(log m) evaluations. Of two equal maxima
/// the first in cyclic order.
template <class F>
int argmaxCyclic(int m, F&& f) {
  if (m <= 3) {
    int best = 0;
    for (int k = 1; k < m; ++k)
      if (f(k) > f(best)) best = k;
    return best;
  }
  const double f0 = f(0), f1 = f(1), fLast = f(m - 1);
  // "k lies before the maximum", true then false over k in [1, m - 1].
  const auto search = [&](auto&& before) {
    int lo = 1, hi = m - 1;
    while (lo < hi) {
      const int mid = (lo + hi) / 2;
      if (before(mid))
        lo = mid + 1;
      else
        hi = mid;
    }
    return lo;
  };
  if (f1 > f0)  // rising at 0: the maximum ends the first rising run
    return search([&](int k) { return f(k) > f0 && f(k + 1 == m ? 0 : k + 1) > f(k); });
  if (fLast <= f0) return fLast == f0 ? m - 1 : 0;
  // Falling at 0: down to the minimum, up to the maximum, down again to f0.
  return search([&](int k) { return f(k) <= f0 || f(k + 1 == m ? 0 : k + 1) > f(k); });
}

/// A section drawn in the coordinates (u, w) of S's plane: u = U . v + cu, w = W . v + cw for
/// a vertex v of the section (its hull's frame). `reversed` walks the crossings backwards so
/// that the polygon is counter-clockwise in (u, w).
/// Vertices already drawn, so that the binary searches of one pair compute each once: valid
/// where stamp == current.
struct VertexMemo {
  std::vector<Vector2d> value;
  std::vector<unsigned> stamp;
  unsigned current = 0;
  void reset(int m) {
    if (static_cast<int>(value.size()) < m) {
      value.resize(m);
      stamp.assign(m, 0);
      current = 0;
    }
    if (++current == 0) {  // wrapped: forget every stamp
      std::fill(stamp.begin(), stamp.end(), 0u);
      current = 1;
    }
  }
};

struct Section2 {
  const SectionStack* stack = nullptr;
  int slab = 0;
  double height = 0.0;
  int m = 0;
  bool reversed = false;
  Vector3d U = Vector3d::Zero(), W = Vector3d::Zero();
  double cu = 0.0, cw = 0.0;
  VertexMemo* memo = nullptr;

  /// The crossing of vertex k, for k in [0, 2m) (a chain's start plus a position on it).
  int crossing(int k) const {
    if (k >= m) k -= m;
    return reversed && k != 0 ? m - k : k;
  }
  Vector2d at(int k) const {
    const int c = crossing(k);
    if (memo->stamp[c] == memo->current) return memo->value[c];
    const Vector3d v = stack->sectionVertex(slab, c, height);
    memo->stamp[c] = memo->current;
    return memo->value[c] = Vector2d(U.dot(v) + cu, W.dot(v) + cw);
  }
  /// The stack's side (SectionStack::sideFace) of the edge from vertex k to vertex k + 1.
  int edgeSide(int k) const {
    const int a = crossing(k), b = crossing(k + 1);
    return b == (a + 1) % m ? a : b;
  }
  int edgeFace(int k) const { return stack->sideFace(slab, edgeSide(k)); }
};

/// The point of a chain at level u: w, the chain edge holding it and its slope dw/du.
struct ChordPoint {
  double w = 0.0;
  int edge = 0;  // position along the chain
  double slope = 0.0;
};

/// The lower (u nondecreasing) or upper (u nonincreasing) boundary of a Section2 between its
/// extreme vertices: vertices start, start + 1, ..., start + length.
struct Chain {
  const Section2* s = nullptr;
  int start = 0, length = 0;
  bool lower = true;
  mutable int hint = 0;  // the edge of the last chord: the next level is usually near it

  ChordPoint at(double u) const {
    if (length == 0) return {s->at(start).y(), 0, 0.0};
    // The last edge whose first vertex is at or before u along the chain: gallop from the hint
    // to bracket it, then bisect.
    const auto before = [&](int j) {
      const double uj = s->at(start + j).x();
      return lower ? uj <= u : uj >= u;
    };
    int lo = 0, hi = length - 1;
    const int h = std::clamp(hint, 0, length - 1);
    if (before(h)) {
      lo = h;
      int step = 1;
      while (lo + step <= hi && before(lo + step)) {
        lo += step;
        step *= 2;
      }
      hi = std::min(hi, lo + step - 1);
    } else {
      hi = h - 1;
      for (int step = 1;; step *= 2) {
        const int probe = h - step;
        if (probe <= 0) break;  // lo stays 0
        if (before(probe)) {
          lo = probe;
          break;
        }
        hi = probe - 1;
      }
      hi = std::max(hi, lo);
    }
    while (lo < hi) {
      const int mid = (lo + hi + 1) / 2;
      const double um = s->at(start + mid).x();
      if (lower ? um <= u : um >= u)
        lo = mid;
      else
        hi = mid - 1;
    }
    hint = lo;
    const Vector2d a = s->at(start + lo), b = s->at(start + lo + 1);
    const double du = b.x() - a.x();
    if (std::abs(du) <= 1e-300)
      return {lower ? std::min(a.y(), b.y()) : std::max(a.y(), b.y()), lo, (lower ? -kInf : kInf)};
    const double slope = (b.y() - a.y()) / du;
    return {a.y() + (u - a.x()) * slope, lo, slope};
  }
};

/// The four chords at one level: A = loR - hiS and B = loS - hiR are both <= 0 exactly where
/// the chords of R' and S overlap.
struct Level {
  double u = 0.0;
  ChordPoint loR, hiR, loS, hiS;
  double A() const { return loR.w - hiS.w; }
  double B() const { return loS.w - hiR.w; }
  double H() const { return std::max(A(), B()); }
  bool samePieces(const Level& o) const {
    return loR.edge == o.loR.edge && hiR.edge == o.hiR.edge && loS.edge == o.loS.edge &&
           hiS.edge == o.hiS.edge;
  }
};

struct Polygon2 {
  Section2 s;
  double umin = 0.0, umax = 0.0;
  Chain lower, upper;
};

/// The polygon of section s, its chains pointing at its own copy of s.
void makePolygon(const Section2& s, Polygon2& p) {
  p.s = s;
  const int kmax = argmaxCyclic(s.m, [&](int k) { return s.at(k).x(); });
  const int kmin = argmaxCyclic(s.m, [&](int k) { return -s.at(k).x(); });
  p.umin = s.at(kmin).x();
  p.umax = s.at(kmax).x();
  p.lower = {&p.s, kmin, ((kmax - kmin) % s.m + s.m) % s.m, true};
  p.upper = {&p.s, kmax, ((kmin - kmax) % s.m + s.m) % s.m, false};
}

/// The axes (e1, e2) of the search in S's section plane (normal b, P's stack axis a, a . d =
/// ad): u = e1 . z grows with the time at which R's points reach that plane.
void searchAxes(const Vector3d& a, const Vector3d& b, double ad, Vector3d& e1, Vector3d& e2) {
  const Vector3d aFlat = a - a.dot(b) * b;
  e1 = (ad > 0 ? 1.0 : -1.0) * aFlat.normalized();
  e2 = b.cross(e1);
}

/// P's section at height x of slab `slab`, moved along d onto Q's section plane (b . r =
/// yWorld) and drawn in (e1, e2): r -> r + ((yWorld - b . r) / (b . d)) d, linear in r's hull
/// coordinates.
Section2 projectedSection(const PlacedStack& p, double x, int slab, const Vector3d& d,
                          const Vector3d& b, const Vector3d& e1, const Vector3d& e2, double yWorld,
                          bool reversed, VertexMemo& memo) {
  const double bd = b.dot(d);
  Section2 r;
  r.stack = p.stack;
  r.slab = slab;
  r.height = x;
  r.m = p.stack->numCrossings(slab);
  r.reversed = reversed;
  const Vector3d eu = e1 - (e1.dot(d) / bd) * b, ew = e2 - (e2.dot(d) / bd) * b;
  r.U = p.rotation.transpose() * eu;
  r.W = p.rotation.transpose() * ew;
  r.cu = eu.dot(p.translation) + e1.dot(d) * yWorld / bd;
  r.cw = ew.dot(p.translation) + e2.dot(d) * yWorld / bd;
  memo.reset(r.m);
  r.memo = &memo;
  return r;
}

/// Q's section at height y of slab `slab`, drawn in (e1, e2).
Section2 planarSection(const PlacedStack& q, double y, int slab, const Vector3d& e1,
                       const Vector3d& e2, VertexMemo& memo) {
  Section2 s;
  s.stack = q.stack;
  s.slab = slab;
  s.height = y;
  s.m = q.stack->numCrossings(slab);
  memo.reset(s.m);
  s.memo = &memo;
  s.U = q.rotation.transpose() * e1;
  s.W = q.rotation.transpose() * e2;
  s.cu = e1.dot(q.translation);
  s.cw = e2.dot(q.translation);
  return s;
}

/// The first level of the overlap at its left end: the leftmost vertex of R' (or of S) lies in
/// the other; its two edges' faces.
void setVertexFaces(const Level& lo, const Polygon2& R, const Polygon2& S, SectionPairAnswer& out) {
  if (R.umin >= S.umin) {
    const int k = R.lower.start + lo.loR.edge;
    out.kind = SectionContactKind::VertexP;
    out.faceP[0] = R.s.edgeFace(k);
    out.faceP[1] = R.s.edgeFace((k + R.s.m - 1) % R.s.m);
  } else {
    const int k = S.lower.start + lo.loS.edge;
    out.kind = SectionContactKind::VertexQ;
    out.faceQ[0] = S.s.edgeFace(k);
    out.faceQ[1] = S.s.edgeFace((k + S.s.m - 1) % S.s.m);
  }
}

/// An edge contact: A's root (which 0: R's lower edge on S's upper one) or B's (1: S's lower
/// edge on R's upper one), the edges those of the chords at `pieces`; the edges' sides and faces.
void setEdgeFaces(const Level& pieces, int which, const Polygon2& R, const Polygon2& S,
                  SectionPairAnswer& out) {
  out.kind = SectionContactKind::Edge;
  out.sideP = which == 0 ? R.s.edgeSide(R.lower.start + pieces.loR.edge)
                         : R.s.edgeSide(R.upper.start + pieces.hiR.edge);
  out.sideQ = which == 0 ? S.s.edgeSide(S.upper.start + pieces.hiS.edge)
                         : S.s.edgeSide(S.lower.start + pieces.loS.edge);
  out.faceP[0] = R.s.stack->sideFace(out.slabP, out.sideP);
  out.faceQ[0] = S.s.stack->sideFace(out.slabQ, out.sideQ);
}

/// The next level to search in (lo, hi), H(lo) > 0. While every positive one of A and B falls at
/// lo, Newton's step from lo is safe: a convex function lies above its tangent, so the
/// tangents' roots come no later than the overlap, and a root that lands in it is its first
/// level; `binding` is then the function whose root it is (0: A, 1: B). Otherwise the middle
/// (binding -1).
double nextLevel(const Level& lo, const Level& hi, int& binding) {
  double newton = lo.u;
  binding = -1;
  bool falling = true;
  const double slopes[2] = {lo.loR.slope - lo.hiS.slope, lo.loS.slope - lo.hiR.slope};
  const double values[2] = {lo.A(), lo.B()};
  for (int f = 0; f < 2; ++f) {
    if (values[f] <= 0.0) continue;
    if (!(slopes[f] < 0.0) || !std::isfinite(slopes[f])) {
      falling = false;
    } else if (const double root = lo.u - values[f] / slopes[f]; root > newton) {
      newton = root;
      binding = f;
    }
  }
  if (falling && binding >= 0 && newton > lo.u && newton < hi.u) return newton;
  binding = -1;
  return 0.5 * (lo.u + hi.u);
}

/// Where A and B, linear over [lo, hi], are both <= 0: [start, end], start by the root of A
/// (by 0) or of B (by 1); start = inf where one stays positive.
struct LinearOverlap {
  double start = 0.0, end = 0.0;
  int by = -1;
};

LinearOverlap linearOverlap(const Level& lo, const Level& hi) {
  const double span = hi.u - lo.u;
  LinearOverlap o{lo.u, hi.u, -1};
  const auto clip = [&](double flo, double fhi, int which) {
    if (flo > 0.0 && fhi > 0.0) {
      o.start = kInf;
    } else if (flo > 0.0) {
      const double root = lo.u + span * flo / (flo - fhi);
      if (root >= o.start) o.start = root, o.by = which;  // >=: a root within rounding of lo
    } else if (fhi > 0.0) {
      o.end = std::min(o.end, lo.u + span * flo / (flo - fhi));
    }
  };
  clip(lo.A(), hi.A(), 0);
  clip(lo.B(), hi.B(), 1);
  return o;
}

/// R' and S apart over [lo, hi], which holds the level where they come closest: the normal, in
/// (u, w) and pointing from R' towards S, of a line between them.
Vector2d separatingNormal(const Level& lo, const Level& hi, const Polygon2& R, const Polygon2& S,
                          double U0, double U1) {
  const bool useLo = lo.H() <= hi.H();
  const Level& k = useLo ? lo : hi;
  const bool above = k.A() > 0.0;
  const double eps = 1e-12 * (1.0 + std::abs(U1 - U0));
  const bool rLeftEnd = lo.u <= R.umin + eps, sLeftEnd = lo.u <= S.umin + eps;
  const bool rRightEnd = hi.u >= R.umax - eps, sRightEnd = hi.u >= S.umax - eps;
  // Convex chain below (R's lower or S's lower) and concave chain above it.
  double vexLo = above ? lo.loR.slope : lo.loS.slope, vexHi = above ? hi.loR.slope : hi.loS.slope;
  double caveLo = above ? lo.hiS.slope : lo.hiR.slope, caveHi = above ? hi.hiS.slope : hi.hiR.slope;
  if (above ? rLeftEnd : sLeftEnd) vexLo = -kInf;
  if (above ? sLeftEnd : rLeftEnd) caveLo = kInf;
  if (above ? rRightEnd : sRightEnd) vexHi = kInf;
  if (above ? sRightEnd : rRightEnd) caveHi = -kInf;
  const double from = std::max(vexLo, caveHi), to = std::min(vexHi, caveLo);
  double slope = std::clamp(0.0, std::min(from, to), std::max(from, to));
  if (!std::isfinite(slope)) slope = 0.0;
  // above: R' on w >= line, S below.
  return above ? Vector2d(slope, -1.0) : Vector2d(-slope, 1.0);
}

/// The separating line of normal v (world, in the plane of e1 and e2) lifted to the plane
/// through it parallel to d: its unit normal and the sections' supporting vertices along it.
void liftSeparation(const PlacedStack& p, double x, const PlacedStack& q, double y,
                    const Vector3d& d, const Vector3d& v, SectionPairAnswer& out) {
  const Vector3d b = q.axis();
  Vector3d m = v - (v.dot(d) / b.dot(d)) * b;
  m.normalize();
  const SectionStack& sp = *p.stack;
  const SectionStack& sq = *q.stack;
  const Vector3d mp = p.rotation.transpose() * m, mq = q.rotation.transpose() * m;
  const int np = sp.numCrossings(out.slabP), nq = sq.numCrossings(out.slabQ);
  const auto heightP = [&](int k) { return mp.dot(sp.sectionVertex(out.slabP, k, x)); };
  const auto heightQ = [&](int k) { return -mq.dot(sq.sectionVertex(out.slabQ, k, y)); };
  out.crossingP = argmaxCyclic(np, heightP);
  out.crossingQ = argmaxCyclic(nq, heightQ);
  out.normal = m;
  out.supportP = heightP(out.crossingP) + m.dot(p.translation);
  out.supportQ = -heightQ(out.crossingQ) + m.dot(q.translation);
  out.collide = false;
}

}  // namespace

SectionPairAnswer collideSections(const PlacedStack& p, double x, const PlacedStack& q, double y,
                                  const Vector3d& d) {
  SectionPairAnswer out;
  const SectionStack& sp = *p.stack;
  const SectionStack& sq = *q.stack;
  x = std::clamp(x, sp.minHeight(), sp.maxHeight());
  y = std::clamp(y, sq.minHeight(), sq.maxHeight());
  out.slabP = sp.slabAt(x);
  out.slabQ = sq.slabAt(y);
  const Vector3d a = p.axis(), b = q.axis();
  const double ad = a.dot(d), bd = b.dot(d);
  Vector3d e1, e2;
  searchAxes(a, b, ad, e1, e2);
  const double yWorld = y + q.offset();
  thread_local VertexMemo memoR, memoS;
  Polygon2 R, S;
  makePolygon(projectedSection(p, x, out.slabP, d, b, e1, e2, yWorld, ad * bd < 0, memoR), R);
  makePolygon(planarSection(q, y, out.slabQ, e1, e2, memoS), S);
  const auto level = [&](double u) {
    out.chordSearches += 4;
    return Level{u, R.lower.at(u), R.upper.at(u), S.lower.at(u), S.upper.at(u)};
  };
  const auto setContact = [&](double u, double w) {
    out.collide = true;
    out.pointQ = u * e1 + w * e2 + yWorld * b;
    out.time = (a.dot(out.pointQ) - p.offset() - x) / ad;
    out.pointP = out.pointQ - out.time * d;
  };

  // Apart, R' and S are separated by a line n2 . z = c in (u, w): R' on the side <= cR, S >= cS.
  const auto separate = [&](const Vector2d& n2) {
    liftSeparation(p, x, q, y, d, e1 * n2.x() + e2 * n2.y(), out);
    return out;
  };
  const double U0 = std::max(R.umin, S.umin), U1 = std::min(R.umax, S.umax);
  if (U0 > U1) return separate(R.umin > S.umax ? Vector2d(-1.0, 0.0) : Vector2d(1.0, 0.0));
  Level lo = level(U0);
  if (lo.H() <= 0.0) {
    // The first level of the overlap: the leftmost vertex of R' or of S lies in the other.
    setContact(U0, std::max(lo.loR.w, lo.loS.w));
    setVertexFaces(lo, R, S, out);
    return out;
  }
  Level hi = level(U1);
  const auto edgeContact = [&](double u, double w, const Level& pieces, int which) {
    setContact(u, w);
    setEdgeFaces(pieces, which, R, S, out);
    return out;
  };
  // Search the level until [lo, hi] lies on one edge of each chain; H(lo) > 0 throughout and
  // the overlap, if any, starts in [lo, hi] (Newton's steps where safe, else bisection).
  for (int i = 0; i < 200 && !lo.samePieces(hi); ++i) {
    int binding = -1;
    const double next = nextLevel(lo, hi, binding);
    const bool useNewton = binding >= 0;
    if (!(next > lo.u && next < hi.u)) break;
    const Level m = level(next);
    if (m.H() <= 0.0) {
      if (useNewton) return edgeContact(m.u, binding == 0 ? m.loR.w : m.loS.w, m, binding);
      hi = m;
      continue;
    }
    // The positive one of A and B: where it falls, the overlap can only lie to the right.
    const double slope = m.A() > 0.0 ? m.loR.slope - m.hiS.slope : m.loS.slope - m.hiR.slope;
    (slope < 0.0 ? lo : hi) = m;
  }
  // A and B are linear over [lo, hi]: intersect their sublevel sets.
  const LinearOverlap overlap = linearOverlap(lo, hi);
  if (overlap.start <= overlap.end && overlap.by >= 0) {
    const double span = hi.u - lo.u;
    const double t = span > 0.0 ? (overlap.start - lo.u) / span : 0.0;
    const auto lerp = [&](double wlo, double whi) { return wlo + t * (whi - wlo); };
    return edgeContact(overlap.start,
                       overlap.by == 0 ? lerp(lo.loR.w, hi.loR.w) : lerp(lo.loS.w, hi.loS.w), lo,
                       overlap.by);
  }
  // No overlap: R' lies above S (A > 0) or below it (B > 0) at the level where they come
  // closest; a common slope of the two facing chains there gives the separating lines.
  return separate(separatingNormal(lo, hi, R, S, U0, U1));
}

}  // namespace hb
