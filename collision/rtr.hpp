#pragma once
// Minimum translational distance of two smooth convex bodies by the Riemannian trust-region
// method (An et al., "collision detection between smooth convex bodies via Riemannian
// optimisation"). With D = B - A and h_D(x) = h_B(x) + h_A(-x),
//   MTD(A, B) = -min over unit x of h_D(x)
// is the signed distance: positive apart, minus the penetration depth when they overlap, and the
// minimiser x* points from B towards A. On the sphere S^2 the Riemannian gradient and Hessian
// of h_D are (I - x x^T) grad h_D and Hess h_D - (x . grad h_D) I on the tangent plane (eq.
// 11-12); each step solves the trust-region model by truncated conjugate gradients (Steihaug-
// Toint), retracts by normalisation, and accepts or shrinks by the ratio of actual to predicted
// decrease (Algo. 2). It stops when the gradient is below a tolerance and the Hessian's least
// eigenvalue is above minus one (eq. 13), starting from the centres' direction (eq. 14).
//
// Shapes: superquadrics, prescribed support functions, spheres and ellipsoids (whose supports
// are twice differentiable), each with its convex radius.

#include <Eigen/Core>
#include <string_view>

#include "collision/pose.hpp"
#include "collision/shape.hpp"

namespace hb {

enum class RtrStatus {
  Converged,      ///< the stopping test of eq. 13 holds
  MaxIterations,  ///< the cap was reached; the answer is the last iterate's
  InvalidInput,   ///< a non-finite pose, or a shape without a twice differentiable support
};
std::string_view toString(RtrStatus s);

struct RtrOptions {
  double gradientTolerance = 1e-10;  ///< epsilon_g: |Riemannian gradient| (metres)
  double hessianTolerance = 1e-10;   ///< epsilon_H: least Hessian eigenvalue > -epsilon_H
  int maxIterations = 64;
  int maxInnerIterations = 8;  ///< truncated CG steps per iteration (2 suffice on S^2)
  double maxRadius = 1.0;      ///< d-bar: the trust region's largest radius (tangent length)
  double acceptance = 0.1;     ///< rho': a step is taken when its ratio exceeds it
};

struct RtrResult {
  RtrStatus status = RtrStatus::InvalidInput;
  /// Signed distance (metres): > 0 apart, < 0 minus the penetration depth.
  double distance = 0.0;
  Eigen::Vector3d normal = Eigen::Vector3d::UnitX();   ///< world, unit, from A towards B (-x*)
  Eigen::Vector3d witnessA = Eigen::Vector3d::Zero();  ///< A's support point along the normal
  Eigen::Vector3d witnessB = Eigen::Vector3d::Zero();  ///< B's support point against it
  int iterations = 0;
  double gradientNorm = 0.0;  ///< |Riemannian gradient| at the answer
};

/// True for shapes whose support is twice differentiable: RTR can take them. A superquadric's is
/// where both exponents are at least 1; below, its Hessian is unbounded along the axes and RTR
/// stalls or stops at the wrong depth (at exponents 0.2, 233 of 300 overlapping pairs did not
/// converge), so such a superquadric is EPA's.
bool hasSmoothSupport(const Shape& shape);

/// The minimum translational distance of A and B. `initialNormal` (world, from A towards B;
/// zero: the centres' direction) starts the search.
RtrResult minimumTranslationalDistance(
    const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB,
    const RtrOptions& options = {}, const Eigen::Vector3d& initialNormal = Eigen::Vector3d::Zero());

}  // namespace hb
