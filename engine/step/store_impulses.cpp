// The store-impulses stage, at the end of the solve: each pair's cache takes the (sub)step's
// contacts and impulses, for the next one's warm start (engine/pair_cache.hpp).

#include <span>

#include "engine/world.hpp"

namespace hb {

void World::storeImpulses() {
  // Every pair's cache gets exactly this substep's contacts, for the next one's warm start.
  for (const NarrowPhaseRecord& record : context_.narrowPhase) {
    const std::span<const ContactConstraint> contacts(
        context_.contacts.data() + record.firstContact, record.contactCount);
    const int bodyA = proxies_[record.proxyA].body;
    PairCache::storeContacts(*record.cache, contacts, bodyPose(bodyA), substepLength());
  }
}

}  // namespace hb
