#include "collision/convex_region.hpp"

#include <algorithm>
#include <cmath>

namespace hb::cta {

using Eigen::Vector2d;

void cut(Region& region, const Vector2d& n, double c) {
  Region out;
  const std::size_t m = region.size();
  for (std::size_t i = 0; i < m; ++i) {
    const Vector2d& p = region[i];
    const Vector2d& q = region[(i + 1) % m];
    const double fp = n.dot(p) - c, fq = n.dot(q) - c;
    if (fp <= 0.0) out.push_back(p);
    if ((fp < 0.0 && fq > 0.0) || (fp > 0.0 && fq < 0.0))
      out.push_back(p + (fp / (fp - fq)) * (q - p));
  }
  region.swap(out);
}

Vector2d centroid(const Region& region) {
  double area = 0.0;
  Vector2d c = Vector2d::Zero(), mean = Vector2d::Zero();
  for (const Vector2d& p : region) mean += p;
  mean /= static_cast<double>(region.size());
  for (std::size_t i = 0; i < region.size(); ++i) {
    const Vector2d p = region[i] - mean, q = region[(i + 1) % region.size()] - mean;
    const double w = p.x() * q.y() - p.y() * q.x();
    area += w;
    c += w * (p + q);
  }
  if (!(std::abs(area) > 0.0)) return mean;
  return mean + c / (3.0 * area);
}

double diameter(const Region& region) {
  double d = 0.0;
  for (const Vector2d& p : region)
    for (const Vector2d& q : region) d = std::max(d, (p - q).squaredNorm());
  return std::sqrt(d);
}

bool inside(const Region& region, const Vector2d& z) {
  for (std::size_t i = 0; i < region.size(); ++i) {
    const Vector2d e = region[(i + 1) % region.size()] - region[i];
    const Vector2d r = z - region[i];
    if (e.x() * r.y() - e.y() * r.x() < 0.0) return false;
  }
  return true;
}

}  // namespace hb::cta
