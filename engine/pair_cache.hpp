#pragma once
// What a pair of collision proxies remembers from one narrow-phase round (a step, or a substep) to
// the next: the narrow phase's last solution (for the previous / transformed-previous warm starts),
// the support-vertex hints, and the contact forces (for warm-starting the solver), keyed by the
// contact's position on A, and the contact manifold (re-posed instead of rebuilt while the pair
// barely moves).

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "collision/minkowski_difference.hpp"
#include "collision/persistent_manifold.hpp"
#include "collision/pose.hpp"
#include "collision/warm_start.hpp"
#include "dynamics/contact_constraint.hpp"

namespace hb {

struct CachedContact {
  Eigen::Vector3d pointOnA = Eigen::Vector3d::Zero();  ///< in body A's frame
  /// World frame, N: the contact's impulse over its (sub)step divided by the (sub)step's length,
  /// so that it warm starts a (sub)step of another length.
  Eigen::Vector3d force = Eigen::Vector3d::Zero();
};

struct PairCacheEntry {
  std::optional<PreviousSolution> previous;
  SupportHints hints;
  std::array<CachedContact, 4> contacts;
  int contactCount = 0;
  std::optional<PersistentManifold> manifold;
  /// The narrow-phase round (one per substep, collide) that last saw the pair.
  long lastRound = -1;
};

class PairCache {
 public:
  /// The entry of proxies (i, j), i < j, created empty on first use.
  PairCacheEntry& entry(int i, int j) { return entries_[key(i, j)]; }
  /// The entry find() returned, to write: the cache's writer (updatePairCache) takes
  /// the entries the narrow phase looked up without looking them up again.
  PairCacheEntry& entry(const PairCacheEntry& found) { return const_cast<PairCacheEntry&>(found); }
  /// The entry of (i, j) if there is one; threads may look up at once while none is added.
  const PairCacheEntry* find(int i, int j) const {
    const auto it = entries_.find(key(i, j));
    return it == entries_.end() ? nullptr : &it->second;
  }
  /// Drops pairs the narrow phase did not see in `round` (they left the broad phase), except
  /// those whose bodies sleep (`keep` says so).
  template <class Keep>
  void evictStale(long round, Keep keep) {
    for (auto it = entries_.begin(); it != entries_.end();) {
      const int i = static_cast<int>(it->first >> 32);
      const int j = static_cast<int>(it->first & 0xffffffffu);
      if (it->second.lastRound < round && !keep(i, j)) {
        it = entries_.erase(it);
      } else {
        ++it;
      }
    }
  }

  /// Drops the entries whose proxies (i, j) `drop` names.
  template <class Drop>
  void eraseIf(Drop drop) {
    std::erase_if(entries_, [&](const auto& item) {
      return drop(static_cast<int>(item.first >> 32), static_cast<int>(item.first & 0xffffffffu));
    });
  }
  /// Every entry as (i, j, entry), in the order of (i, j): the same bytes for the same cache,
  /// whatever order the entries were made in (World snapshots).
  template <class Visit>
  void forEachInOrder(Visit visit) const {
    std::vector<std::uint64_t> keys;
    keys.reserve(entries_.size());
    for (const auto& item : entries_) keys.push_back(item.first);
    std::sort(keys.begin(), keys.end());
    for (const std::uint64_t k : keys) {
      visit(static_cast<int>(k >> 32), static_cast<int>(k & 0xffffffffu), entries_.at(k));
    }
  }
  void clear() { entries_.clear(); }

  /// The force of the cached contact nearest to `pointOnA` (body A's frame), if one lies
  /// within `radius` metres.
  static std::optional<Eigen::Vector3d> matchForce(const PairCacheEntry& entry,
                                                   const Eigen::Vector3d& pointOnA, double radius);
  /// Keeps exactly these contacts of the pair (the first four), each at its point in body A's
  /// frame at `bodyA` (its pose this step) with its world impulse over `duration` seconds (the
  /// (sub)step solved) as a force: a pair that lost its contacts keeps none.
  static void storeContacts(PairCacheEntry& entry, std::span<const ContactConstraint> contacts,
                            const Pose& bodyA, double duration);
  /// Sets a new contact's impulse over `duration` seconds from the stored contact at the same
  /// point of body A (within `radius`), in the new contact's frame; leaves it at zero when none
  /// matches.
  static void warmStart(const PairCacheEntry& entry, ContactConstraint& contact, const Pose& bodyA,
                        double radius, double duration);

 private:
  static std::uint64_t key(int i, int j) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(i)) << 32) |
           static_cast<std::uint32_t>(j);
  }
  std::unordered_map<std::uint64_t, PairCacheEntry> entries_;
};

}  // namespace hb
