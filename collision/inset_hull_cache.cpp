#include "collision/inset_hull_cache.hpp"

#include <map>
#include <mutex>
#include <utility>

#include "collision/inset_hull.hpp"

namespace hb {
namespace {

// Keyed by the hull's address; the weak pointer tells a live hull from a dead one whose address
// a new hull took.
struct CachedCore {
  std::weak_ptr<const ConvexHull> hull;
  std::shared_ptr<const ConvexHull> core;
};

struct CoreCache {
  std::mutex mutex;
  std::map<std::pair<const ConvexHull*, double>, CachedCore> cores;
};

CoreCache& coreCache() {
  static CoreCache cache;
  return cache;
}

}  // namespace

std::shared_ptr<const ConvexHull> sharedInsetHull(const std::shared_ptr<const ConvexHull>& hull,
                                                  double r) {
  const auto key = std::make_pair(hull.get(), r);
  CoreCache& cache = coreCache();
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    const auto it = cache.cores.find(key);
    if (it != cache.cores.end() && it->second.hull.lock() == hull) return it->second.core;
  }
  // Computed unlocked (milliseconds to tens of them): other threads may cache other cores.
  auto core = std::make_shared<const ConvexHull>(insetHull(*hull, r));
  std::lock_guard<std::mutex> lock(cache.mutex);
  // Cores of hulls that died go; a thread that computed the same core meanwhile wins.
  std::erase_if(cache.cores, [](const auto& entry) { return entry.second.hull.expired(); });
  const auto [it, inserted] = cache.cores.try_emplace(key, CachedCore{hull, core});
  return it->second.core;
}

}  // namespace hb
