#include "collision/warm_simplex.hpp"

namespace hb {

WarmSimplex keepSimplex(const MinkowskiDifference& difference, const Simplex& simplex) {
  WarmSimplex kept;
  const Eigen::Matrix3d& r = difference.rotationBtoA();
  const Eigen::Vector3d& t = difference.translationBinA();
  for (int i = 0; i < simplex.size; ++i) {
    kept.a[i] = simplex.points[i].a;
    kept.b[i] = r.transpose() * (simplex.points[i].b - t);
  }
  kept.size = simplex.size;
  return kept;
}

Simplex placeSimplex(const MinkowskiDifference& difference, const WarmSimplex& kept) {
  Simplex simplex;
  const Eigen::Matrix3d& r = difference.rotationBtoA();
  const Eigen::Vector3d& t = difference.translationBinA();
  for (int i = 0; i < kept.size; ++i) {
    const Eigen::Vector3d b = r * kept.b[i] + t;
    const Eigen::Vector3d w = kept.a[i] - b;
    if (simplex.contains(w)) continue;
    simplex.points[simplex.size++] = {w, kept.a[i], b};
  }
  return simplex;
}

}  // namespace hb
