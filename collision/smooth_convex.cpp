#include "collision/smooth_convex.hpp"

#include <algorithm>
#include <cmath>

#include "collision/portable_math.hpp"

namespace hb {

std::vector<Eigen::Vector3d> evenDirections(int n) {
  std::vector<Eigen::Vector3d> out;
  out.reserve(n);
  const double golden = M_PI * (3.0 - std::sqrt(5.0));
  for (int i = 0; i < n; ++i) {
    const double z = 1.0 - (2.0 * i + 1.0) / n, r = std::sqrt(1.0 - z * z);
    out.emplace_back(r * portable::cos(golden * i), r * portable::sin(golden * i), z);
  }
  return out;
}

Eigen::Vector3d SmoothConvex::boundingHalfExtents() const {
  Eigen::Vector3d half;
  for (int i = 0; i < 3; ++i) {
    const Eigen::Vector3d e = Eigen::Vector3d::Unit(i);
    half[i] = std::max(evaluate(e).h, evaluate(-e).h);
  }
  return half;
}

}  // namespace hb
