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
#include <vector>

#include "collision/minkowski_difference.hpp"
#include "collision/persistent_manifold.hpp"
#include "collision/pose.hpp"
#include "collision/warm_simplex.hpp"
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
  WarmSimplex simplex;  ///< GJK's last simplex, which starts the next query
  std::array<CachedContact, 4> contacts;
  int contactCount = 0;
  std::optional<PersistentManifold> manifold;
  /// The narrow-phase round (one per substep, collide) that last saw the pair.
  long lastRound = -1;
};

/// The entries are kept in the order of their pairs (i, j), as the broad phase lists its pairs:
/// the narrow phase reads them, and the pair cache stage writes them, front to back. (A hash map's
/// nodes, scattered over the heap, made each of those accesses a cache miss: on a pile of 5120
/// hulls the look-ups alone took 7% of the step.)
class PairCache {
 public:
  /// The entry of proxies (i, j), i < j, created empty on first use (in the order of (i, j):
  /// made in that order, each is appended).
  PairCacheEntry& entry(int i, int j);
  /// The entry of (i, j) if there is one; threads may look up at once while none is added.
  const PairCacheEntry* find(int i, int j) const;
  /// Looks up pairs given in increasing order of (i, j) with one walk over the cache.
  class Cursor {
   public:
    explicit Cursor(const PairCache& cache) : cache_(cache) {}
    const PairCacheEntry* find(int i, int j);

   private:
    const PairCache& cache_;
    std::size_t at_ = 0;  // no entry before it is looked up again
  };

  /// The cache for the next round: an entry for each of the pairs `seen` (the keys of the pairs
  /// the narrow phase saw, increasing: key(i, j)), made by `update(entry, k, old)` for the k-th of
  /// them from its old entry (an empty one for a new pair; `old` may be `entry` itself), which
  /// must set every field; the old entries not seen stay when `keep(i, j)` (their bodies sleep)
  /// and are dropped otherwise. `forEach(n, f)` calls f(0) ... f(n - 1), on any threads: each
  /// call writes its own entry.
  template <class Keep, class Update, class ForEach>
  void rebuild(std::span<const std::uint64_t> seen, Keep keep, Update update, ForEach forEach);

  /// Drops the entries whose proxies (i, j) `drop` names.
  template <class Drop>
  void eraseIf(Drop drop) {
    std::size_t kept = 0;
    for (std::size_t n = 0; n < keys_.size(); ++n) {
      if (drop(first(keys_[n]), second(keys_[n]))) continue;
      if (kept != n) {
        keys_[kept] = keys_[n];
        entries_[kept] = std::move(entries_[n]);
      }
      ++kept;
    }
    keys_.resize(kept);
    entries_.resize(kept);
  }
  /// Every entry as (i, j, entry), in the order of (i, j): the same bytes for the same cache,
  /// whatever order the entries were made in (World snapshots).
  template <class Visit>
  void forEachInOrder(Visit visit) const {
    for (std::size_t n = 0; n < keys_.size(); ++n) {
      visit(first(keys_[n]), second(keys_[n]), entries_[n]);
    }
  }
  std::size_t size() const { return keys_.size(); }
  void clear() {
    keys_.clear();
    entries_.clear();
  }

  static std::uint64_t key(int i, int j) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(i)) << 32) |
           static_cast<std::uint32_t>(j);
  }

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
  static int first(std::uint64_t key) { return static_cast<int>(key >> 32); }
  static int second(std::uint64_t key) { return static_cast<int>(key & 0xffffffffu); }
  /// Where a rebuilt entry comes from: an old entry (or -1: new) and a seen pair (or -1: kept).
  struct Source {
    std::int64_t old;
    std::int64_t seen;
  };

  std::vector<std::uint64_t> keys_;  // increasing
  std::vector<PairCacheEntry> entries_;
  // rebuild's: the next keys and entries, kept to be reused (no allocation once grown).
  std::vector<std::uint64_t> nextKeys_;
  std::vector<PairCacheEntry> nextEntries_;
  std::vector<Source> sources_;
};

template <class Keep, class Update, class ForEach>
void PairCache::rebuild(std::span<const std::uint64_t> seen, Keep keep, Update update,
                        ForEach forEach) {
  nextKeys_.clear();
  sources_.clear();
  std::size_t o = 0, s = 0;
  while (o < keys_.size() || s < seen.size()) {
    if (s == seen.size() || (o < keys_.size() && keys_[o] < seen[s])) {
      if (keep(first(keys_[o]), second(keys_[o]))) {
        nextKeys_.push_back(keys_[o]);
        sources_.push_back({static_cast<std::int64_t>(o), -1});
      }
      ++o;
    } else {
      const bool had = o < keys_.size() && keys_[o] == seen[s];
      nextKeys_.push_back(seen[s]);
      sources_.push_back({had ? static_cast<std::int64_t>(o) : -1, static_cast<std::int64_t>(s)});
      o += had;
      ++s;
    }
  }
  if (nextKeys_ == keys_) {  // the same pairs: every entry stays where it is
    forEach(sources_.size(), [&](std::size_t n) {
      const auto seenAt = sources_[n].seen;
      if (seenAt >= 0) update(entries_[n], static_cast<std::size_t>(seenAt), entries_[n]);
    });
    return;
  }
  nextEntries_.resize(sources_.size());
  static const PairCacheEntry kEmpty{};
  forEach(sources_.size(), [&](std::size_t n) {
    const Source& from = sources_[n];
    const PairCacheEntry& old = from.old >= 0 ? entries_[from.old] : kEmpty;
    if (from.seen >= 0) {
      update(nextEntries_[n], static_cast<std::size_t>(from.seen), old);
    } else {
      nextEntries_[n] = old;
    }
  });
  keys_.swap(nextKeys_);
  entries_.swap(nextEntries_);
}

}  // namespace hb
