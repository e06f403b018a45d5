#include "apps/bench/common/bench_timer.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <thread>

namespace hb::bench {

TickClock::TickClock() {
#if defined(__x86_64__)
  using Clock = std::chrono::steady_clock;
  const auto wallStart = Clock::now();
  const std::uint64_t tickStart = now();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const std::uint64_t tickStop = now();
  const auto wallStop = Clock::now();
  const double us = std::chrono::duration<double, std::micro>(wallStop - wallStart).count();
  ticksPerMicrosecond_ = static_cast<double>(tickStop - tickStart) / us;
#else
  ticksPerMicrosecond_ =
      1e-3 * std::chrono::steady_clock::period::den / std::chrono::steady_clock::period::num;
#endif
  // The smallest empty measurement is what every measurement pays on top of the timed call.
  std::uint64_t best = ~std::uint64_t{0};
  for (int i = 0; i < 10000; ++i) {
    const std::uint64_t t0 = now();
    const std::uint64_t t1 = now();
    best = std::min(best, t1 - t0);
  }
  overheadTicks_ = static_cast<double>(best);
}

const char* TickClock::source() const {
#if defined(__x86_64__)
  return "rdtsc (lfence-fenced), calibrated against steady_clock";
#else
  return "steady_clock";
#endif
}

double meanOfLowest(std::span<double> samples, double fraction) {
  if (samples.empty()) return 0.0;
  const std::size_t keep = std::clamp<std::size_t>(
      static_cast<std::size_t>(fraction * static_cast<double>(samples.size())), 1, samples.size());
  std::nth_element(samples.begin(), samples.begin() + (keep - 1), samples.end());
  // After nth_element the first `keep` elements are the lowest ones (in no particular order).
  return std::accumulate(samples.begin(), samples.begin() + keep, 0.0) / static_cast<double>(keep);
}

double median(std::vector<double> samples) {
  if (samples.empty()) return std::numeric_limits<double>::quiet_NaN();
  const std::size_t mid = samples.size() / 2;
  std::nth_element(samples.begin(), samples.begin() + mid, samples.end());
  if (samples.size() % 2 == 1) return samples[mid];
  // The lower middle one is the largest of those before it.
  return 0.5 * (samples[mid] + *std::max_element(samples.begin(), samples.begin() + mid));
}

double mean(const std::vector<double>& samples) {
  if (samples.empty()) return std::numeric_limits<double>::quiet_NaN();
  return std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(samples.size());
}

}  // namespace hb::bench
