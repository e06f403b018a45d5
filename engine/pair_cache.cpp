#include "engine/pair_cache.hpp"

#include <algorithm>

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

void PairCache::storeContacts(PairCacheEntry& entry, std::span<const ContactConstraint> contacts,
                              const Pose& bodyA) {
  entry.contactCount = static_cast<int>(std::min(contacts.size(), entry.contacts.size()));
  for (int i = 0; i < entry.contactCount; ++i) {
    const ContactConstraint& c = contacts[i];
    entry.contacts[i].pointOnA = bodyA.applyInverse(c.point);
    entry.contacts[i].impulse =
        c.normal * c.impulse.x() + c.tangent1 * c.impulse.y() + c.tangent2 * c.impulse.z();
  }
}

void PairCache::warmStart(const PairCacheEntry& entry, ContactConstraint& contact,
                          const Pose& bodyA, double radius) {
  if (const auto impulse = matchImpulse(entry, bodyA.applyInverse(contact.point), radius)) {
    contact.impulse = {std::max(0.0, contact.normal.dot(*impulse)), contact.tangent1.dot(*impulse),
                       contact.tangent2.dot(*impulse)};
  }
}

}  // namespace hb
