#pragma once
// Pose: where a body or a shape sits in the world. One representation, used by every module that
// may include collision/: a unit quaternion q (body -> world rotation) and a position p (metres).

#include <Eigen/Geometry>
#include <limits>

namespace hb {

/// q * v for a unit quaternion q, with the operations of Eigen's own (the same bits), but
/// always inlined: GJK rotates three vectors per query, and a call per rotation was a tenth of a
/// query that a plane separates at the first support (docs/gjk-benchmark.md).
[[gnu::always_inline]] inline Eigen::Vector3d rotate(const Eigen::Quaterniond& q,
                                                     const Eigen::Vector3d& v) {
  const double x = q.x(), y = q.y(), z = q.z(), w = q.w();
  // uv = 2 (q.vec x v); the result v + w uv + q.vec x uv.
  double u0 = y * v.z() - z * v.y();
  double u1 = z * v.x() - x * v.z();
  double u2 = x * v.y() - y * v.x();
  u0 += u0;
  u1 += u1;
  u2 += u2;
  return {v.x() + w * u0 + (y * u2 - z * u1), v.y() + w * u1 + (z * u0 - x * u2),
          v.z() + w * u2 + (x * u1 - y * u0)};
}

struct Pose {
  Eigen::Quaterniond q = Eigen::Quaterniond::Identity();
  Eigen::Vector3d p = Eigen::Vector3d::Zero();

  static Pose identity() { return {}; }
  static Pose translation(const Eigen::Vector3d& t) { return {Eigen::Quaterniond::Identity(), t}; }

  /// Maps a point from the local frame to the world frame.
  Eigen::Vector3d apply(const Eigen::Vector3d& x) const { return rotate(q, x) + p; }
  /// Maps a world point into the local frame.
  Eigen::Vector3d applyInverse(const Eigen::Vector3d& x) const {
    return rotate(q.conjugate(), x - p);
  }
  Pose inverse() const {
    const Eigen::Quaterniond qi = q.conjugate();
    return {qi, -rotate(qi, p)};
  }
  /// Composition: (this * other).apply(x) == this->apply(other.apply(x)).
  Pose operator*(const Pose& o) const { return {q * o.q, rotate(q, o.p) + p}; }
  Eigen::Matrix3d rotation() const { return q.toRotationMatrix(); }

  /// True when every coefficient is finite and q has unit norm (within 1e-6).
  bool isValid() const {
    // x * 0 is 0 for a finite x and NaN otherwise, and NaN fails every comparison: one sum
    // checks all seven coefficients without a branch each (GJK checks two poses per query).
    const double finite = q.w() * 0.0 + q.x() * 0.0 + q.y() * 0.0 + q.z() * 0.0 + p.x() * 0.0 +
                          p.y() * 0.0 + p.z() * 0.0;
    return (finite == 0.0) & (std::abs(q.squaredNorm() - 1.0) < 1e-6);
  }
};

/// v scaled to unit length, also where its squared norm would overflow (components beyond
/// 1e154) or fall into the denormals (below 1e-154): scaled by its largest component first.
/// Zero for a zero or non-finite v.
inline Eigen::Vector3d unitVector(const Eigen::Vector3d& v) {
  const double largest = v.cwiseAbs().maxCoeff();
  if (!(largest > 0.0 && largest <= std::numeric_limits<double>::max())) {
    return Eigen::Vector3d::Zero();
  }
  const Eigen::Vector3d scaled = v / largest;
  return scaled / scaled.norm();
}

}  // namespace hb
