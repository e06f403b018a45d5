// Projection of the origin onto a simplex of up to four points by signed volumes
// (Montanari, Petrinic, Barbieri, ACM TOG 2017). Barycentric weights come from ratios of signed
// lengths, areas and volumes; when a weight is not positive the origin projects onto a face
// opposite that vertex, and every such face is examined (no assumption about which vertex is
// newest, which matters for the accelerated variants whose support points are not taken along
// -x_k). Degenerate simplices (repeated, collinear, flat) fall through to their faces.

#include "collision/simplex.hpp"

#include <cmath>
#include <limits>

namespace hb {
namespace {

using Eigen::Vector3d;
using Weights = std::array<double, 4>;

inline bool sameSign(double a, double b) {
  return (a > 0.0 && b > 0.0) || (a < 0.0 && b < 0.0);
}

// Weights on points i, j (others zero); returns the squared distance of the projection.
double projectSegment(const std::array<Vector3d, 4>& s, int i, int j, Weights& w) {
  w = {0.0, 0.0, 0.0, 0.0};
  const Vector3d& a = s[i];
  const Vector3d t = s[j] - a;
  const double tt = t.squaredNorm();
  const double num = -a.dot(t);
  if (tt <= 0.0 || num <= 0.0) {
    w[i] = 1.0;
    return a.squaredNorm();
  }
  if (num >= tt) {
    w[j] = 1.0;
    return s[j].squaredNorm();
  }
  const double lambda = num / tt;
  w[i] = 1.0 - lambda;
  w[j] = lambda;
  return (a + lambda * t).squaredNorm();
}

// Twice the signed area of (u, v, w) projected on the coordinate plane (x, y).
inline double area2(const Vector3d& u, const Vector3d& v, const Vector3d& w, int x, int y) {
  return (v[x] - u[x]) * (w[y] - u[y]) - (v[y] - u[y]) * (w[x] - u[x]);
}

double projectTriangle(const std::array<Vector3d, 4>& s, int i, int j, int k, Weights& w) {
  const Vector3d& a = s[i];
  const Vector3d& b = s[j];
  const Vector3d& c = s[k];
  const Vector3d n = (b - a).cross(c - a);
  const double nn = n.squaredNorm();
  const double scale = std::max((b - a).squaredNorm(), (c - a).squaredNorm());
  const int idx[3] = {i, j, k};
  bool inside = false;
  double lambda[3] = {0.0, 0.0, 0.0};
  if (nn > 1e-24 * scale * scale) {
    // Origin projected on the triangle's plane; areas measured on the coordinate plane where the
    // triangle's projection is largest, which keeps the ratios well conditioned.
    const Vector3d p = n * (a.dot(n) / nn);
    int axis = 0;
    n.cwiseAbs().maxCoeff(&axis);
    const int x = (axis + 1) % 3;
    const int y = (axis + 2) % 3;
    const double mu = n[axis];  // = area2(a, b, c, x, y): the normal's largest component
    const double ca = area2(p, b, c, x, y);
    const double cb = area2(a, p, c, x, y);
    const double cc = area2(a, b, p, x, y);
    if (sameSign(mu, ca) && sameSign(mu, cb) && sameSign(mu, cc)) {
      lambda[0] = ca / mu;
      lambda[1] = cb / mu;
      lambda[2] = cc / mu;
      inside = true;
    } else {
      // Only edges opposite a non-positive weight can hold the closest point.
      const double c3[3] = {ca, cb, cc};
      double best = std::numeric_limits<double>::infinity();
      for (int m = 0; m < 3; ++m) {
        if (sameSign(mu, c3[m])) continue;
        Weights edge;
        const double d2 = projectSegment(s, idx[(m + 1) % 3], idx[(m + 2) % 3], edge);
        if (d2 < best) {
          best = d2;
          w = edge;
        }
      }
      return best;
    }
  }
  if (inside) {
    w = {0.0, 0.0, 0.0, 0.0};
    Vector3d x = Vector3d::Zero();
    for (int m = 0; m < 3; ++m) {
      w[idx[m]] = lambda[m];
      x += lambda[m] * s[idx[m]];
    }
    return x.squaredNorm();
  }
  // Degenerate (collinear or repeated points): the best of the three edges.
  double best = std::numeric_limits<double>::infinity();
  for (int m = 0; m < 3; ++m) {
    Weights edge;
    const double d2 = projectSegment(s, idx[m], idx[(m + 1) % 3], edge);
    if (d2 < best) {
      best = d2;
      w = edge;
    }
  }
  return best;
}

// Six times the signed volume of the tetrahedron (a, b, c, d).
inline double volume6(const Vector3d& a, const Vector3d& b, const Vector3d& c, const Vector3d& d) {
  return (b - a).dot((c - a).cross(d - a));
}

double projectTetrahedron(const std::array<Vector3d, 4>& s, Weights& w) {
  const Vector3d o = Vector3d::Zero();
  const double mu = volume6(s[0], s[1], s[2], s[3]);
  const double c[4] = {volume6(o, s[1], s[2], s[3]), volume6(s[0], o, s[2], s[3]),
                       volume6(s[0], s[1], o, s[3]), volume6(s[0], s[1], s[2], o)};
  // A (nearly) flat tetrahedron's volume is rounding noise: its signs mean nothing, so only its
  // faces are examined.
  double scale = 0.0;
  for (int m = 1; m < 4; ++m) scale = std::max(scale, (s[m] - s[0]).squaredNorm());
  const bool flat = std::abs(mu) <= 1e-12 * scale * std::sqrt(scale);
  if (!flat && sameSign(mu, c[0]) && sameSign(mu, c[1]) && sameSign(mu, c[2]) &&
      sameSign(mu, c[3])) {
    for (int m = 0; m < 4; ++m) w[m] = c[m] / mu;
    return 0.0;  // the origin is inside
  }
  // Faces opposite a non-positive weight (all four when the tetrahedron is flat).
  static constexpr int kFace[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
  double best = std::numeric_limits<double>::infinity();
  for (int m = 0; m < 4; ++m) {
    if (!flat && sameSign(mu, c[m])) continue;
    Weights face;
    const double d2 = projectTriangle(s, kFace[m][0], kFace[m][1], kFace[m][2], face);
    if (d2 < best) {
      best = d2;
      w = face;
    }
  }
  return best;
}

}  // namespace

Eigen::Vector3d Simplex::closestPoint() const {
  Vector3d x = Vector3d::Zero();
  for (int i = 0; i < size; ++i) x += weights[i] * points[i].w;
  return x;
}

Eigen::Vector3d Simplex::witnessA() const {
  Vector3d x = Vector3d::Zero();
  for (int i = 0; i < size; ++i) x += weights[i] * points[i].a;
  return x;
}

Eigen::Vector3d Simplex::witnessB() const {
  Vector3d x = Vector3d::Zero();
  for (int i = 0; i < size; ++i) x += weights[i] * points[i].b;
  return x;
}

Eigen::Vector3d projectOriginOnSimplex(Simplex& simplex) {
  std::array<Vector3d, 4> w;
  for (int i = 0; i < simplex.size; ++i) w[i] = simplex.points[i].w;
  Weights lambda = {0.0, 0.0, 0.0, 0.0};
  switch (simplex.size) {
    case 1:
      lambda[0] = 1.0;
      break;
    case 2:
      projectSegment(w, 0, 1, lambda);
      break;
    case 3:
      projectTriangle(w, 0, 1, 2, lambda);
      break;
    case 4:
      projectTetrahedron(w, lambda);
      break;
    default:
      return Vector3d::Zero();
  }
  // Keep only the vertices with a positive weight: the smallest set expressing the projection.
  int kept = 0;
  for (int i = 0; i < simplex.size; ++i) {
    if (lambda[i] > 0.0) {
      if (kept != i) simplex.points[kept] = simplex.points[i];
      simplex.weights[kept] = lambda[i];
      ++kept;
    }
  }
  if (kept == 0) {  // cannot happen with finite input; keep the first point rather than nothing
    simplex.weights[0] = 1.0;
    kept = 1;
  }
  simplex.size = kept;
  return simplex.closestPoint();
}

}  // namespace hb
