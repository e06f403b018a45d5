#pragma once
// Prescribed support functions (An et al., eq. 17 and 19, after Lee et al.): a smooth convex body
// around a point set p_i, defined by its support function
//   h(x) = ( sum_i max(p_i . x, 0)^beta )^(1 / beta),
// which tends to the support of the points' hull as the sharpness beta grows. It is twice
// differentiable for beta >= 2 and strictly convex wherever three independent points face x.
// The solid-of-revolution form (eq. 19) reads a profile (r_i, z_i) in the x-z plane, mirrored
// about the z axis, at r = (sqrt(x^2 + y^2 + gamma z^2), z); gamma > 0 rounds the flat top and
// bottom.

#include <Eigen/Core>
#include <vector>

#include "collision/smooth_convex.hpp"

namespace hb {

class SupportPoints final : public SmoothConvex {
 public:
  /// Throws std::invalid_argument for fewer than 4 points, a non-finite coordinate, beta < 2,
  /// or an origin not strictly inside the points' hull (the body must contain it).
  SupportPoints(std::vector<Eigen::Vector3d> points, double beta);
  /// The solid of revolution of a profile (r >= 0, z). Throws as above (at least 2 points, the
  /// origin inside the mirrored profile's polygon) and for gamma <= 0.
  static SupportPoints revolution(const std::vector<Eigen::Vector2d>& profile, double beta,
                                  double gamma);

  const std::vector<Eigen::Vector3d>& points() const { return points_; }
  double beta() const { return beta_; }
  bool isRevolution() const { return revolution_; }
  /// The profile of a solid of revolution, as given (before mirroring).
  const std::vector<Eigen::Vector2d>& profile() const { return profile_; }
  double gamma() const { return gamma_; }

  SupportValue evaluate(const Eigen::Vector3d& x) const override;
  Eigen::Vector3d supportPoint(const Eigen::Vector3d& x) const override;

 private:
  SupportPoints() = default;
  /// The 2-D form on the mirrored profile: h, gradient and Hessian in r.
  SupportValue evaluateProfile(const Eigen::Vector2d& r) const;

  std::vector<Eigen::Vector3d> points_;
  std::vector<Eigen::Vector2d> profile_, mirrored_;
  double beta_ = 0.0, gamma_ = 0.0;
  bool revolution_ = false;
};

}  // namespace hb
