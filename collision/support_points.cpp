#include "collision/support_points.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "collision/convex_hull.hpp"
#include "collision/portable_math.hpp"

namespace hb {

namespace {

using Eigen::Matrix3d;
using Eigen::Vector2d;
using Eigen::Vector3d;

void requireBeta(double beta) {
  if (!(std::isfinite(beta) && beta >= 2.0)) {
    throw std::invalid_argument(
        "support_points beta must be >= 2 (a twice differentiable "
        "support), got " +
        std::to_string(beta));
  }
}

/// h(x) = (sum max(p . x, 0)^beta)^(1/beta) over points of dimension N, scaled by the largest
/// p . x so that large beta neither overflows nor underflows.
template <int N>
struct Prescribed {
  double h = 0.0;
  Eigen::Matrix<double, N, 1> gradient = Eigen::Matrix<double, N, 1>::Zero();
  Eigen::Matrix<double, N, N> hessian = Eigen::Matrix<double, N, N>::Zero();
};

template <int N>
Prescribed<N> prescribed(const std::vector<Eigen::Matrix<double, N, 1>>& points,
                         const Eigen::Matrix<double, N, 1>& x, double beta, bool withHessian) {
  Prescribed<N> out;
  double top = 0.0;
  for (const auto& p : points) top = std::max(top, p.dot(x));
  if (!(top > 0.0)) return out;
  double sum = 0.0;
  Eigen::Matrix<double, N, 1> g = Eigen::Matrix<double, N, 1>::Zero();
  Eigen::Matrix<double, N, N> outer = Eigen::Matrix<double, N, N>::Zero();
  for (const auto& p : points) {
    const double t = p.dot(x) / top;
    if (t <= 0.0) continue;
    const double t2 = portable::pow(t, beta - 2.0);
    sum += t2 * t * t;
    g += (t2 * t) * p;
    if (withHessian) outer += t2 * p * p.transpose();
  }
  // h = top S^(1/beta); grad = S^(1/beta - 1) G; Hess = ((1 - beta) S^(1/beta - 2) G G^T +
  // (beta - 1) S^(1/beta - 1) sum t^(beta-2) p p^T) / top.
  const double s1 = portable::pow(sum, 1.0 / beta - 1.0);
  out.h = top * sum * s1;
  out.gradient = s1 * g;
  if (withHessian) {
    out.hessian = ((1.0 - beta) * s1 / sum * g * g.transpose() + (beta - 1.0) * s1 * outer) / top;
  }
  return out;
}

}  // namespace

SupportPoints::SupportPoints(std::vector<Vector3d> points, double beta)
    : points_(std::move(points)), beta_(beta) {
  requireBeta(beta);
  if (points_.size() < 4) throw std::invalid_argument("support_points needs at least 4 points");
  for (const Vector3d& p : points_) {
    if (!p.allFinite()) throw std::invalid_argument("support_points: a non-finite coordinate");
  }
  const ConvexHull hull = ConvexHull::build(points_);  // throws HullError when flat
  for (int f = 0; f < hull.numFaces(); ++f) {
    if (!(hull.faceOffset(f) > 0.0)) {
      throw std::invalid_argument(
          "support_points: the origin (the body's reference point) must "
          "lie strictly inside the points' hull");
    }
  }
}

SupportPoints SupportPoints::revolution(const std::vector<Vector2d>& profile, double beta,
                                        double gamma) {
  requireBeta(beta);
  if (!(std::isfinite(gamma) && gamma > 0.0)) {
    throw std::invalid_argument("support_points gamma must be > 0, got " + std::to_string(gamma));
  }
  if (profile.size() < 2) throw std::invalid_argument("a profile needs at least 2 points");
  SupportPoints s;
  s.beta_ = beta;
  s.gamma_ = gamma;
  s.revolution_ = true;
  s.profile_ = profile;
  for (const Vector2d& p : profile) {
    if (!p.allFinite() || p.x() < 0.0) {
      throw std::invalid_argument("a profile point needs a finite radius >= 0 and height");
    }
    s.mirrored_.push_back(p);
    if (p.x() > 0.0) s.mirrored_.emplace_back(-p.x(), p.y());
  }
  // The origin strictly inside the mirrored polygon: every direction of the plane has a point
  // in front. Checked on the edges' normals of its hull (a fine sampling is enough in 2-D).
  for (int i = 0; i < 360; ++i) {
    const double angle = 2.0 * M_PI * i / 360.0;
    const Vector2d u(portable::cos(angle), portable::sin(angle));
    double best = -1.0;
    for (const Vector2d& p : s.mirrored_) best = std::max(best, p.dot(u));
    if (!(best > 0.0)) {
      throw std::invalid_argument("support_points: the profile must surround the origin");
    }
  }
  // The body's points, for bounds and meshes: the profile swept around the axis.
  for (const Vector2d& p : profile)
    for (int k = 0; k < 16; ++k) {
      const double angle = 2.0 * M_PI * k / 16.0;
      s.points_.emplace_back(p.x() * portable::cos(angle), p.x() * portable::sin(angle), p.y());
    }
  return s;
}

SupportValue SupportPoints::evaluateProfile(const Vector2d& r) const {
  const Prescribed<2> p = prescribed<2>(mirrored_, r, beta_, true);
  SupportValue out;
  out.h = p.h;
  out.gradient.head<2>() = p.gradient;
  out.hessian.topLeftCorner<2, 2>() = p.hessian;
  return out;
}

SupportValue SupportPoints::evaluate(const Vector3d& x) const {
  if (!revolution_) {
    const Prescribed<3> p = prescribed<3>(points_, x, beta_, true);
    return {p.h, p.gradient, p.hessian};
  }
  // h(x) = H(rho(x), z) with rho = sqrt(x^2 + y^2 + gamma z^2).
  const Vector3d dx(x.x(), x.y(), gamma_ * x.z());
  const double rho = std::sqrt(x.x() * x.x() + x.y() * x.y() + gamma_ * x.z() * x.z());
  const SupportValue H = evaluateProfile(Vector2d(rho, x.z()));
  const Vector3d drho = dx / rho;
  const Vector3d dz = Vector3d::UnitZ();
  Matrix3d d2rho = Matrix3d::Identity();
  d2rho(2, 2) = gamma_;
  d2rho = (d2rho - drho * drho.transpose()) / rho;
  SupportValue out;
  out.h = H.h;
  out.gradient = H.gradient.x() * drho + H.gradient.y() * dz;
  out.hessian = H.hessian(0, 0) * drho * drho.transpose() +
                H.hessian(0, 1) * (drho * dz.transpose() + dz * drho.transpose()) +
                H.hessian(1, 1) * dz * dz.transpose() + H.gradient.x() * d2rho;
  return out;
}

Vector3d SupportPoints::supportPoint(const Vector3d& x) const {
  if (!revolution_) return prescribed<3>(points_, x, beta_, false).gradient;
  // GJK's hot path: the chain rule's first order only, without the profile's Hessian.
  const double rho = std::sqrt(x.x() * x.x() + x.y() * x.y() + gamma_ * x.z() * x.z());
  const Eigen::Vector2d g = prescribed<2>(mirrored_, Vector2d(rho, x.z()), beta_, false).gradient;
  return g.x() * Vector3d(x.x(), x.y(), gamma_ * x.z()) / rho + g.y() * Vector3d::UnitZ();
}

}  // namespace hb
