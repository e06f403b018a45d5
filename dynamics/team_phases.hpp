#pragma once
// What a team of workers needs to share a solve's work phase by phase (the coloured sweeps,
// dynamics/contact_colouring.cpp, and the soft step's substeps, dynamics/contact_soft_step.cpp):
// each phase is a list of items that touch each other's data nowhere, claimed a few at a time by
// whichever worker comes, and every worker waits until the phase is done before it starts on
// the next. A worker that starts late finds the work done, so no worker ever waits for another
// to start (the pool may run the tasks one after the other), and whichever worker does an item,
// the results are the same bits.

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <thread>

namespace hb {

/// Items of one phase handed out and items done.
struct TeamPhaseCounter {
  // Apart, so that the workers waiting on `done` do not slow the claims.
  alignas(64) std::atomic<int> claimed{0};
  alignas(64) std::atomic<int> done{0};
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

/// One worker's part of a phase of `count` items: claims `claim` items at a time and runs
/// work(begin, end) on them until none is left, then waits for the others' items.
template <typename Work>
void runTeamPhase(TeamPhaseCounter& counter, int count, int claim, Work&& work) {
  for (int begin; (begin = counter.claimed.fetch_add(claim, std::memory_order_relaxed)) < count;) {
    const int end = std::min(count, begin + claim);
    work(begin, end);
    counter.done.fetch_add(end - begin, std::memory_order_release);
  }
  waitUntil(counter.done, count);
}

}  // namespace hb
