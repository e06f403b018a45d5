#include "collision/shape_cast.hpp"

#include <cmath>
#include <limits>

#include "collision/gjk.hpp"
#include "collision/simplex.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;

// The ray cast's simplex keeps D's support points p_i; what is projected is x - p_i for the
// ray's current point x, so the projection is redone from them at every step. Returns the
// closest point to the origin of conv{x - p_i}, keeps the points it needs, and gives the same
// weights applied to their points of A and of B.
Vector3d project(Simplex& s, const Vector3d& x, Vector3d& onA, Vector3d& onB) {
  Simplex shifted;
  shifted.size = s.size;
  for (int i = 0; i < s.size; ++i) {
    shifted.points[i] = s.points[i];
    shifted.points[i].w = x - s.points[i].w;
  }
  const Vector3d v = projectOriginOnSimplex(shifted);
  s.size = shifted.size;
  for (int i = 0; i < shifted.size; ++i) {
    s.points[i] = shifted.points[i];
    s.points[i].w = s.points[i].a - s.points[i].b;
  }
  onA = shifted.witnessA();
  onB = shifted.witnessB();
  return v;
}

// A miss's plane. A unit m with m . u <= 0 and mu = min over D of m . d > 0 proves that no
// translation t >= 0 brings A onto B: m . (d - t u) >= mu. GJK's separating-axis test between
// the origin and K = D - {t u : 0 <= t <= reach} (support: D's, moved by -reach u when
// d . u < 0, A swept to the far end) finds an m for the long segment; its small component along
// u, if positive, is then removed, and the margin measured again on D. Returns false when no
// such m is found (a ray grazing D within rounding).
bool sweptSeparation(const MinkowskiDifference& d, const Vector3d& u, double reach,
                     int maxIterations, SupportHints hints, Vector3d& m, double& mu) {
  const auto support = [&](const Vector3d& dir) {
    SupportPoint s = d.supportFull(dir, hints);
    if (dir.dot(u) < 0.0) s.w -= reach * u;
    return s;
  };
  Simplex simplex;
  simplex.points[0] = support(u);
  simplex.weights[0] = 1.0;
  simplex.size = 1;
  Vector3d x = simplex.points[0].w;
  for (int k = 0; k < maxIterations && x.squaredNorm() > 0.0; ++k) {
    const SupportPoint s = support(-x);
    const double xs = x.dot(s.w);  // min over K of x . k
    // Keep improving until the plane's margin is at least half the distance it could have.
    if (xs > 0.0 && x.squaredNorm() - xs <= 0.5 * x.squaredNorm()) {
      m = x - std::max(0.0, x.dot(u)) * u;
      if (!(m.squaredNorm() > 0.0)) return false;
      m.normalize();
      mu = m.dot(d.supportFull(-m, hints).w);  // min over D of m . d
      return mu > 0.0;
    }
    simplex.points[simplex.size] = s;
    simplex.weights[simplex.size] = 0.0;
    ++simplex.size;
    x = projectOriginOnSimplex(simplex);
    if (simplex.size == 4) return false;  // the origin is inside K
  }
  return false;
}

// A miss found at `lambda`: the plane that proves it for the whole sweep (Miss), or, for a ray
// grazing D too closely to prove it, MaxIterations at lambda.
void proveMiss(const MinkowskiDifference& d, const Pose& poseA, const Vector3d& u, double reach,
               int maxIterations, SupportHints hints, double lambda, CastResult& result) {
  Vector3d m;
  double mu = 0.0;
  if (!sweptSeparation(d, u, reach, maxIterations, hints, m, mu)) {
    result.status = CastStatus::MaxIterations;
    result.distance = lambda;
    return;
  }
  result.status = CastStatus::Miss;
  result.distance = std::numeric_limits<double>::infinity();
  // min over A's sweep of m . y >= max over B of m . y + mu (A's frame).
  const double highestB = m.dot(d.supportFull(-m, hints).b);
  result.separatingPlane.normal = poseA.q * m;
  result.separatingPlane.offset = highestB + 0.5 * mu + result.separatingPlane.normal.dot(poseA.p);
}

// The witnesses and normal of a hit at result.distance (or of shapes overlapping from the start)
// from the ray's last simplex: onA, onB in A's frame, `lastNormal` the world normal of its last
// advance.
void finishContact(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB,
                   const Vector3d& r, const Vector3d& onA, const Vector3d& onB,
                   const Vector3d& lastNormal, const CastOptions& options, SupportHints hints,
                   CastResult& result) {
  const double lambda = result.distance;
  // A at its starting pose; at contact it has moved by lambda r.
  result.witnessA = poseA.apply(onA) + lambda * r;
  result.witnessB = poseA.apply(onB);
  if (lambda > 0.0) {
    // The normal of the last advance lags behind on curved shapes: the closest points just
    // before contact (A backed off by a few tolerances) give it exactly.
    const double backoff = std::min(lambda, 4.0 * options.tolerance);
    const Pose before{poseA.q, poseA.p + (lambda - backoff) * r};
    GjkOptions gjkOptions;
    gjkOptions.tolerance = 1e-4 * (options.tolerance * options.tolerance);
    const GjkResult g = gjk(a, before, b, poseB, -lastNormal, gjkOptions, hints);
    if (g.status == GjkStatus::Separated && g.separation.squaredNorm() > 0.0) {
      result.normal = -g.separation.normalized();
      result.witnessA = g.witnessA + backoff * r;
      result.witnessB = g.witnessB;
    } else {
      result.normal = lastNormal.normalized();
    }
  } else {
    // Overlapping from the start: the direction between the witnesses, or the cast's own.
    const Vector3d between = result.witnessB - result.witnessA;
    result.normal = between.squaredNorm() > 0.0 ? between.normalized() : r;
  }
}

}  // namespace

std::string_view toString(CastStatus s) {
  switch (s) {
    case CastStatus::Hit:
      return "hit";
    case CastStatus::Overlapping:
      return "overlapping";
    case CastStatus::Miss:
      return "miss";
    case CastStatus::MaxIterations:
      return "max_iterations";
    case CastStatus::InvalidInput:
      return "invalid_input";
  }
  return "unknown";
}

CastResult castShape(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB,
                     const Vector3d& direction, const CastOptions& options, SupportHints hints) {
  CastResult result;
  const Vector3d r = unitVector(direction);  // world
  if (!poseA.isValid() || !poseB.isValid() || r.isZero()) return result;
  const MinkowskiDifference d(a, poseA, b, poseB);
  const Vector3d u = -(poseA.q.conjugate() * r);  // the ray in D, A's frame
  const double tolerance2 = options.tolerance * options.tolerance;

  // x = lambda u is the ray's point; v = x minus the point of conv(simplex) nearest to it.
  double lambda = 0.0;
  Vector3d x = Vector3d::Zero();
  Vector3d normal = Vector3d::Zero();
  Simplex simplex;
  const SupportPoint start = d.supportFull(d.translationBinA(), hints);
  Vector3d v = x - start.w;
  Vector3d onA = start.a, onB = start.b;
  int k = 0;
  bool reached = false;
  for (; k < options.maxIterations; ++k) {
    if (v.squaredNorm() <= tolerance2) {
      reached = true;
      break;
    }
    const SupportPoint p = d.supportFull(v, hints);
    const Vector3d w = x - p.w;
    const double vw = v.dot(w);
    bool advanced = false;
    if (vw > 0.0) {
      const double vu = v.dot(u);
      if (vu >= 0.0) {
        // D lies behind a plane that the ray runs away from: A never touches B. The plane of
        // this step holds from here on; one for the whole sweep comes from the swept set.
        result.iterations = k + 1;
        result.hints = hints;
        // A segment long against the pair, short enough for the simplex's rounding.
        const double reach = 1e3 * (start.w.norm() + lambda + options.tolerance);
        proveMiss(d, poseA, u, reach, options.maxIterations, hints, lambda, result);
        return result;
      }
      lambda -= vw / vu;
      x = lambda * u;
      normal = v;
      advanced = true;
    }
    if (simplex.contains(p.w)) {
      if (!advanced) {  // nothing new: v is as short as it gets in double precision
        reached = true;
        break;
      }
    } else {
      simplex.points[simplex.size++] = p;
    }
    v = project(simplex, x, onA, onB);
    if (simplex.size == 4) {  // x inside the simplex, so inside D
      reached = true;
      ++k;
      break;
    }
  }
  result.iterations = k;
  result.hints = hints;
  result.distance = lambda;
  if (!reached) {
    result.status = CastStatus::MaxIterations;
    return result;
  }
  result.status = lambda > 0.0 ? CastStatus::Hit : CastStatus::Overlapping;
  finishContact(a, poseA, b, poseB, r, onA, onB, poseA.q * normal, options, hints, result);
  return result;
}

}  // namespace hb
