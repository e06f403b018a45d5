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

Polygon2 makePolygon(const Section2& s) {
  Polygon2 p;
  p.s = s;
  const int kmax = argmaxCyclic(s.m, [&](int k) { return s.at(k).x(); });
  const int kmin = argmaxCyclic(s.m, [&](int k) { return -s.at(k).x(); });
  p.umin = s.at(kmin).x();
  p.umax = s.at(kmax).x();
  p.lower = {&p.s, kmin, ((kmax - kmin) % s.m + s.m) % s.m, true};
  p.upper = {&p.s, kmax, ((kmin - kmax) % s.m + s.m) % s.m, false};
  return p;
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
  // u grows with the time at which R's points reach S's plane.
  const Vector3d aFlat = a - a.dot(b) * b;
  const Vector3d e1 = (ad > 0 ? 1.0 : -1.0) * aFlat.normalized();
  const Vector3d e2 = b.cross(e1);
  const double yWorld = y + q.offset();

  Section2 r2;
  r2.stack = &sp;
  r2.slab = out.slabP;
  r2.height = x;
  r2.m = sp.numCrossings(out.slabP);
  r2.reversed = ad * bd < 0;
  {
    // r -> r + ((yWorld - b . r) / (b . d)) d, then (e1, e2): linear in r's hull coordinates.
    const Vector3d eu = e1 - (e1.dot(d) / bd) * b, ew = e2 - (e2.dot(d) / bd) * b;
    r2.U = p.rotation.transpose() * eu;
    r2.W = p.rotation.transpose() * ew;
    r2.cu = eu.dot(p.translation) + e1.dot(d) * yWorld / bd;
    r2.cw = ew.dot(p.translation) + e2.dot(d) * yWorld / bd;
  }
  thread_local VertexMemo memoR, memoS;
  memoR.reset(r2.m);
  r2.memo = &memoR;
  Section2 s2;
  s2.stack = &sq;
  s2.slab = out.slabQ;
  s2.height = y;
  s2.m = sq.numCrossings(out.slabQ);
  memoS.reset(s2.m);
  s2.memo = &memoS;
  s2.U = q.rotation.transpose() * e1;
  s2.W = q.rotation.transpose() * e2;
  s2.cu = e1.dot(q.translation);
  s2.cw = e2.dot(q.translation);

  Polygon2 R = makePolygon(r2);
  Polygon2 S = makePolygon(s2);
  R.lower.s = R.upper.s = &R.s;
  S.lower.s = S.upper.s = &S.s;
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

  // Separation of R' and S by a line n2 . z = c in (u, w): R' on the side <= cR, S >= cS.
  Vector2d n2(1.0, 0.0);
  const double U0 = std::max(R.umin, S.umin), U1 = std::min(R.umax, S.umax);
  bool separated = false;
  if (U0 > U1) {
    separated = true;
    n2 = R.umin > S.umax ? Vector2d(-1.0, 0.0) : Vector2d(1.0, 0.0);
  } else {
    Level lo = level(U0);
    if (lo.H() <= 0.0) {
      // The first level of the overlap: the leftmost vertex of R' or of S lies in the other.
      if (R.umin >= S.umin) {
        const int k = R.lower.start + lo.loR.edge;
        setContact(U0, std::max(lo.loR.w, lo.loS.w));
        out.kind = SectionContactKind::VertexP;
        out.faceP[0] = R.s.edgeFace(k);
        out.faceP[1] = R.s.edgeFace((k + R.s.m - 1) % R.s.m);
      } else {
        const int k = S.lower.start + lo.loS.edge;
        setContact(U0, std::max(lo.loR.w, lo.loS.w));
        out.kind = SectionContactKind::VertexQ;
        out.faceQ[0] = S.s.edgeFace(k);
        out.faceQ[1] = S.s.edgeFace((k + S.s.m - 1) % S.s.m);
      }
      return out;
    }
    Level hi = level(U1);
    // An edge contact at level u: A's root (0: R's lower edge on S's upper one) or B's (1: S's
    // lower edge on R's upper one), the edges those of `pieces`.
    const auto edgeContact = [&](double u, double w, const Level& pieces, int which) {
      setContact(u, w);
      out.kind = SectionContactKind::Edge;
      out.sideP = which == 0 ? R.s.edgeSide(R.lower.start + pieces.loR.edge)
                             : R.s.edgeSide(R.upper.start + pieces.hiR.edge);
      out.sideQ = which == 0 ? S.s.edgeSide(S.upper.start + pieces.hiS.edge)
                             : S.s.edgeSide(S.lower.start + pieces.loS.edge);
      out.faceP[0] = sp.sideFace(out.slabP, out.sideP);
      out.faceQ[0] = sq.sideFace(out.slabQ, out.sideQ);
      return out;
    };
    // Search the level until [lo, hi] lies on one edge of each chain; H(lo) > 0 throughout and
    // the overlap, if any, starts in [lo, hi]. While every positive one of A and B falls at lo,
    // Newton's step from lo is safe: a convex function lies above its tangent, so the tangents'
    // roots come no later than the overlap, and a root that lands in it is its first level.
    // Otherwise bisect.
    for (int i = 0; i < 200 && !lo.samePieces(hi); ++i) {
      double next = 0.5 * (lo.u + hi.u);
      double newton = lo.u;
      int binding = -1;
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
      const bool useNewton = falling && binding >= 0 && newton > lo.u && newton < hi.u;
      if (useNewton) next = newton;
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
    const double span = hi.u - lo.u;
    double start = lo.u, end = hi.u;
    int startBy = -1;  // 0: A's root, 1: B's root
    const auto clip = [&](double flo, double fhi, int which) {
      if (flo > 0.0 && fhi > 0.0) {
        start = kInf;
      } else if (flo > 0.0) {
        const double root = lo.u + span * flo / (flo - fhi);
        if (root >= start) start = root, startBy = which;  // >=: a root within rounding of lo
      } else if (fhi > 0.0) {
        end = std::min(end, lo.u + span * flo / (flo - fhi));
      }
    };
    clip(lo.A(), hi.A(), 0);
    clip(lo.B(), hi.B(), 1);
    if (start <= end && startBy >= 0) {
      const double t = span > 0.0 ? (start - lo.u) / span : 0.0;
      const auto lerp = [&](double wlo, double whi) { return wlo + t * (whi - wlo); };
      return edgeContact(start, startBy == 0 ? lerp(lo.loR.w, hi.loR.w) : lerp(lo.loS.w, hi.loS.w),
                         lo, startBy);
    }
    // No overlap: R' lies above S (A > 0) or below it (B > 0) at the level where they come
    // closest; a common slope of the two facing chains there gives the separating lines.
    separated = true;
    const bool useLo = lo.H() <= hi.H();
    const Level& k = useLo ? lo : hi;
    const bool above = k.A() > 0.0;
    const double eps = 1e-12 * (1.0 + std::abs(U1 - U0));
    const bool rLeftEnd = lo.u <= R.umin + eps, sLeftEnd = lo.u <= S.umin + eps;
    const bool rRightEnd = hi.u >= R.umax - eps, sRightEnd = hi.u >= S.umax - eps;
    // Convex chain below (R's lower or S's lower) and concave chain above it.
    double vexLo = above ? lo.loR.slope : lo.loS.slope, vexHi = above ? hi.loR.slope : hi.loS.slope;
    double caveLo = above ? lo.hiS.slope : lo.hiR.slope,
           caveHi = above ? hi.hiS.slope : hi.hiR.slope;
    if (above ? rLeftEnd : sLeftEnd) vexLo = -kInf;
    if (above ? sLeftEnd : rLeftEnd) caveLo = kInf;
    if (above ? rRightEnd : sRightEnd) vexHi = kInf;
    if (above ? sRightEnd : rRightEnd) caveHi = -kInf;
    const double from = std::max(vexLo, caveHi), to = std::min(vexHi, caveLo);
    double slope = std::clamp(0.0, std::min(from, to), std::max(from, to));
    if (!std::isfinite(slope)) slope = 0.0;
    // above: R' on w >= line, S below; the normal points from R' towards S.
    n2 = above ? Vector2d(slope, -1.0) : Vector2d(-slope, 1.0);
  }

  // Lift the line to the plane through it parallel to d, and find the supporting vertices.
  if (separated) {
    const Vector3d v = n2.x() * e1 + n2.y() * e2;
    Vector3d m = v - (v.dot(d) / bd) * b;
    m.normalize();
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
  return out;
}

}  // namespace hb
