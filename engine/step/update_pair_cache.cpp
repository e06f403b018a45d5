// The pair cache stage, at the end of each (sub)step's solve, and the cache's only writer during
// a step: each pair the narrow phase saw remembers its solution and support hints (the next
// narrow phase's warm start), the manifold it keeps, and its contacts' forces (the next solve's
// warm start) (engine/pair_cache.hpp). The earlier stages read the cache as it was.

#include <cmath>
#include <span>

#include "engine/step/stages.hpp"

namespace hb {

void updatePairCache(const StepClock& clock, const BodyTable& bodies, const PieceTable& pieces,
                     WorkerPool& workers, StepContext& c, PairCache& pairCache) {
  // The entries: those the narrow phase found, and new ones made here for new pairs (one after
  // the other: the map grows; its nodes stay where they are). Then filled on the workers, each
  // pair its own entry.
  c.cacheEntries.resize(c.narrowPhase.size());
  for (size_t i = 0; i < c.narrowPhase.size(); ++i) {
    const NarrowPhaseRecord& record = c.narrowPhase[i];
    c.cacheEntries[i] = record.cache ? &pairCache.entry(*record.cache)
                                     : &pairCache.entry(record.proxyA, record.proxyB);
  }
  workers.forEach(c.narrowPhase.size(), [&](size_t i) {
    const NarrowPhaseRecord& record = c.narrowPhase[i];
    PairCacheEntry& entry = *c.cacheEntries[i];
    const CollisionResult& r = record.result;
    entry.hints = r.hints;
    entry.lastRound = clock.round;
    if (r.gjkStatus != GjkStatus::InvalidInput && std::isfinite(r.distance)) {
      entry.previous = makePreviousSolution(record.poseA, record.poseB, r.witnessA, r.witnessB,
                                            r.normal, r.distance);
    }
    PairContacts& made = c.pairContacts[i];
    if (made.source == ManifoldSource::Impact) entry.manifold.reset();
    if (made.keptManifold) entry.manifold = std::move(made.keptManifold);
    // Exactly this substep's contacts, for the next one's warm start.
    const std::span<const ContactConstraint> contacts(c.contacts.data() + record.firstContact,
                                                      record.contactCount);
    PairCache::storeContacts(entry, contacts, bodyPose(bodies, pieces.proxy[record.proxyA].body),
                             clock.h);
  });
  // Pairs the broad phase dropped lose their cache; sleeping pairs keep theirs.
  pairCache.evictStale(clock.round, [&](int i, int j) {
    return !bodies.state[pieces.proxy[i].body].isActive() &&
           !bodies.state[pieces.proxy[j].body].isActive();
  });
}

}  // namespace hb
