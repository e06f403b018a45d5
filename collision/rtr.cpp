#include "collision/rtr.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <cmath>

#include "collision/superquadric.hpp"

namespace hb {

namespace {

using Eigen::Matrix2d;
using Eigen::Matrix3d;
using Eigen::Vector2d;
using Eigen::Vector3d;

/// h, gradient and Hessian of a shape's full support (core plus convex radius) at x, local frame.
SupportValue localSupport(const Shape& s, const Vector3d& x) {
  SupportValue v;
  switch (s.type()) {
    case ShapeType::Superquadric:
    case ShapeType::SupportPoints:
      v = s.smooth().evaluate(x);
      break;
    case ShapeType::Ellipsoid: {
      const Vector3d r = s.radii();
      const Vector3d rx = r.cwiseProduct(x);
      const double n = rx.norm();
      const Vector3d r2x = r.cwiseProduct(rx);
      v.h = n;
      v.gradient = r2x / n;
      v.hessian =
          (Matrix3d(r.cwiseProduct(r).asDiagonal()) - v.gradient * v.gradient.transpose()) / n;
      break;
    }
    default:  // a sphere's core is its centre: the radius below is all of it
      break;
  }
  const double r = s.convexRadius();
  if (r > 0.0) {
    const double n = x.norm();
    const Vector3d u = x / n;
    v.h += r * n;
    v.gradient += r * u;
    v.hessian += (r / n) * (Matrix3d::Identity() - u * u.transpose());
  }
  return v;
}

/// The same in the world: h(x) = h_local(R^T x) + t . x.
SupportValue worldSupport(const Shape& s, const Matrix3d& rotation, const Vector3d& t,
                          const Vector3d& x) {
  const SupportValue local = localSupport(s, rotation.transpose() * x);
  return {local.h + t.dot(x), rotation * local.gradient + t,
          rotation * local.hessian * rotation.transpose()};
}

/// An orthonormal basis of the tangent plane at x (columns).
Eigen::Matrix<double, 3, 2> tangentBasis(const Vector3d& x) {
  Eigen::Matrix<double, 3, 2> v;
  v.col(0) = x.unitOrthogonal();
  v.col(1) = x.cross(v.col(0));
  return v;
}

/// Steihaug-Toint truncated CG for min g.v + v.Hv / 2 over |v| <= radius.
Vector2d truncatedCg(const Vector2d& g, const Matrix2d& H, double radius, int maxSteps) {
  Vector2d v = Vector2d::Zero(), r = g, p = -g;
  const double stop = g.norm() * std::min(0.1, g.norm());
  const auto toBoundary = [&](const Vector2d& from, const Vector2d& dir) {
    // tau >= 0 with |from + tau dir| = radius.
    const double a = dir.squaredNorm(), b = from.dot(dir), c = from.squaredNorm() - radius * radius;
    const double tau = (-b + std::sqrt(std::max(0.0, b * b - a * c))) / a;
    return Vector2d(from + tau * dir);
  };
  for (int k = 0; k < maxSteps && p.squaredNorm() > 0.0; ++k) {
    const double curvature = p.dot(H * p);
    if (curvature <= 0.0) return toBoundary(v, p);
    const double alpha = r.squaredNorm() / curvature;
    const Vector2d next = v + alpha * p;
    if (next.norm() >= radius) return toBoundary(v, p);
    const Vector2d rNext = r + alpha * (H * p);
    v = next;
    if (rNext.norm() <= stop) break;
    p = -rNext + (rNext.squaredNorm() / r.squaredNorm()) * p;
    r = rNext;
  }
  return v;
}

}  // namespace

std::string_view toString(RtrStatus s) {
  switch (s) {
    case RtrStatus::Converged:
      return "converged";
    case RtrStatus::MaxIterations:
      return "max_iterations";
    case RtrStatus::InvalidInput:
      return "invalid_input";
  }
  return "unknown";
}

bool hasSmoothSupport(const Shape& shape) {
  switch (shape.type()) {
    case ShapeType::Sphere:
    case ShapeType::Ellipsoid:
    case ShapeType::SupportPoints:
      return true;
    case ShapeType::Superquadric: {
      const auto& s = static_cast<const Superquadric&>(shape.smooth());
      return s.alpha1() >= 1.0 && s.alpha2() >= 1.0;
    }
    default:
      return false;
  }
}

RtrResult minimumTranslationalDistance(const Shape& a, const Pose& poseA, const Shape& b,
                                       const Pose& poseB, const RtrOptions& options,
                                       const Vector3d& initialNormal) {
  RtrResult out;
  if (!poseA.isValid() || !poseB.isValid() || !hasSmoothSupport(a) || !hasSmoothSupport(b))
    return out;
  const Matrix3d ra = poseA.rotation(), rb = poseB.rotation();
  // f(x) = h_D(x) = h_B(x) + h_A(-x), with its Euclidean gradient and Hessian.
  struct Value {
    double f;
    Vector3d gradient;
    Matrix3d hessian;
    Vector3d onA, onB;
  };
  const auto value = [&](const Vector3d& x) {
    const SupportValue sb = worldSupport(b, rb, poseB.p, x);
    const SupportValue sa = worldSupport(a, ra, poseA.p, -x);
    return Value{sb.h + sa.h, sb.gradient - sa.gradient, sb.hessian + sa.hessian, sa.gradient,
                 sb.gradient};
  };
  // Eq. 14: from B's centre towards A's (the centres of the shapes' frames, -initialNormal).
  Vector3d x = -initialNormal;
  if (!(x.squaredNorm() > 0.0)) x = poseA.p - poseB.p;
  if (!(x.squaredNorm() > 0.0)) x = Vector3d::UnitX();
  x.normalize();

  double radius = options.maxRadius / 8.0;
  Value current = value(x);
  int k = 0;
  bool converged = false;
  for (; k < options.maxIterations; ++k) {
    const Eigen::Matrix<double, 3, 2> V = tangentBasis(x);
    const Vector2d g = V.transpose() * current.gradient;
    const Matrix2d H =
        V.transpose() * current.hessian * V - x.dot(current.gradient) * Matrix2d::Identity();
    const double leastEigenvalue = Eigen::SelfAdjointEigenSolver<Matrix2d>(H).eigenvalues()(0);
    out.gradientNorm = g.norm();
    if (g.norm() < options.gradientTolerance && leastEigenvalue > -options.hessianTolerance) {
      converged = true;
      break;
    }
    const Vector2d v = truncatedCg(g, H, radius, options.maxInnerIterations);
    const double predicted = -(g.dot(v) + 0.5 * v.dot(H * v));
    const Vector3d candidate = (x + V * v).normalized();
    const Value next = value(candidate);
    const double actual = current.f - next.f;
    // A step too small to change f in double precision: as good as converged.
    if (!(predicted > 0.0) || std::abs(actual) <= 1e-15 * (1.0 + std::abs(current.f))) {
      if (g.norm() < std::sqrt(options.gradientTolerance)) {
        converged = true;
        break;
      }
    }
    const double rho = predicted > 0.0 ? actual / predicted : -1.0;
    if (rho < 0.25)
      radius /= 4.0;
    else if (rho > 0.75 && v.norm() >= 0.99 * radius)
      radius = std::min(2.0 * radius, options.maxRadius);
    if (rho > options.acceptance) {
      x = candidate;
      current = next;
    }
    if (radius < 1e-300) break;
  }
  out.status = converged ? RtrStatus::Converged : RtrStatus::MaxIterations;
  out.iterations = k;
  out.distance = -current.f;
  out.normal = -x;
  out.witnessA = current.onA;
  out.witnessB = current.onB;
  return out;
}

}  // namespace hb
