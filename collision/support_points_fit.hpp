#pragma once
// Fitting a prescribed support function (support_points.hpp) to a convex hull: `count` points
// and a sharpness beta whose support function matches the hull's over the sphere of directions,
// as An et al. do for their YCB experiment (20 points). The points start at the hull vertices
// farthest from each other (farthest-point sampling from the one farthest from the centroid),
// pulled slightly towards the centroid, and are then moved by damped Gauss-Newton steps
// (Levenberg-Marquardt) on the squared support errors along evenly spread directions: the
// gradient of h with respect to a point p_i is (t_i / h)^(beta - 1) x, with t_i = p_i . x.

#include <Eigen/Core>
#include <vector>

#include "collision/convex_hull.hpp"

namespace hb {

struct SupportPointsFit {
  std::vector<Eigen::Vector3d> points;               ///< in the hull's frame, relative to `origin`
  Eigen::Vector3d origin = Eigen::Vector3d::Zero();  ///< the hull's centroid
  double rmsError = 0.0;  ///< metres: root mean square of h_fit - h_hull over the directions
  double maxError = 0.0;  ///< metres: the largest |h_fit - h_hull|
  int iterations = 0;
};

/// Fits `count` (>= 4) points of sharpness `beta` (>= 2) to `hull` over `directions` evenly
/// spread directions, in at most `maxIterations` Gauss-Newton steps. Throws
/// std::invalid_argument for bad counts.
SupportPointsFit fitSupportPoints(const ConvexHull& hull, int count, double beta,
                                  int directions = 400, int maxIterations = 50);

}  // namespace hb
