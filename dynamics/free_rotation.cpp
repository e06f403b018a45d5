#include "dynamics/free_rotation.hpp"

#include <Eigen/LU>
#include <cmath>

#include "collision/portable_math.hpp"

namespace hb {
namespace {

Eigen::Matrix3d crossMatrix(const Eigen::Vector3d& v) {
  Eigen::Matrix3d m;
  m << 0.0, -v.z(), v.y(), v.z(), 0.0, -v.x(), -v.y(), v.x(), 0.0;
  return m;
}

/// theta / (h |Omega|) for theta = 2 atan(h |Omega| / 2): the Cayley rotation's angle over the
/// exponential's (1 - x^2 / 12 + ... for small x = h |Omega|).
double cayleyAngleRatio(double x) {
  if (x < 1e-4) return 1.0 - x * x / 12.0;
  return 2.0 * portable::atan(0.5 * x) / x;
}

}  // namespace

FreeRotationStep freeRotationStep(const Eigen::Matrix3d& inertia,
                                  const Eigen::Matrix3d& inverseInertia,
                                  const Eigen::Quaterniond& q, const Eigen::Vector3d& w, double h,
                                  const FreeRotationOptions& options) {
  FreeRotationStep out;
  out.stepAngularVelocity = w;
  const Eigen::Matrix3d r = q.toRotationMatrix();
  const Eigen::Vector3d momentum = inertia * (r.transpose() * w);  // body frame
  out.angularMomentum = r * momentum;
  const double scale = momentum.norm();
  if (!std::isfinite(scale)) return out;
  if (scale == 0.0) {
    out.converged = true;
    return out;
  }
  // Newton on F(x) = x - L - h (L_m x Omega_m), from x = L; the Jacobian is
  // Id - h/2 ([L_m]x I^-1 - [Omega_m]x).
  Eigen::Vector3d next = momentum;
  Eigen::Vector3d midpoint = momentum, omega = inverseInertia * momentum;
  for (int k = 0; k < options.maxIterations; ++k) {
    midpoint = 0.5 * (momentum + next);
    omega = inverseInertia * midpoint;
    const Eigen::Vector3d residual = next - momentum - h * midpoint.cross(omega);
    out.iterations = k + 1;
    if (!residual.allFinite()) return out;
    if (residual.norm() <= options.tolerance * scale) {
      out.converged = true;
      break;
    }
    const Eigen::Matrix3d jacobian =
        Eigen::Matrix3d::Identity() -
        0.5 * h * (crossMatrix(midpoint) * inverseInertia - crossMatrix(omega));
    next -= jacobian.partialPivLu().solve(residual);
  }
  if (!out.converged) return out;
  out.stepAngularVelocity = r * omega * cayleyAngleRatio(h * omega.norm());
  return out;
}

Eigen::Quaterniond rotateBy(const Eigen::Quaterniond& q, const Eigen::Vector3d& w, double h) {
  const double angle = h * w.norm();
  Eigen::Quaterniond turn;
  if (angle < 1e-8) {
    // exp(h [w]) to second order; normalised below.
    turn = Eigen::Quaterniond(1.0 - angle * angle / 8.0, 0.5 * h * w.x(), 0.5 * h * w.y(),
                              0.5 * h * w.z());
  } else {
    turn = portable::rotationAbout(w / w.norm(), angle);
  }
  return (turn * q).normalized();
}

}  // namespace hb
