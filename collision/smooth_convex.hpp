#pragma once
// Smooth convex bodies known by their support function h (An et al., collision detection between
// smooth convex bodies as Riemannian optimisation): h(x) = max over the body of x . p, positively
// homogeneous of degree one, so its gradient is the support point and its Hessian, on the sphere
// of directions, carries the surface's radii of curvature. Two families: superquadrics
// (superquadric.hpp) and prescribed support functions of point sets (support_points.hpp).

#include <Eigen/Core>
#include <vector>

namespace hb {

/// h at x, its gradient (the support point, local frame) and its Hessian (Euclidean, 3 x 3;
/// x is one of its null directions).
struct SupportValue {
  double h = 0.0;
  Eigen::Vector3d gradient = Eigen::Vector3d::Zero();
  Eigen::Matrix3d hessian = Eigen::Matrix3d::Zero();
};

/// `n` unit directions spread evenly over the sphere (a Fibonacci lattice): where smooth bodies
/// are sampled (tessellations, fits).
std::vector<Eigen::Vector3d> evenDirections(int n);

class SmoothConvex {
 public:
  virtual ~SmoothConvex() = default;
  /// h, gradient and Hessian at a non-zero x (any length). Exact closed forms.
  virtual SupportValue evaluate(const Eigen::Vector3d& x) const = 0;
  /// The support point alone (the gradient), for GJK.
  virtual Eigen::Vector3d supportPoint(const Eigen::Vector3d& x) const = 0;
  /// Half extents of an axis-aligned box around the body (local frame, centred at the origin).
  Eigen::Vector3d boundingHalfExtents() const;
};

}  // namespace hb
