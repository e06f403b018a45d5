// The pair cache stage, at the end of each (sub)step's solve, and the cache's only writer during
// a step: each pair the narrow phase saw remembers its solution and support hints (the next
// narrow phase's warm start), the manifold it keeps, and its contacts' forces (the next solve's
// warm start) (engine/pair_cache.hpp), in a cache rebuilt in the order of the pairs. The earlier
// stages read the cache as it was.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <span>

#include "engine/step/stages.hpp"

namespace hb {

void updatePairCache(const StepClock& clock, const BodyTable& bodies, const PieceTable& pieces,
                     WorkerPool& workers, StepContext& c, PairCache& pairCache) {
  // The records in the order of their pairs: each round of the narrow phase lists its pairs in
  // that order, and the rounds that woke islands follow the first.
  std::vector<std::uint32_t>& order = c.cacheOrder;
  order.resize(c.narrowPhase.size());
  std::iota(order.begin(), order.end(), 0u);
  std::vector<std::uint64_t>& seen = c.cacheKeys;
  const auto keyOf = [&](std::uint32_t i) {
    return PairCache::key(c.narrowPhase[i].proxyA, c.narrowPhase[i].proxyB);
  };
  seen.resize(order.size());
  for (size_t k = 0; k < order.size(); ++k) seen[k] = keyOf(order[k]);
  if (!std::is_sorted(seen.begin(), seen.end())) {
    std::sort(order.begin(), order.end(),
              [&](std::uint32_t x, std::uint32_t y) { return keyOf(x) < keyOf(y); });
    for (size_t k = 0; k < order.size(); ++k) seen[k] = keyOf(order[k]);
  }
  // Every field from the record, or from the old entry where the record leaves it (`old` may be
  // `entry`): the entry is written, not copied first.
  const auto update = [&](PairCacheEntry& entry, size_t k, const PairCacheEntry& old) {
    const size_t i = order[k];
    const NarrowPhaseRecord& record = c.narrowPhase[i];
    const CollisionResult& r = record.result;
    entry.hints = r.hints;
    entry.lastRound = clock.round;
    // A stand-in's answer (the kept manifold's) does not replace the last query's, which warm
    // starts the next one.
    if (record.queried && r.gjkStatus != GjkStatus::InvalidInput && std::isfinite(r.distance)) {
      entry.previous = makePreviousSolution(record.poseA, record.poseB, r.witnessA, r.witnessB,
                                            r.normal, r.distance);
    } else if (&entry != &old) {
      entry.previous = old.previous;
    }
    // Likewise the simplex (empty after an invalid query).
    if (record.queried) {
      entry.simplex = r.simplex;
    } else if (&entry != &old) {
      entry.simplex = old.simplex;
    }
    PairContacts& made = c.pairContacts[i];
    if (made.keptManifold) {
      entry.manifold = std::move(made.keptManifold);
    } else if (made.source == ManifoldSource::Impact) {
      entry.manifold.reset();
    } else if (&entry != &old) {
      entry.manifold = old.manifold;
    }
    // Exactly this substep's contacts, for the next one's warm start.
    const std::span<const ContactConstraint> contacts(c.contacts.data() + record.firstContact,
                                                      record.contactCount);
    PairCache::storeContacts(entry, contacts, bodyPose(bodies, pieces.proxy[record.proxyA].body),
                             clock.h);
  };
  // Pairs the broad phase dropped lose their cache; sleeping pairs keep theirs, and so do the
  // pairs of a body held while other islands take their substeps (World::step): its own pass
  // sees them.
  const auto asleep = [&](int i, int j) {
    const int a = pieces.proxy[i].body, b = pieces.proxy[j].body;
    if (c.isHeld(a) || c.isHeld(b)) return true;
    return !bodies.state[a].isActive() && !bodies.state[b].isActive();
  };
  pairCache.rebuild(seen, asleep, update, [&](size_t n, const auto& f) { workers.forEach(n, f); });
  // The records' entries moved.
  for (NarrowPhaseRecord& record : c.narrowPhase) record.cache = nullptr;
}

}  // namespace hb
