#include "engine/pair_cache.hpp"

#include <algorithm>

namespace hb {

std::optional<Eigen::Vector3d> PairCache::matchForce(const PairCacheEntry& entry,
                                                     const Eigen::Vector3d& pointOnA,
                                                     double radius) {
  double best = radius * radius;
  std::optional<Eigen::Vector3d> force;
  for (int k = 0; k < entry.contactCount; ++k) {
    const double d2 = (entry.contacts[k].pointOnA - pointOnA).squaredNorm();
    if (d2 <= best) {
      best = d2;
      force = entry.contacts[k].force;
    }
  }
  return force;
}

void PairCache::storeContacts(PairCacheEntry& entry, std::span<const ContactConstraint> contacts,
                              const Pose& bodyA, double duration) {
  entry.contactCount = static_cast<int>(std::min(contacts.size(), entry.contacts.size()));
  for (int i = 0; i < entry.contactCount; ++i) {
    const ContactConstraint& c = contacts[i];
    entry.contacts[i].pointOnA = bodyA.applyInverse(c.point);
    entry.contacts[i].force =
        (c.normal * c.impulse.x() + c.tangent1 * c.impulse.y() + c.tangent2 * c.impulse.z()) /
        duration;
  }
}

void PairCache::warmStart(const PairCacheEntry& entry, ContactConstraint& contact,
                          const Pose& bodyA, double radius, double duration) {
  if (const auto force = matchForce(entry, bodyA.applyInverse(contact.point), radius)) {
    const Eigen::Vector3d impulse = duration * *force;
    contact.impulse = {std::max(0.0, contact.normal.dot(impulse)), contact.tangent1.dot(impulse),
                       contact.tangent2.dot(impulse)};
  }
}

}  // namespace hb
