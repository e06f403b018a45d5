#include "collision/polygon_touch.hpp"

#include <Eigen/Geometry>
#include <Eigen/LU>
#include <cmath>

namespace hb::cta {

using Eigen::Matrix3d;
using Eigen::Vector3d;

Touch touchPolygons(const std::array<Vector3d, 4>& fp, const Vector3d& np,
                    const std::array<Vector3d, 4>& fq, const Vector3d& nq, const Vector3d& d,
                    double eps) {
  Touch best;
  const auto within = [&](const std::array<Vector3d, 4>& poly, const Vector3d& n,
                          const Vector3d& z) {
    for (int i = 0; i < 4; ++i) {
      const Vector3d e = poly[(i + 1) % 4] - poly[i];
      if (e.squaredNorm() == 0.0) continue;
      if (n.dot(e.cross(z - poly[i])) < -eps * e.norm()) return false;
    }
    return true;
  };
  const auto offer = [&](double t, const Vector3d& onP, const Vector3d& n) {
    if (t < best.time) {
      best.time = t;
      best.pointP = onP;
      best.pointQ = onP + t * d;
      best.normals.assign(1, n);
    }
  };
  const double npd = np.dot(d), nqd = nq.dot(d);
  for (const Vector3d& v : fp)  // P's corner onto Q's face
    if (std::abs(nqd) > 1e-12) {
      const double t = nq.dot(fq[0] - v) / nqd;
      if (within(fq, nq, v + t * d)) offer(t, v, -nq);
    }
  for (const Vector3d& w : fq)  // Q's corner reached by P's face
    if (std::abs(npd) > 1e-12) {
      const double t = np.dot(w - fp[0]) / npd;
      if (within(fp, np, w - t * d)) offer(t, w - t * d, np);
    }
  for (int i = 0; i < 4; ++i) {
    const Vector3d ep = fp[(i + 1) % 4] - fp[i];
    for (int j = 0; j < 4; ++j) {
      const Vector3d eq = fq[(j + 1) % 4] - fq[j];
      Matrix3d m;
      m << ep, d, -eq;
      const double det = m.determinant();
      if (std::abs(det) <= 1e-14 * ep.norm() * eq.norm()) continue;
      const Vector3d st = m.inverse() * (fq[j] - fp[i]);
      if (st.x() < -1e-12 || st.x() > 1 + 1e-12 || st.z() < -1e-12 || st.z() > 1 + 1e-12) continue;
      offer(st.y(), fp[i] + st.x() * ep, ep.cross(eq).normalized());
    }
  }
  for (Vector3d& n : best.normals)
    if (n.dot(d) < 0.0) n = -n;
  return best;
}

}  // namespace hb::cta
