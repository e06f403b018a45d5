#pragma once
// A superquadric (An et al., eq. 16): the body
//   ((x / a)^(2 / alpha2) + (y / b)^(2 / alpha2))^(alpha2 / alpha1) + (z / c)^(2 / alpha1) <= 1,
// the unit ball of the nested norm N(p) = || ( ||(x/a, y/b)||_(2/alpha2), z/c ) ||_(2/alpha1).
// Its support function is the dual norm, the same nesting with the dual exponents
// q = 2 / (2 - alpha):
//   h(u) = || ( ||(a u_x, b u_y)||_q2, c u_z ) ||_q1,
// so h, the support point (its gradient) and the Hessian have closed forms. alpha = 1 gives an
// ellipsoid; alpha -> 0 a box; alpha -> 2 a double cone or pyramid. Strictly convex for exponents
// in (0, 2), with a twice differentiable support for [1, 2).

#include <vector>

#include "collision/smooth_convex.hpp"

namespace hb {

class Superquadric final : public SmoothConvex {
 public:
  /// Scales a, b, c (metres) and exponents alpha1 (the z term) and alpha2 (the x-y term).
  /// Throws std::invalid_argument for non-positive or non-finite scales or exponents outside
  /// (0, 2).
  Superquadric(const Eigen::Vector3d& scales, double alpha1, double alpha2);

  const Eigen::Vector3d& scales() const { return scales_; }
  double alpha1() const { return alpha1_; }
  double alpha2() const { return alpha2_; }
  /// The implicit function of eq. 16 (0 on the surface, negative inside).
  double implicit(const Eigen::Vector3d& p) const;
  /// Points of the surface moved out along its normal by `offset`, on the classic parametric
  /// grid (x = a C(eta)^alpha1 C(omega)^alpha2, y = b C(eta)^alpha1 S(omega)^alpha2,
  /// z = c S(eta)^alpha1 with signed powers), which crowds the points where the surface bends
  /// most: `rings` latitudes between the poles, `segments` longitudes.
  std::vector<Eigen::Vector3d> surfacePoints(int rings, int segments, double offset) const;

  SupportValue evaluate(const Eigen::Vector3d& x) const override;
  Eigen::Vector3d supportPoint(const Eigen::Vector3d& x) const override;

 private:
  Eigen::Vector3d scales_;
  double alpha1_, alpha2_;
  double q1_, q2_;  // dual exponents 2 / (2 - alpha)
};

}  // namespace hb
