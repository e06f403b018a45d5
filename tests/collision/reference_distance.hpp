#pragma once
// Independent slow reference for the signed distance of two convex polytopes: the Minkowski
// difference of their vertex sets is built explicitly with Qhull (all pairwise differences) and
// the origin is located against it face by face. Positive: distance; negative: penetration depth.

#include <Eigen/Core>
#include <vector>

#include "collision/convex_hull.hpp"
#include "collision/pose.hpp"

namespace hb::test {

inline double pointSegmentDistance2(const Eigen::Vector3d& p, const Eigen::Vector3d& a,
                                    const Eigen::Vector3d& b) {
  const Eigen::Vector3d t = b - a;
  const double tt = t.squaredNorm();
  double u = tt > 0 ? (p - a).dot(t) / tt : 0.0;
  u = std::clamp(u, 0.0, 1.0);
  return (a + u * t - p).squaredNorm();
}

/// Signed distance between conv(worldA) and conv(worldB).
inline double referenceSignedDistance(const std::vector<Eigen::Vector3d>& worldA,
                                      const std::vector<Eigen::Vector3d>& worldB) {
  std::vector<Eigen::Vector3d> diff;
  diff.reserve(worldA.size() * worldB.size());
  for (const auto& a : worldA)
    for (const auto& b : worldB) diff.push_back(a - b);
  const ConvexHull d = ConvexHull::build(diff);
  double minOffset = 1e300;
  bool inside = true;
  for (int f = 0; f < d.numFaces(); ++f) {
    minOffset = std::min(minOffset, d.faceOffset(f));
    if (d.faceOffset(f) < 0) inside = false;
  }
  if (inside) return -minOffset;
  // Outside: the closest point lies on a face the origin sees; polygon or its boundary.
  double best = 1e300;
  const Eigen::Vector3d origin = Eigen::Vector3d::Zero();
  for (int f = 0; f < d.numFaces(); ++f) {
    if (d.faceOffset(f) >= 0) continue;
    const Eigen::Vector3d n = d.faceNormal(f);
    const Eigen::Vector3d p = n * d.faceOffset(f);  // origin projected on the face plane
    const auto face = d.face(f);
    bool inPolygon = true;
    for (size_t i = 0; i < face.size(); ++i) {
      const Eigen::Vector3d& a = d.vertices()[face[i]];
      const Eigen::Vector3d& b = d.vertices()[face[(i + 1) % face.size()]];
      if ((b - a).cross(p - a).dot(n) < 0) inPolygon = false;
    }
    if (inPolygon) {
      best = std::min(best, d.faceOffset(f) * d.faceOffset(f));
    } else {
      for (size_t i = 0; i < face.size(); ++i) {
        best = std::min(best, pointSegmentDistance2(origin, d.vertices()[face[i]],
                                                    d.vertices()[face[(i + 1) % face.size()]]));
      }
    }
  }
  return std::sqrt(best);
}

inline std::vector<Eigen::Vector3d> transformed(const std::vector<Eigen::Vector3d>& pts,
                                                const Pose& pose) {
  std::vector<Eigen::Vector3d> out;
  for (const auto& p : pts) out.push_back(pose.apply(p));
  return out;
}

}  // namespace hb::test
