#pragma once
// The search region of the collision-translation algorithm (collision/cta.cpp): a convex polygon
// in the plane of the two section heights, cut down by half-planes as the search learns where
// the least translation cannot be.

#include <Eigen/Core>
#include <vector>

namespace hb::cta {

/// Counter-clockwise corners.
using Region = std::vector<Eigen::Vector2d>;

/// Keeps the part of `region` with n . z <= c.
void cut(Region& region, const Eigen::Vector2d& n, double c);
/// The centroid of its area (the mean of its corners when it has none).
Eigen::Vector2d centroid(const Region& region);
/// The largest distance between two of its corners.
double diameter(const Region& region);
/// Whether z lies in it (on its boundary counts).
bool inside(const Region& region, const Eigen::Vector2d& z);

}  // namespace hb::cta
