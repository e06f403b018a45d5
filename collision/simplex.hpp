#pragma once
// GJK's simplex: up to four support points of the Minkowski difference with their barycentric
// weights, and the projection of the origin onto its convex hull by signed volumes
// (Montanari, Petrinic, Barbieri, "Improving the GJK algorithm", ACM TOG 2017).

#include <array>

#include "collision/minkowski_difference.hpp"

namespace hb {

struct Simplex {
  std::array<SupportPoint, 4> points;
  std::array<double, 4> weights{};  // barycentric weights of the closest point, summing to 1
  int size = 0;

  /// Closest point of the simplex to the origin: sum weights[i] * points[i].w.
  Eigen::Vector3d closestPoint() const;
  /// Witness points on A and B: the same weights applied to the points of A and of B.
  Eigen::Vector3d witnessA() const;
  Eigen::Vector3d witnessB() const;
  /// Whether w is one of the simplex's points already (a support that cannot make progress).
  bool contains(const Eigen::Vector3d& w) const {
    for (int i = 0; i < size; ++i) {
      if (points[i].w == w) return true;
    }
    return false;
  }
};

/// Replaces `simplex` by the smallest sub-simplex whose hull contains the point closest to the
/// origin, sets its weights, and returns that point. Never produces NaN: degenerate (flat,
/// collinear, repeated) simplices fall back to their best lower-dimensional face.
Eigen::Vector3d projectOriginOnSimplex(Simplex& simplex);

}  // namespace hb
