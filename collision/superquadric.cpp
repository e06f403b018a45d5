#include "collision/superquadric.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "collision/portable_math.hpp"

namespace hb {

namespace {

using Eigen::Matrix2d;
using Eigen::Matrix3d;
using Eigen::Vector2d;
using Eigen::Vector3d;

/// g(u, v) = (|u|^q + |v|^q)^(1/q) with its gradient and Hessian, computed on (u, v) scaled by
/// their largest magnitude so that large q neither overflows nor underflows.
struct PNorm {
  double value = 0.0;
  Vector2d gradient = Vector2d::Zero();
  Matrix2d hessian = Matrix2d::Zero();
};

PNorm pnorm(double u, double v, double q) {
  PNorm out;
  const double m = std::max(std::abs(u), std::abs(v));
  if (!(m > 0.0)) return out;
  const double au = std::abs(u) / m, av = std::abs(v) / m;
  const double su = u < 0.0 ? -1.0 : 1.0, sv = v < 0.0 ? -1.0 : 1.0;
  // Three powers; the others follow from them (g^(1-q) = g / S with S = g^q, |u|^(q-1) =
  // |u|^q / |u|), as pow is the costly part of the support.
  const double pu = portable::pow(au, q), pv = portable::pow(av, q);
  const double sum = pu + pv;
  const double g = portable::pow(sum, 1.0 / q);  // in [1, 2^(1/q)]
  out.value = m * g;
  // Degree 0 in (u, v): d g / d u = sign(u) |u|^(q-1) g^(1-q).
  const double g1q = g / sum;
  const double du = au > 0.0 ? pu / au : 0.0;
  const double dv = av > 0.0 ? pv / av : 0.0;
  out.gradient = {su * du * g1q, sv * dv * g1q};
  // Degree -1: d2g/du2 = (q-1) |u|^(q-2) |v|^q g^(1-2q), d2g/dudv = -(q-1) s_u s_v
  // |u|^(q-1) |v|^(q-1) g^(1-2q). |u|^(q-2) is unbounded at u = 0 when q < 2 (alpha < 1),
  // where the support is not twice differentiable; it is floored there.
  const double g12q = g1q / sum / m;
  constexpr double kFloor = 1e-12;
  const auto powQ2 = [&](double a, double aq) {
    return a >= kFloor ? aq / (a * a) : portable::pow(kFloor, q - 2.0);
  };
  out.hessian(0, 0) = (q - 1.0) * powQ2(au, pu) * pv * g12q;
  out.hessian(1, 1) = (q - 1.0) * powQ2(av, pv) * pu * g12q;
  out.hessian(0, 1) = out.hessian(1, 0) = -(q - 1.0) * su * sv * du * dv * g12q;
  return out;
}

void requireExponent(double alpha, const char* name) {
  if (!(alpha > 0.0 && alpha < 2.0)) {
    throw std::invalid_argument(std::string("superquadric ") + name +
                                " must be in (0, 2) (strictly convex), got " +
                                std::to_string(alpha));
  }
}

}  // namespace

Superquadric::Superquadric(const Vector3d& scales, double alpha1, double alpha2)
    : scales_(scales), alpha1_(alpha1), alpha2_(alpha2) {
  for (int i = 0; i < 3; ++i) {
    if (!(std::isfinite(scales[i]) && scales[i] > 0.0)) {
      throw std::invalid_argument("superquadric radii must be finite and > 0");
    }
  }
  requireExponent(alpha1, "alpha1");
  requireExponent(alpha2, "alpha2");
  q1_ = 2.0 / (2.0 - alpha1);
  q2_ = 2.0 / (2.0 - alpha2);
}

double Superquadric::implicit(const Vector3d& p) const {
  const double xy = portable::pow(std::abs(p.x() / scales_.x()), 2.0 / alpha2_) +
                    portable::pow(std::abs(p.y() / scales_.y()), 2.0 / alpha2_);
  return portable::pow(xy, alpha2_ / alpha1_) +
         portable::pow(std::abs(p.z() / scales_.z()), 2.0 / alpha1_) - 1.0;
}

std::vector<Vector3d> Superquadric::surfacePoints(int rings, int segments, double offset) const {
  const auto signedPow = [](double v, double e) {
    return (v < 0.0 ? -1.0 : 1.0) * portable::pow(std::abs(v), e);
  };
  const Vector3d& k = scales_;
  std::vector<Vector3d> points;
  for (int i = 0; i <= rings; ++i) {
    const double eta = -M_PI / 2 + M_PI * i / rings;
    const int around = (i == 0 || i == rings) ? 1 : segments;
    for (int j = 0; j < around; ++j) {
      const double omega = -M_PI + 2.0 * M_PI * j / segments;
      const double ce = signedPow(portable::cos(eta), alpha1_);
      const Vector3d p(k.x() * ce * signedPow(portable::cos(omega), alpha2_),
                       k.y() * ce * signedPow(portable::sin(omega), alpha2_),
                       k.z() * signedPow(portable::sin(eta), alpha1_));
      // The outward normal: the gradient of eq. 16 (its x-y part vanishes at the poles).
      const double X = portable::pow(std::abs(p.x() / k.x()), 2.0 / alpha2_);
      const double Y = portable::pow(std::abs(p.y() / k.y()), 2.0 / alpha2_);
      const double xy = X + Y > 0.0 ? portable::pow(X + Y, alpha2_ / alpha1_ - 1.0) : 0.0;
      const auto radial = [&](double v, double scale) {
        return (2.0 / alpha1_) * xy * signedPow(v / scale, 2.0 / alpha2_ - 1.0) / scale;
      };
      Vector3d n(radial(p.x(), k.x()), radial(p.y(), k.y()),
                 (2.0 / alpha1_) * signedPow(p.z() / k.z(), 2.0 / alpha1_ - 1.0) / k.z());
      points.push_back(n.squaredNorm() > 0.0 ? Vector3d(p + offset * n.normalized()) : p);
    }
  }
  return points;
}

SupportValue Superquadric::evaluate(const Vector3d& x) const {
  // h = G(s, w) with s = g2(a x, b y) and w = c z.
  const Vector3d& k = scales_;
  const PNorm inner = pnorm(k.x() * x.x(), k.y() * x.y(), q2_);
  const PNorm outer = pnorm(inner.value, k.z() * x.z(), q1_);
  const Vector3d ds(k.x() * inner.gradient.x(), k.y() * inner.gradient.y(), 0.0);
  const Vector3d dw(0.0, 0.0, k.z());
  Matrix3d hs = Matrix3d::Zero();
  hs(0, 0) = k.x() * k.x() * inner.hessian(0, 0);
  hs(1, 1) = k.y() * k.y() * inner.hessian(1, 1);
  hs(0, 1) = hs(1, 0) = k.x() * k.y() * inner.hessian(0, 1);
  SupportValue out;
  out.h = outer.value;
  out.gradient = outer.gradient.x() * ds + outer.gradient.y() * dw;
  out.hessian = outer.gradient.x() * hs + outer.hessian(0, 0) * ds * ds.transpose() +
                outer.hessian(0, 1) * (ds * dw.transpose() + dw * ds.transpose()) +
                outer.hessian(1, 1) * dw * dw.transpose();
  return out;
}

Vector3d Superquadric::supportPoint(const Vector3d& x) const {
  const Vector3d& k = scales_;
  const PNorm inner = pnorm(k.x() * x.x(), k.y() * x.y(), q2_);
  const double m = std::max(std::abs(inner.value), std::abs(k.z() * x.z()));
  if (!(m > 0.0)) return {k.x(), 0.0, 0.0};
  // Only the outer gradient is needed: sign |.|^(q-1) g^(1-q), on scaled values.
  const double as = inner.value / m, aw = std::abs(k.z() * x.z()) / m;
  const double ps = portable::pow(as, q1_), pw = portable::pow(aw, q1_);
  const double g = portable::pow(ps + pw, 1.0 / q1_);
  const double g1q = g / (ps + pw);  // g^(1-q), as in pnorm
  const double gs = as > 0.0 ? ps / as * g1q : 0.0;
  const double gw = (x.z() < 0.0 ? -1.0 : 1.0) * (aw > 0.0 ? pw / aw * g1q : 0.0);
  return {gs * k.x() * inner.gradient.x(), gs * k.y() * inner.gradient.y(), gw * k.z()};
}

}  // namespace hb
