#include "engine/pair_cache.hpp"

namespace hb {

std::optional<Eigen::Vector3d> PairCache::matchImpulse(const PairCacheEntry& entry,
                                                       const Eigen::Vector3d& pointOnA,
                                                       double radius) {
  double best = radius * radius;
  std::optional<Eigen::Vector3d> impulse;
  for (int k = 0; k < entry.contactCount; ++k) {
    const double d2 = (entry.contacts[k].pointOnA - pointOnA).squaredNorm();
    if (d2 <= best) {
      best = d2;
      impulse = entry.contacts[k].impulse;
    }
  }
  return impulse;
}

}  // namespace hb
