#include "engine/pair_cache.hpp"

#include <algorithm>

namespace hb {

PairCacheEntry& PairCache::entry(int i, int j) {
  const std::uint64_t k = key(i, j);
  if (keys_.empty() || keys_.back() < k) {
    keys_.push_back(k);
    return entries_.emplace_back();
  }
  const auto at = std::lower_bound(keys_.begin(), keys_.end(), k);
  const auto n = at - keys_.begin();
  if (*at != k) {
    keys_.insert(at, k);
    entries_.emplace(entries_.begin() + n);
  }
  return entries_[n];
}

const PairCacheEntry* PairCache::find(int i, int j) const {
  const std::uint64_t k = key(i, j);
  const auto at = std::lower_bound(keys_.begin(), keys_.end(), k);
  return at != keys_.end() && *at == k ? &entries_[at - keys_.begin()] : nullptr;
}

const PairCacheEntry* PairCache::Cursor::find(int i, int j) {
  const std::vector<std::uint64_t>& keys = cache_.keys_;
  const std::uint64_t k = key(i, j);
  if (at_ > 0 && keys[at_ - 1] >= k) at_ = 0;  // not in increasing order: start again
  // Gallop from where the last look-up ended, then search the bracket found.
  std::size_t step = 1, end = at_;
  while (end < keys.size() && keys[end] < k) {
    at_ = end + 1;
    end += step;
    step *= 2;
  }
  const auto begin = keys.begin() + static_cast<std::ptrdiff_t>(at_);
  const auto found = std::lower_bound(begin, keys.begin() + std::min(end, keys.size()), k);
  at_ = static_cast<std::size_t>(found - keys.begin());
  if (at_ == keys.size() || keys[at_] != k) return nullptr;
  return &cache_.entries_[at_++];
}

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
