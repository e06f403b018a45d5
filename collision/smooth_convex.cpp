#include "collision/smooth_convex.hpp"

#include <algorithm>

namespace hb {

Eigen::Vector3d SmoothConvex::boundingHalfExtents() const {
  Eigen::Vector3d half;
  for (int i = 0; i < 3; ++i) {
    const Eigen::Vector3d e = Eigen::Vector3d::Unit(i);
    half[i] = std::max(evaluate(e).h, evaluate(-e).h);
  }
  return half;
}

}  // namespace hb
