#pragma once
// What a team of workers needs to share a solve's work phase by phase (the coloured sweeps,
// dynamics/contact_colouring.cpp, and the soft step's substeps, dynamics/contact_soft_step.cpp):
// each phase is a list of items that touch each other's data nowhere, claimed a few at a time,
// each worker from its own share first, and every worker waits until the phase is done before it
// starts on the next. A worker that starts late finds the work done, so no worker ever waits for
// another to start (the pool may run the tasks one after the other), and whichever worker does an
// item, the results are the same bits.

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <memory>
#include <thread>
#include <utility>

namespace hb {

/// Claims per worker's share of a phase: a worker claims an eighth of its share at once, so that
/// the workers share a phase evenly while claiming stays a small part of the work.
inline constexpr int kClaimsPerShare = 8;

/// A counter on a cache line of its own.
struct alignas(64) TeamCounter {
  std::atomic<int> value{0};
};

/// The counters of a team's phases: per phase, the items done and the items claimed from each
/// worker's range. A phase's items are cut into one contiguous range per worker, and a worker
/// claims from its own range first, so that it visits the same items (and keeps their rows in
/// its cache) sweep after sweep, and claims without contending; then from the others', so that
/// a worker that is late or never starts leaves nothing undone.
class TeamPhases {
 public:
  /// Zeroes the counters of `phases` phases for a team of `workers`.
  void ready(std::size_t phases, int workers) {
    workers_ = std::max(1, workers);
    const std::size_t size = phases * static_cast<std::size_t>(workers_ + 1);
    if (capacity_ < size) {
      counters_ = std::make_unique<TeamCounter[]>(size);
      capacity_ = size;
    }
    for (std::size_t i = 0; i < size; ++i) counters_[i].value.store(0, std::memory_order_relaxed);
  }
  int workers() const { return workers_; }
  TeamCounter& done(std::size_t phase) { return counters_[phase * (workers_ + 1)]; }
  /// The claims in worker r's range of the phase.
  TeamCounter& claimed(std::size_t phase, int r) {
    return counters_[phase * (workers_ + 1) + 1 + r];
  }

 private:
  std::unique_ptr<TeamCounter[]> counters_;
  std::size_t capacity_ = 0;
  int workers_ = 1;
};

/// Raises the double >= 0 stored as the bits `largestBits` to `value` (the bits of doubles >= 0
/// order as the numbers do), so that a largest change gathered from several workers does not
/// depend on their order.
inline void raiseTo(std::atomic<std::uint64_t>& largestBits, double value) {
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(value);
  std::uint64_t seen = largestBits.load(std::memory_order_relaxed);
  while (seen < bits && !largestBits.compare_exchange_weak(seen, bits, std::memory_order_relaxed)) {
  }
}

/// Waits until `done` reaches `count`; what the items wrote before counting themselves done is
/// then visible. Spins a while first: a phase is done within microseconds, unless the machine
/// has taken another worker's core.
inline void waitUntil(const std::atomic<int>& done, int count) {
  constexpr int kSpinsBeforeYield = 4096;
  int spins = 0;
  while (done.load(std::memory_order_acquire) < count) {
    if (spins < kSpinsBeforeYield) {
      ++spins;
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    } else {
      std::this_thread::yield();
    }
  }
}

/// Worker `worker`'s part of phase `phase` of `count` items: claims `claim` items at a time and
/// runs work(begin, end) on them, from its own range and then from the others', until none is
/// left; then, if it ran any, beforeCounting() (what it publishes there is seen by every worker
/// past the phase), and it waits for the others' items. A claim of the whole phase keeps it one
/// range, done by one worker in order (items that may not run at once).
template <typename Work, typename BeforeCounting>
void runTeamPhase(TeamPhases& phases, std::size_t phase, int worker, int count, int claim,
                  Work&& work, BeforeCounting&& beforeCounting) {
  const int ranges = claim >= count ? 1 : phases.workers();
  int mine = 0;
  for (int k = 0; k < ranges; ++k) {
    const int r = (worker + k) % ranges;
    const int first = static_cast<int>(static_cast<long>(count) * r / ranges);
    const int last = static_cast<int>(static_cast<long>(count) * (r + 1) / ranges);
    std::atomic<int>& claimed = phases.claimed(phase, r).value;
    // Another's range is looked at before it is claimed from: a read leaves its counter's
    // line with its owner, where a claim would take it away.
    if (k > 0 && claimed.load(std::memory_order_relaxed) >= last - first) continue;
    for (int begin; (begin = first + claimed.fetch_add(claim, std::memory_order_relaxed)) < last;) {
      const int end = std::min(last, begin + claim);
      work(begin, end);
      mine += end - begin;
    }
  }
  // Counted once, after all of this worker's items: one write to the shared line per phase.
  std::atomic<int>& done = phases.done(phase).value;
  if (mine > 0) {
    beforeCounting();
    done.fetch_add(mine, std::memory_order_release);
  }
  waitUntil(done, count);
}

template <typename Work>
void runTeamPhase(TeamPhases& phases, std::size_t phase, int worker, int count, int claim,
                  Work&& work) {
  runTeamPhase(phases, phase, worker, count, claim, std::forward<Work>(work), [] {});
}

}  // namespace hb
